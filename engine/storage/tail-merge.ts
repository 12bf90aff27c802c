// Keeping a tail sorted while rows arrive nearly in order — a stream shuffled within hours, or
// inserts each in any order but mostly later than what the tail holds. An append's rows are
// sorted on their own (they are few and still in the cache) and merged into the tail's end:
// only the tail rows later than the append's earliest row move. The tail then never needs a
// sort when sealed, and its buffers become the batch as they are, as for in-order rows; sorting
// at the seal instead meant a second copy of every value and fresh memory for it. Ties keep
// arrival order: a tail row comes before an appended row of the same time.
import { bits64 } from './column-values.js';
import { scratchF64, scratchI32, scratchU32, scratchU8 } from './scratch.js';
import { sortPermutation } from './sort-permutation.js';

const SIGN = 0x80000000;

/**
 * The timestamps of source rows [start, end) (rows perm[start..end) with `perm`) in list order,
 * and their stable time order as positions in that list (null: already in order).
 */
export interface RowOrder {
  readonly ts: BigInt64Array;
  readonly order: Int32Array | null;
}

export function rowOrder(ts: BigInt64Array, perm: Uint32Array | null, start: number, end: number): RowOrder {
  const n = end - start;
  const local = perm === null ? ts.subarray(start, end) : picked(ts, perm, start, end);
  const order = sortPermutation(local, scratchU32('merge.order', n));
  // Read as int32: row numbers loaded from a Uint32Array and used as indexes cost about twice as
  // much (a gather microbench: 7.2 against 3.8 ns a row).
  return { ts: local, order: order === null ? null : new Int32Array(order.buffer, order.byteOffset, n) };
}

/** Timestamps of rows perm[start..end), in scratch. */
function picked(ts: BigInt64Array, perm: Uint32Array, start: number, end: number): BigInt64Array {
  const n = end - start;
  const out = new BigInt64Array(scratchF64('merge.ts', n).buffer, 0, n);
  const from = bits64(ts);
  const to = bits64(out);
  for (let k = 0; k < n; k++) to[k] = from[perm[start + k]];
  return out;
}

/** The first of rows [0, n) of sorted `ts` later than `t` (n when none is). */
export function firstLater(ts: BigInt64Array, n: number, t: bigint): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (ts[m] <= t) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/**
 * The stable merge of tail rows [p, len) with an append's rows (both in time order), as where
 * each goes: tail row p + i to row tailAt[i], the append's k-th row (in list order) to row
 * srcAt[k]. Tail rows win ties. Valid until the next call.
 */
export interface Merge {
  readonly tailAt: Int32Array;
  readonly srcAt: Int32Array;
}

/** The merge of tail rows [p, len) with the rows of `rows` (see rowOrder). */
export function mergeOrder(tailTs: BigInt64Array, p: number, len: number, { ts, order }: RowOrder): Merge {
  const n = ts.length;
  const tailAt = scratchI32('merge.tailAt', len - p);
  const srcAt = scratchI32('merge.srcAt', n);
  const a = new Int32Array(tailTs.buffer, tailTs.byteOffset, len * 2);
  const b = new Int32Array(ts.buffer, ts.byteOffset, n * 2);
  const j = order === null ? mergeInOrder(a, p, len, b, tailAt, srcAt) : mergeSorted(a, p, len, b, order, tailAt, srcAt);
  // The append's rows after the tail's last: only the overlap needed comparing.
  if (order === null) for (let k = j; k < n; k++) srcAt[k] = len + k;
  else for (let k = j; k < n; k++) srcAt[order[k]] = len + k;
  return { tailAt, srcAt };
}

/** Merges the append's rows in `order` with tail rows [p, len) until the tail's run out; returns how many of them it placed. */
function mergeSorted(a: Int32Array, p: number, len: number, b: Int32Array, order: Int32Array, tailAt: Int32Array, srcAt: Int32Array): number {
  let i = p;
  let j = 0;
  while (i < len && j < order.length) {
    const s = order[j];
    const sh = b[(s << 1) | 1];
    const th = a[(i << 1) | 1];
    // The appended row goes first only when strictly earlier.
    if (sh < th || (sh === th && (b[s << 1] ^ SIGN) < (a[i << 1] ^ SIGN))) { srcAt[s] = i + j; j++; } else { tailAt[i - p] = i + j; i++; }
  }
  for (; i < len; i++) tailAt[i - p] = i + j;
  return j;
}

/** mergeSorted for appended rows already in order. */
function mergeInOrder(a: Int32Array, p: number, len: number, b: Int32Array, tailAt: Int32Array, srcAt: Int32Array): number {
  let i = p;
  let j = 0;
  while (i < len && j < srcAt.length) {
    const sh = b[(j << 1) | 1];
    const th = a[(i << 1) | 1];
    if (sh < th || (sh === th && (b[j << 1] ^ SIGN) < (a[i << 1] ^ SIGN))) { srcAt[j] = i + j; j++; } else { tailAt[i - p] = i + j; i++; }
  }
  for (; i < len; i++) tailAt[i - p] = i + j;
  return j;
}

/**
 * Rows from p of `to` as the merge says: its own rows [p, len) and the append's rows [start,
 * end) of `from` (rows perm[start..end) with `perm`). Each value is stored at its place while
 * reading the rows in order: the stores land near each other (an append's rows are a few
 * shuffled hours). Measured on within-hour rows into fresh tail buffers, storing at each row's
 * place cost ~5.5 ns a value where loading the values in time order cost ~9.
 */
export function moveMerged(to: Float64Array, from: Float64Array, perm: Uint32Array | null, start: number, { tailAt, srcAt }: Merge, p: number): void {
  const old = scratchF64('merge.old', tailAt.length);
  old.set(to.subarray(p, p + tailAt.length));
  for (let i = 0; i < tailAt.length; i++) to[tailAt[i]] = old[i];
  if (perm === null) for (let k = 0; k < srcAt.length; k++) to[srcAt[k]] = from[start + k];
  else for (let k = 0; k < srcAt.length; k++) to[srcAt[k]] = from[perm[start + k]];
}

/** moveMerged for null masks; `from` null: the appended rows have no nulls. */
export function moveMergedBytes(to: Uint8Array, from: Uint8Array | null, perm: Uint32Array | null, start: number, { tailAt, srcAt }: Merge, p: number): void {
  const old = scratchU8('merge.oldBytes', tailAt.length);
  old.set(to.subarray(p, p + tailAt.length));
  for (let i = 0; i < tailAt.length; i++) to[tailAt[i]] = old[i];
  for (let k = 0; k < srcAt.length; k++) to[srcAt[k]] = from === null ? 0 : from[perm === null ? start + k : perm[start + k]];
}

/** moveMerged for columns held as JS arrays (strings, symbols, blobs) of p + tailAt.length rows. */
export function moveMergedList(list: unknown[], from: readonly unknown[], perm: Uint32Array | null, start: number, { tailAt, srcAt }: Merge, p: number): void {
  // Placed in a list of their own, then pushed: storing past the end would leave the list holey.
  const merged = new Array<unknown>(tailAt.length + srcAt.length);
  for (let i = 0; i < tailAt.length; i++) merged[tailAt[i] - p] = list[p + i];
  for (let k = 0; k < srcAt.length; k++) merged[srcAt[k] - p] = from[perm === null ? start + k : perm[start + k]];
  list.length = p;
  for (const value of merged) list.push(value);
}
