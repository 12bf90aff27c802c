// Doubles as JSON text a block at a time: JSON.stringify of ~1,024 values formats every number in
// C++ into one string — exactly the text String(v) gives, non-finite values already null. The
// column-major encoder (api/query) copies a block's text out whole: ~2× faster than String(v)
// per cell on random doubles, ~1.4× on short decimals. The row-major one (query_exp) takes the
// block's values one by one from its split: as fast as String(v) on random doubles, ~1.5× on
// short decimals (prices, sensor readings).
import type { JsonBytes } from './json-bytes.js';

/** Doubles per block: long enough to amortize the call, short enough to stay in the chunk's slack. */
export const DOUBLE_BLOCK = 1024;

/** `v0,v1,…` of values[from, to) as JSON (null where `nulls` is set or the value is not finite). */
export function doubleBlockText(values: Float64Array, nulls: Uint8Array | null, from: number, to: number): string {
  const block = values.subarray(from, to);
  let items: (number | null)[];
  if (nulls === null) {
    items = Array.from(block);
  } else {
    items = new Array<number | null>(block.length);
    for (let j = 0; j < block.length; j++) items[j] = nulls[from + j] !== 0 ? null : block[j];
  }
  const text = JSON.stringify(items);
  return text.slice(1, -1);
}

/** Writes row i of a double column from the split of its block (rows are read in order; a jump rebuilds the block there). */
export function doubleCellWriter(values: Float64Array, nulls: Uint8Array | null): (w: JsonBytes, i: number) => void {
  let start = 0;
  let end = 0;
  let texts: string[] = [];
  return (w, i) => {
    if (i < start || i >= end) {
      start = i;
      end = Math.min(values.length, i + DOUBLE_BLOCK);
      texts = doubleBlockText(values, nulls, start, end).split(',');
    }
    w.ascii(texts[i - start]);
  };
}
