// The stable time order of a batch of rows, as cheaply as its disorder allows. Sorted rows cost
// one pass. Rows mostly in order (a few late ones among them) are split in one pass into the rows
// at or after every row before them — already in order — and the rest, which are sorted on
// their own and merged back: the cost follows the late rows, not all rows. Anything more
// shuffled goes to the radix sort. Ties keep their order: of two rows with the same time, an
// in-order row is always the earlier one (a later row holding the same time is below the running
// maximum too), so the merge takes in-order rows first.
import { radixSort } from './radix-sort.js';
import { scratchU8 } from './scratch.js';

const SIGN = 0x80000000;
/** Beyond this share of out-of-order rows, splitting and merging saves nothing over sorting. */
const MAX_LATE_SHARE = 1 / 8;

/**
 * Stable sort order of `ts` (perm[i] = source row of sorted row i), or null when already sorted.
 * `out`: an array of ts.length rows the order may be written to (it is returned then).
 */
export function sortPermutation(ts: BigInt64Array, out: Uint32Array | null = null): Uint32Array | null {
  return orderOf(ts, null, out);
}

/** Sort order of rows `rows` of `ts` (all when null), maybe in `out`; null when they are in order already. */
function orderOf(ts: BigInt64Array, rows: Uint32Array | null, out: Uint32Array | null): Uint32Array | null {
  const n = rows === null ? ts.length : rows.length;
  const words = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  // Clearly shuffled rows go straight to the radix sort: a sample is enough to tell, where
  // marking every row cost a sixth of the sort.
  if (n >= 4 * SAMPLE && markLate(words, rows, scratchU8('order.sample', SAMPLE)) > SAMPLE * MAX_LATE_SHARE * 2) return radixSort(ts, rows, out);
  // Scratch: the late rows' own order is found (recursively) only after this level is done with it.
  const isLate = rows === null ? scratchU8('order.isLate', n) : new Uint8Array(n);
  const late = markLate(words, rows, isLate);
  if (late === 0) return null;
  if (late > n * MAX_LATE_SHARE) return radixSort(ts, rows, out);
  const inOrder = new Uint32Array(n - late);
  let lateRows: Uint32Array = new Uint32Array(late);
  split(rows, isLate, inOrder, lateRows);
  const order = orderOf(ts, lateRows, null);
  if (order !== null) lateRows = order;
  return merge(words, inOrder, lateRows);
}

// The loops of orderOf are functions of their own, so V8 optimizes them whole (see radix-sort.ts).

/** Rows sampled from the start to tell shuffled input at once. */
const SAMPLE = 256;

/** Marks the rows below the running maximum; returns how many. */
function markLate(words: Int32Array, rows: Uint32Array | null, isLate: Uint8Array): number {
  let late = 0;
  let maxHi = -0x80000000;
  let maxLo = -0x80000000;
  for (let k = 0; k < isLate.length; k++) {
    const i = rows === null ? k : rows[k];
    const hi = words[(i << 1) | 1];
    const lo = words[i << 1] ^ SIGN;
    if (hi > maxHi || (hi === maxHi && lo >= maxLo)) { maxHi = hi; maxLo = lo; isLate[k] = 0; } else { isLate[k] = 1; late++; }
  }
  return late;
}

function split(rows: Uint32Array | null, isLate: Uint8Array, inOrder: Uint32Array, lateRows: Uint32Array): void {
  for (let k = 0, a = 0, b = 0; k < isLate.length; k++) {
    const i = rows === null ? k : rows[k];
    if (isLate[k] === 0) inOrder[a++] = i; else lateRows[b++] = i;
  }
}

/** Stable merge of two sorted lists of rows; on equal times rows of `first` come first. */
function merge(words: Int32Array, first: Uint32Array, second: Uint32Array): Uint32Array {
  const out = new Uint32Array(first.length + second.length);
  let a = 0;
  let b = 0;
  let k = 0;
  while (a < first.length && b < second.length) {
    const i = first[a];
    const j = second[b];
    const hi = words[(j << 1) | 1];
    const ihi = words[(i << 1) | 1];
    // Take `second` only when strictly earlier.
    if (hi < ihi || (hi === ihi && (words[j << 1] ^ SIGN) < (words[i << 1] ^ SIGN))) { out[k++] = j; b++; } else { out[k++] = i; a++; }
  }
  while (a < first.length) out[k++] = first[a++];
  while (b < second.length) out[k++] = second[b++];
  return out;
}
