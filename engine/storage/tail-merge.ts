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

/** Source rows [start, end) (rows perm[start..end) with `perm`) in stable time order, as source row numbers. */
export function rowOrder(ts: BigInt64Array, perm: Uint32Array | null, start: number, end: number): Uint32Array {
  const n = end - start;
  const order = scratchU32('merge.order', n);
  if (perm === null) {
    const local = sortPermutation(ts.subarray(start, end));
    if (local === null) for (let k = 0; k < n; k++) order[k] = start + k;
    else for (let k = 0; k < n; k++) order[k] = start + local[k];
    return order;
  }
  const picked = new BigInt64Array(scratchF64('merge.ts', n).buffer, 0, n);
  const from = bits64(ts);
  const to = bits64(picked);
  for (let k = 0; k < n; k++) to[k] = from[perm[start + k]];
  const local = sortPermutation(picked);
  if (local === null) for (let k = 0; k < n; k++) order[k] = perm[start + k];
  else for (let k = 0; k < n; k++) order[k] = perm[start + local[k]];
  return order;
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
 * The stable merge of tail rows [p, len) with source rows `order` (both in time order): entry k
 * of `take` says what lands at tail row p + k, a source row when >= 0, or tail row p + (-entry - 1);
 * from entry `mixed` on, all are source rows. Tail rows win ties. Valid until the next call.
 */
export interface Merge {
  readonly take: Int32Array;
  readonly mixed: number;
}

export function mergeOrder(tailTs: BigInt64Array, p: number, len: number, srcTs: BigInt64Array, order: Uint32Array): Merge {
  const take = scratchI32('merge.take', len - p + order.length);
  const a = new Int32Array(tailTs.buffer, tailTs.byteOffset, len * 2);
  const b = new Int32Array(srcTs.buffer, srcTs.byteOffset, srcTs.length * 2);
  let i = p;
  let j = 0;
  let k = 0;
  while (i < len && j < order.length) {
    const s = order[j];
    const sh = b[(s << 1) | 1];
    const th = a[(i << 1) | 1];
    // The source row goes first only when strictly earlier.
    if (sh < th || (sh === th && (b[s << 1] ^ SIGN) < (a[i << 1] ^ SIGN))) { take[k++] = s; j++; } else { take[k++] = p - 1 - i; i++; }
  }
  while (i < len) { take[k++] = p - 1 - i; i++; }
  const mixed = k;
  while (j < order.length) take[k++] = order[j++];
  return { take, mixed };
}

/** Rows [p, p + take.length) of `to` as the merge says, from `from` (source rows) or to's own rows from p. */
export function moveMerged(to: Float64Array, from: Float64Array, { take, mixed }: Merge, p: number, len: number): void {
  const old = scratchF64('merge.old', len - p);
  old.set(to.subarray(p, len));
  for (let k = 0; k < mixed; k++) {
    const t = take[k];
    to[p + k] = t >= 0 ? from[t] : old[-t - 1];
  }
  for (let k = mixed; k < take.length; k++) to[p + k] = from[take[k]];
}

/** moveMerged for null masks; `from` null: the source rows have no nulls. */
export function moveMergedBytes(to: Uint8Array, from: Uint8Array | null, { take }: Merge, p: number, len: number): void {
  const old = scratchU8('merge.oldBytes', len - p);
  old.set(to.subarray(p, len));
  for (let k = 0; k < take.length; k++) {
    const t = take[k];
    to[p + k] = t >= 0 ? (from === null ? 0 : from[t]) : old[-t - 1];
  }
}

/** moveMerged for columns held as JS arrays (strings, symbols, blobs) of `len` rows. */
export function moveMergedList(list: unknown[], from: readonly unknown[], { take }: Merge, p: number, len: number): void {
  const old = list.slice(p, len);
  list.length = p;
  for (let k = 0; k < take.length; k++) {
    const t = take[k];
    list.push(t >= 0 ? from[t] : old[-t - 1]);
  }
}
