// Doubles as JSON text a block at a time: JSON.stringify of ~1,024 values formats every number in
// C++ into one string — exactly the text String(v) gives, non-finite values already null. The
// column-major encoder (api/query) copies a block's text out whole: ~2× faster than String(v)
// per cell on random doubles, ~1.4× on short decimals. The row-major one (query_exp) takes the
// block's values one by one from the block's bytes, with no string per value.
import { carve } from './json-bytes.js';
import type { JsonBytes } from './json-bytes.js';

/** Doubles per block: long enough to amortize the call, short enough to stay in the chunk's slack. */
export const DOUBLE_BLOCK = 1024;

/** Blocks up to this long are formatted value by value. */
const SHORT_BLOCK = 8;

const fullBlock: number[] = Array.from(new Float64Array(DOUBLE_BLOCK));

/** `v0,v1,…` of values[from, to) as JSON (null where `nulls` is set or the value is not finite). */
export function doubleBlockText(values: Float64Array, nulls: Uint8Array | null, from: number, to: number): string {
  // A few values (an aggregate's row): String(v) is the text JSON.stringify gives a finite number,
  // without an array and a typed-array view to build.
  if (to - from <= SHORT_BLOCK) {
    let text = '';
    for (let j = from; j < to; j++) {
      const v = values[j]!;
      const item = (nulls !== null && nulls[j] !== 0) || !Number.isFinite(v) ? 'null' : String(v);
      text = j === from ? item : `${text},${item}`;
    }
    return text;
  }
  const block = values.subarray(from, to);
  let items: (number | null)[];
  if (nulls === null && block.length === DOUBLE_BLOCK) {
    // One array of doubles reused for every full block (this runs synchronously, start to end).
    items = fullBlock;
    for (let j = 0; j < DOUBLE_BLOCK; j++) fullBlock[j] = block[j];
  } else if (nulls === null) {
    items = Array.from(block);
  } else {
    items = new Array<number | null>(block.length);
    for (let j = 0; j < block.length; j++) items[j] = nulls[from + j] !== 0 ? null : block[j];
  }
  const text = JSON.stringify(items);
  return text.slice(1, -1);
}

/** Bytes of one value's text at most: 24 characters ("-1.2345678901234567e-308") and a comma. */
const DOUBLE_TEXT_BYTES = 25;

/**
 * Writes row i of a double column. Rows are read in order: the block's text is written once into
 * a byte buffer with a comma after every value, and each row copies bytes up to its comma — no
 * string per value (splitting the text was a third of the double's cost). A jump rebuilds the
 * block at the row asked for.
 */
export function doubleCellWriter(values: Float64Array, nulls: Uint8Array | null): (w: JsonBytes, i: number) => void {
  // Sized to the column: a one-row answer needs 26 bytes, not a whole block's 25 KiB.
  const text = carve(Math.min(values.length, DOUBLE_BLOCK) * DOUBLE_TEXT_BYTES + 1);
  let end = 0; // rows before `end` are in text
  let next = 0; // the row whose text starts at `at`
  let at = 0;
  return (w, i) => {
    if (i !== next || i >= end) {
      end = Math.min(values.length, i + DOUBLE_BLOCK);
      const n = text.write(doubleBlockText(values, nulls, i, end), 0, 'latin1');
      text[n] = 44; // ',' after the last value too, so every row ends at a comma
      at = 0;
    }
    w.reserve(25);
    const { buf } = w;
    let p = w.pos;
    let q = at;
    for (let c = text[q++]; c !== 44; c = text[q++]) buf[p++] = c;
    w.pos = p;
    at = q;
    next = i + 1;
  };
}
