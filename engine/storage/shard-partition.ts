// Splits an insert's rows by time shard, in any row order, without a BigInt per row. Sorted
// inputs (the common case) are cut by binary search. Others get each row's shard computed in
// doubles (exact except within a few µs of a shard edge, where the row is recomputed exactly)
// and are grouped by a stable counting sort: one pass, not a full sort, giving each row's part
// (the permutation is made only if asked for). Each shard's part keeps insertion order and is
// sorted later, once, when its tail is sealed or read.
import { sortPermutation } from './sort-permutation.js';
import type { SourceRows } from './tail.js';
import { scratchF64, scratchI32, scratchU32 } from './scratch.js';

/** The rows of one insert by shard; `perm` and `part` of an unsorted insert are scratch, valid until the next partition. */
export interface ShardParts {
  /**
   * Row order grouping the rows by shard (null: the input's own order already does); tails read
   * through it. Made on first use for an unsorted insert, whose rows mostly go by `part` instead.
   */
  readonly perm: Uint32Array | null;
  /** Shard ids in ascending order, and the rows [starts[k], starts[k + 1]) of shard ids[k]. */
  readonly ids: bigint[];
  readonly starts: number[];
  /** Whether each part is sorted by time. */
  readonly isSorted: boolean;
  /** When the rows were grouped by a counting pass: the part (index into ids) of each row. */
  readonly part: Int32Array | null;
  /** With `part`: the earliest timestamp of each part. */
  readonly mins: bigint[] | null;
}

const TWO_32 = 4294967296;
const SIGN = 0x80000000;
/** Shard ids in doubles are exact only while shards are this long or longer. */
const MIN_FAST_SHARD = 1n << 24n;
/** A counting sort over more distinct shards than this falls back to a full sort. */
const MAX_BUCKETS = 1 << 16;
/** Rows this close (ns) to a computed shard edge are placed exactly: doubles near 2^63 are off by ≤ 2048. */
const EDGE = 8192;

export function partitionByShard(ts: BigInt64Array, shardSize: bigint, shardId: (ts: bigint) => bigint): ShardParts {
  const n = ts.length;
  // One row (late single-row inserts): nothing to sort or search.
  if (n === 1) return { perm: null, ids: [shardId(ts[0])], starts: [0, 1], isSorted: true, part: null, mins: null };
  // One pass finds order and bounds: sorted rows are cut by binary search below, and rows in one
  // shard, or in two with every row of the first before any of the second (a stream shuffled
  // within hours), need no shard computed per row.
  const words = new Int32Array(ts.buffer, ts.byteOffset, n * 2);
  const isInOrder = orderAndBounds(words);
  if (!isInOrder) {
    const first = shardId(ts[boundRows[0]]);
    const last = shardId(ts[boundRows[1]]);
    if (first === last) return { perm: null, ids: [first], starts: [0, n], isSorted: false, part: null, mins: null };
    if (last === first + 1n) {
      const split = groupedSplit(words, last * shardSize);
      if (split >= 0) return { perm: null, ids: [first, last], starts: [0, split, n], isSorted: false, part: null, mins: null };
    }
  }
  if (!isInOrder && shardSize >= MIN_FAST_SHARD) {
    const parts = countingPartition(ts, shardSize, shardId);
    if (parts !== null) return parts;
  }
  const perm = isInOrder ? null : sortPermutation(ts);
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
  return { perm, ids, starts, isSorted: true, part: null, mins: null };
}

/**
 * Groups unsorted rows by shard with doubles, in one pass that also finds each part's earliest
 * row; null when they span too many shards. The shards of the least and greatest rows
 * (orderAndBounds) bound every row's, so buckets are known before the pass: four passes
 * (shards, buckets, parts, minimums) took twice as long (10 M shuffled rows: ~560 -> ~250 ms).
 */
function countingPartition(ts: BigInt64Array, shardSize: bigint, shardId: (ts: bigint) => bigint): ShardParts | null {
  const n = ts.length;
  const words = new Int32Array(ts.buffer, ts.byteOffset, n * 2);
  const first = shardId(ts[boundRows[0]]);
  const buckets = Number(shardId(ts[boundRows[1]]) - first) + 1;
  if (buckets > MAX_BUCKETS) return null;
  const bucket = scratchI32('partition.part', n);
  // Scratch, not fresh arrays: an insert per few milliseconds made each small typed array one
  // more off-heap buffer for the young-generation GC to sweep.
  const counts = scratchU32('partition.counts', buckets + 1).fill(0);
  const least = scratchF64('partition.least', buckets).fill(Infinity);
  const leastRow = scratchI32('partition.leastRow', buckets);
  let isGrouped = bucketsOf(words, Number(shardSize), Number(first), bucket, counts, least, leastRow);
  // Rows within a few µs of a shard edge were left out (-1): placed exactly here, they are rare.
  if (nearEdges > 0) isGrouped = placeNearEdges(ts, words, Number(first), shardId, bucket, counts, leastRow) && isGrouped;
  const ids: bigint[] = [];
  const starts: number[] = [];
  const mins: bigint[] = [];
  const partOf = scratchI32('partition.partOf', buckets);
  for (let b = 0; b < buckets; b++) {
    if (counts[b + 1] !== 0) { partOf[b] = ids.length; ids.push(first + BigInt(b)); starts.push(counts[b]); mins.push(ts[leastRow[b]]); }
    counts[b + 1] += counts[b];
  }
  starts.push(n);
  // Rows already grouped by shard in shard order (a stream shuffled within hours): each shard's
  // rows are one range of the input, copied whole (a word copy per column) rather than scattered
  // row by row through `part`.
  if (isGrouped) return { perm: null, ids, starts, isSorted: false, part: null, mins: null };
  if (ids.length < buckets) toParts(bucket, partOf);
  let perm: Uint32Array | null = null;
  return {
    get perm() {
      if (perm === null) {
        perm = scratchU32('partition.perm', n);
        placeRows(bucket, Uint32Array.from(starts), perm);
      }
      return perm;
    },
    ids, starts, isSorted: false, part: bucket, mins,
  };
}

/** The least and greatest of `ts` (at least one row, any order): one compare per row while they ascend. */
export function timeBounds(ts: BigInt64Array): [bigint, bigint] {
  orderAndBounds(new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2));
  return [ts[boundRows[0]], ts[boundRows[1]]];
}

/** The rows holding the least and the greatest timestamp, found by orderAndBounds(). */
const boundRows = new Int32Array(2);

/** Whether the timestamps (as word pairs) never decrease; sets boundRows. */
function orderAndBounds(words: Int32Array): boolean {
  let isSorted = true;
  let minHi = words[1];
  let minLo = words[0] ^ SIGN;
  let maxHi = minHi;
  let maxLo = minLo;
  let minRow = 0;
  let maxRow = 0;
  for (let i = 1, n = words.length >> 1; i < n; i++) {
    const hi = words[(i << 1) | 1];
    const lo = words[i << 1] ^ SIGN;
    if (hi > maxHi || (hi === maxHi && lo >= maxLo)) { maxHi = hi; maxLo = lo; maxRow = i; continue; }
    isSorted = false;
    if (hi < minHi || (hi === minHi && lo < minLo)) { minHi = hi; minLo = lo; minRow = i; }
  }
  boundRows[0] = minRow;
  boundRows[1] = maxRow;
  return isSorted;
}

/**
 * Where rows start being at or after `edge`, when every earlier row is before it and every later
 * one at or after it; -1 otherwise.
 */
function groupedSplit(words: Int32Array, edge: bigint): number {
  const eHi = Number(edge >> 32n);
  const eLo = Number(edge & 0xffffffffn) ^ SIGN;
  const n = words.length >> 1;
  let i = 0;
  while (i < n) {
    const hi = words[(i << 1) | 1];
    if (hi > eHi || (hi === eHi && (words[i << 1] ^ SIGN) >= eLo)) break;
    i++;
  }
  for (let k = i; k < n; k++) {
    const hi = words[(k << 1) | 1];
    if (hi < eHi || (hi === eHi && (words[k << 1] ^ SIGN) < eLo)) return -1;
  }
  return i;
}

// The loops of countingPartition live in functions of their own: a loop optimized while it runs
// (on-stack replacement) in the middle of a function called once per insert was thrown away at
// the first untried statement after it, on every call.

/** How many rows bucketsOf() left for placeNearEdges(). */
let nearEdges = 0;

/**
 * Each row's bucket (shard - first) into `bucket` (-1 near a shard edge, left to the caller),
 * the row count of bucket b into counts[b + 1], and per bucket its earliest row (`leastRow`, its
 * time as a double in `least`). True when the buckets never decrease from row to row.
 */
function bucketsOf(
  words: Int32Array, size: number, first: number, bucket: Int32Array, counts: Uint32Array, least: Float64Array, leastRow: Int32Array,
): boolean {
  let down = 0;
  let prev = 0;
  let near = 0;
  const buckets = least.length;
  // Multiplying by the inverse may put a row within a few µs of an edge in the next shard; its
  // remainder then falls outside [EDGE, size - EDGE) and the exact path places it.
  const inverse = 1 / size;
  for (let i = 0; i < bucket.length; i++) {
    const t = words[(i << 1) | 1] * TWO_32 + (words[i << 1] >>> 0);
    const q = Math.floor(t * inverse);
    const r = t - q * size;
    const d = q - first;
    if (r < EDGE || size - r < EDGE || d < 0 || d >= buckets) { bucket[i] = -1; near++; continue; }
    // An int32 index: a double one made every array access below go through a conversion.
    const b = d | 0;
    // Branch-free: in a shuffled insert this comparison goes either way at random.
    down |= (b - prev) >>> 31;
    prev = b;
    bucket[i] = b;
    counts[b + 1]++;
    // Doubles order times apart by more than their error; closer ones are compared exactly.
    const m = least[b];
    if (t <= m + EDGE && (t < m - EDGE || isEarlier(words, i, leastRow[b]))) { least[b] = t; leastRow[b] = i; }
  }
  nearEdges = near;
  return down === 0;
}

/** Places the rows bucketsOf() left near shard edges exactly; false when that breaks the grouping. */
function placeNearEdges(
  ts: BigInt64Array, words: Int32Array, first: number, shardId: (ts: bigint) => bigint,
  bucket: Int32Array, counts: Uint32Array, leastRow: Int32Array,
): boolean {
  let isGrouped = true;
  let prev = 0;
  for (let i = 0; i < bucket.length; i++) {
    let b = bucket[i];
    if (b < 0) {
      b = Number(shardId(ts[i])) - first;
      bucket[i] = b;
      counts[b + 1]++;
      if (counts[b + 1] === 1 || isEarlier(words, i, leastRow[b])) leastRow[b] = i;
    }
    if (b < prev) isGrouped = false;
    prev = b;
  }
  return isGrouped;
}

/** Whether row i's timestamp is earlier than row j's (compared as 32-bit words). */
function isEarlier(words: Int32Array, i: number, j: number): boolean {
  const hi = words[(i << 1) | 1];
  const hj = words[(j << 1) | 1];
  return hi < hj || (hi === hj && (words[i << 1] >>> 0) < (words[j << 1] >>> 0));
}

/** Stable counting placement: counts[k] holds where part k starts and is advanced past each row placed. */
function placeRows(bucket: Int32Array, counts: Uint32Array, perm: Uint32Array): void {
  for (let i = 0; i < bucket.length; i++) perm[counts[bucket[i]]++] = i;
}

/** bucket[i] = partOf[bucket[i]]. */
function toParts(bucket: Int32Array, partOf: Int32Array): void {
  for (let i = 0; i < bucket.length; i++) bucket[i] = partOf[bucket[i]];
}

/** The earliest timestamp of rows [start, end) of `src`, through `perm` when given (compared as 32-bit words). */
export function minTimestamp(src: SourceRows, perm: Uint32Array | null, start: number, end: number): bigint {
  const words = src.tsWords;
  let best = perm === null ? start : perm[start];
  let bh = words[(best << 1) | 1];
  let bl = words[best << 1] >>> 0;
  for (let k = start + 1; k < end; k++) {
    const i = perm === null ? k : perm[k];
    const h = words[(i << 1) | 1];
    if (h > bh) continue;
    const l = words[i << 1] >>> 0;
    if (h < bh || l < bl) { best = i; bh = h; bl = l; }
  }
  return src.batch.ts[best];
}
