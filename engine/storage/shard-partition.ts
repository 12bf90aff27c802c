// Splits an insert's rows by time shard, in any row order, without a BigInt per row. Sorted
// inputs (the common case) are cut by binary search. Others get each row's shard computed in
// doubles (exact except within a few µs of a shard edge, where the row is recomputed exactly)
// and are grouped by a stable counting sort: one pass, not a full sort. Each shard's part keeps
// insertion order and is sorted later, once, when its tail is sealed or read.
import { sortPermutation } from './sort-permutation.js';

export interface ShardParts {
  /** Row order grouping the rows by shard (null: the input's own order already does); tails read through it. */
  readonly perm: Uint32Array | null;
  /** Shard ids in ascending order, and the rows [starts[k], starts[k + 1]) of shard ids[k]. */
  readonly ids: bigint[];
  readonly starts: number[];
  /** Whether each part is sorted by time. */
  readonly isSorted: boolean;
}

const TWO_32 = 4294967296;
/** Shard ids in doubles are exact only while shards are this long or longer. */
const MIN_FAST_SHARD = 1n << 24n;
/** A counting sort over more distinct shards than this falls back to a full sort. */
const MAX_BUCKETS = 1 << 16;
/** Rows this close (ns) to a computed shard edge are placed exactly: doubles near 2^63 are off by ≤ 2048. */
const EDGE = 8192;

export function partitionByShard(ts: BigInt64Array, shardSize: bigint, shardId: (ts: bigint) => bigint): ShardParts {
  const n = ts.length;
  // One row (late single-row inserts): nothing to sort or search.
  if (n === 1) return { perm: null, ids: [shardId(ts[0])], starts: [0, 1], isSorted: true };
  if (shardSize >= MIN_FAST_SHARD) {
    const parts = countingPartition(ts, shardSize, shardId);
    if (parts !== null) return parts;
  }
  const perm = sortPermutation(ts);
  const sorted = perm === null ? ts : BigInt64Array.from(perm, (i) => ts[i]);
  const ids: bigint[] = [];
  const starts: number[] = [];
  for (let start = 0; start < n;) {
    const id = shardId(sorted[start]);
    const limit = (id + 1n) * shardSize;
    let lo = start + 1;
    let hi = n;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] < limit) lo = mid + 1; else hi = mid; }
    ids.push(id);
    starts.push(start);
    start = lo;
  }
  starts.push(n);
  return { perm, ids, starts, isSorted: true };
}

/** Groups unsorted rows by shard with doubles; null when they are sorted or span too many shards. */
function countingPartition(ts: BigInt64Array, shardSize: bigint, shardId: (ts: bigint) => bigint): ShardParts | null {
  const n = ts.length;
  const words = new Int32Array(ts.buffer, ts.byteOffset, n * 2);
  const size = Number(shardSize);
  const shard = new Float64Array(n);
  let min = Infinity;
  let max = -Infinity;
  let isSorted = true;
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = words[(i << 1) | 1] * TWO_32 + (words[i << 1] >>> 0);
    if (t < prev) isSorted = false;
    prev = t;
    let q = Math.floor(t / size);
    const r = t - q * size;
    if (r < EDGE || size - r < EDGE) q = Number(shardId(ts[i]));
    shard[i] = q;
    if (q < min) min = q;
    if (q > max) max = q;
  }
  // Doubles cannot see order among values closer than their precision: let the exact path judge.
  if (isSorted || max - min >= MAX_BUCKETS) return null;
  const buckets = max - min + 1;
  const counts = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i++) counts[shard[i] - min + 1]++;
  const ids: bigint[] = [];
  const starts: number[] = [];
  for (let b = 0; b < buckets; b++) {
    if (counts[b + 1] !== 0) { ids.push(BigInt(min + b)); starts.push(counts[b]); }
    counts[b + 1] += counts[b];
  }
  starts.push(n);
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[counts[shard[i] - min]++] = i;
  return { perm, ids, starts, isSorted: false };
}

/** The earliest of rows [start, end) of ts, through `perm` when given (compared as 32-bit words). */
export function minTimestamp(ts: BigInt64Array, perm: Uint32Array | null, start: number, end: number): bigint {
  const words = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  let best = perm === null ? start : perm[start];
  for (let k = start + 1; k < end; k++) {
    const i = perm === null ? k : perm[k];
    const h = words[(i << 1) | 1];
    const bh = words[(best << 1) | 1];
    if (h < bh || (h === bh && words[i << 1] >>> 0 < words[best << 1] >>> 0)) best = i;
  }
  return ts[best];
}
