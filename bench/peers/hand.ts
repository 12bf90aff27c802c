// The practical limit: hand-written typed-array loops over the very batches svc holds (the
// table's scan + columnVector, so the same memory), answering each bench query. Range and bucket boundaries are
// found by binary search on the sorted timestamps; values are read by plain-number loops. They use
// no per-batch stats, so they show what a scan costs, and they are the reference answers.
// Each is meant to be the fastest straightforward JS for its query, so svc's ratios are honest:
// sums keep four partial sums (one running sum waits on every add), the WHERE sum is branch-free
// (a branch on random data mispredicts every other row), and the GROUP BY loop fuses sum, min and
// max per bucket (measured against a per-row bucket index, a single fused pass with run
// detection, a plain walk and a binary search per bucket edge: none was faster).
import { catalogOf } from '../../engine/database.js';
import type { Database } from '../../engine/index.js';
import { columnVector } from '../../engine/storage/column-vector.js';
import type { SealedBatch } from '../../engine/storage/sealed-batch.js';
import type { Answer } from '../answer.js';
import { MAX_TS, MIN_TS } from '../data.js';

/** First index in [lo, hi) of sorted `ts` with ts[i] >= t (hi when none). */
export function lowerBound(ts: BigInt64Array, t: bigint, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const TWO32 = 4294967296;

/**
 * The batches of `table` overlapping [from, to), in time order (engine-internal: Table.scan),
 * made resident (the bench's tables fit their budget: they stay so).
 */
export function scanTable(db: Database, table: string, from = MIN_TS, to = MAX_TS): SealedBatch[] {
  const views = catalogOf(db).table(table)!.scan(from, to);
  for (const v of views) {
    v.loadSync(v.allColumns);
    v.unpin(v.allColumns);
  }
  return views;
}

function floorTo(t: bigint, unit: bigint): bigint {
  const q = t / unit;
  return (t < 0n && q * unit !== t ? q - 1n : q) * unit;
}

/** Output of a GROUP BY loop: one row per non-empty bucket; starts written as 32-bit halves. */
interface Buckets {
  readonly startHi: Int32Array;
  readonly startLo: Uint32Array;
  readonly sums: Float64Array;
  readonly mins: Float64Array;
  readonly maxs: Float64Array;
  readonly counts: Float64Array;
  n: number;
}

/**
 * `SELECT avg(v), min(v), max(v), count(v) FROM t [IN RANGE(from, to)] GROUP BY <bucket>`.
 * `bucket` must be below 2^53 ns (~104 days).
 */
export function handGroupBy(db: Database, table: string, column: number, bucket: bigint, from = MIN_TS, to = MAX_TS): Answer {
  const views = scanTable(db, table, from, to);
  const first = views.length === 0 ? 0n : floorTo(views[0].minTs > from ? views[0].minTs : from, bucket);
  const last = views.length === 0 ? 0n : (views[views.length - 1].maxTs < to ? views[views.length - 1].maxTs : to - 1n);
  const capacity = views.length === 0 ? 0 : Number((last - first) / bucket) + 1;
  const starts = new BigInt64Array(capacity);
  const out: Buckets = {
    startHi: new Int32Array(starts.buffer), startLo: new Uint32Array(starts.buffer),
    sums: new Float64Array(capacity), mins: new Float64Array(capacity), maxs: new Float64Array(capacity),
    counts: new Float64Array(capacity), n: 0,
  };
  for (const view of views) {
    const ts = view.ts;
    const lo = from <= view.minTs ? 0 : lowerBound(ts, from, 0, view.rowCount);
    const hi = to > view.maxTs ? view.rowCount : lowerBound(ts, to, lo, view.rowCount);
    if (lo < hi) groupBatch(out, ts, valuesOf(view, column), lo, hi, floorTo(ts[lo], bucket), Number(bucket));
  }
  const n = out.n;
  const avgs = new Float64Array(n);
  for (let b = 0; b < n; b++) avgs[b] = out.sums[b] / out.counts[b];
  return {
    $timestamp: starts.subarray(0, n), 'avg(v)': avgs, 'min(v)': out.mins.subarray(0, n),
    'max(v)': out.maxs.subarray(0, n), 'count(v)': out.counts.subarray(0, n),
  };
}

/**
 * First k in (i, hi) whose offset from (h0, l0) is >= relNext, knowing row i's is below it and
 * some row's in range is not: a short linear probe (small buckets), then galloping (large ones).
 */
function bucketEnd(tsHi: Int32Array, tsLo: Uint32Array, h0: number, l0: number, i: number, hi: number, relNext: number): number {
  let k = i + 1;
  const probeEnd = Math.min(hi, i + 16);
  while (k < probeEnd && (tsHi[2 * k + 1] - h0) * TWO32 + (tsLo[2 * k] - l0) < relNext) k++;
  if (k < probeEnd) return k;
  let base = k - 1;
  let stride = 1;
  while (base + stride < hi && (tsHi[2 * (base + stride) + 1] - h0) * TWO32 + (tsLo[2 * (base + stride)] - l0) < relNext) {
    base += stride;
    stride *= 2;
  }
  let a = base + 1;
  let b = Math.min(hi, base + stride);
  while (a < b) {
    const m = (a + b) >>> 1;
    if ((tsHi[2 * m + 1] - h0) * TWO32 + (tsLo[2 * m] - l0) < relNext) a = m + 1;
    else b = m;
  }
  return a;
}

/**
 * Buckets rows [lo, hi) of one batch into `out`. No BigInt per bucket: timestamps are read as
 * 32-bit halves and turned into plain-number offsets from ts[lo] (exact: a batch spans far less
 * than 2^53 ns), bucket ends are found by probing forward, bucket starts are carried as halves.
 */
function groupBatch(out: Buckets, ts: BigInt64Array, values: Float64Array, lo: number, hi: number, firstStart: bigint, step: number): void {
  const tsHi = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  const tsLo = new Uint32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  const h0 = tsHi[2 * lo + 1];
  const l0 = tsLo[2 * lo];
  const { startHi, startLo, sums, mins, maxs, counts } = out;
  let n = out.n;
  let sh = Number(firstStart >> 32n);
  let sl = Number(BigInt.asUintN(32, firstStart));
  let relStart = Number(firstStart - ts[lo]);
  const relLast = (tsHi[2 * hi - 1] - h0) * TWO32 + (tsLo[2 * hi - 2] - l0);
  let i = lo;
  while (i < hi) {
    const relNext = relStart + step;
    let end = hi;
    if (relLast >= relNext) end = bucketEnd(tsHi, tsLo, h0, l0, i, hi, relNext);
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let k = i; k < end; k++) {
      const v = values[k];
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (n > 0 && startHi[2 * n - 1] === sh && startLo[2 * n - 2] === sl) {
      sums[n - 1] += sum;
      if (min < mins[n - 1]) mins[n - 1] = min;
      if (max > maxs[n - 1]) maxs[n - 1] = max;
      counts[n - 1] += end - i;
    } else {
      startHi[2 * n + 1] = sh;
      startLo[2 * n] = sl;
      sums[n] = sum; mins[n] = min; maxs[n] = max; counts[n] = end - i;
      n++;
    }
    i = end;
    if (i < hi) {
      // Dense data: the next row usually falls in the very next bucket; otherwise skip empty ones.
      const r = (tsHi[2 * i + 1] - h0) * TWO32 + (tsLo[2 * i] - l0);
      const skip = r < relNext + step ? 1 : Math.floor((r - relStart) / step);
      relStart += skip * step;
      const low = sl + skip * step;
      const carry = Math.floor(low / TWO32);
      sh += carry;
      sl = low - carry * TWO32;
    }
  }
  out.n = n;
}

/** `SELECT sum(v) FROM t` (with `WHERE v > above` when given). */
export function handSum(db: Database, table: string, column: number, above: number | null = null): Answer {
  let sum = 0;
  for (const view of scanTable(db, table)) {
    const values = valuesOf(view, column);
    sum += above === null ? sumAll(values, view.rowCount) : sumAbove(values, view.rowCount, above);
  }
  return { 'sum(v)': [sum] };
}

/** Four partial sums, so consecutive adds do not wait for each other. */
function sumAll(x: Float64Array, n: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, k = 0;
  for (; k + 3 < n; k += 4) { s0 += x[k]; s1 += x[k + 1]; s2 += x[k + 2]; s3 += x[k + 3]; }
  for (; k < n; k++) s0 += x[k];
  return (s0 + s1) + (s2 + s3);
}

/**
 * Branch-free: each value times the 0/1 outcome of its test (a branch mispredicts on every
 * other row of random data). Exact here because the bench data is finite (0 × ±Infinity or
 * NaN would be NaN).
 */
function sumAbove(x: Float64Array, n: number, above: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, k = 0;
  for (; k + 3 < n; k += 4) {
    const a = x[k], b = x[k + 1], c = x[k + 2], d = x[k + 3];
    s0 += a * +(a > above); s1 += b * +(b > above); s2 += c * +(c > above); s3 += d * +(d > above);
  }
  for (; k < n; k++) { const a = x[k]; s0 += a * +(a > above); }
  return (s0 + s1) + (s2 + s3);
}

/** `SELECT * FROM t IN RANGE(from, to) LIMIT limit` for a table of one DOUBLE column `v`. */
export function handRangeLimit(db: Database, table: string, column: number, from: bigint, to: bigint, limit: number): Answer {
  const outTs = new BigInt64Array(limit);
  const outV = new Float64Array(limit);
  let n = 0;
  for (const view of scanTable(db, table, from, to)) {
    if (n === limit) break;
    const ts = view.ts;
    const lo = lowerBound(ts, from, 0, view.rowCount);
    const hi = Math.min(lowerBound(ts, to, lo, view.rowCount), lo + (limit - n));
    outTs.set(ts.subarray(lo, hi), n);
    outV.set(valuesOf(view, column).subarray(lo, hi), n);
    n += hi - lo;
  }
  return { $timestamp: outTs.subarray(0, n), v: outV.subarray(0, n) };
}

/** Column `column` (1-based: 0 is `$timestamp`) of a batch as a Float64Array; no nulls in bench data. */
export function valuesOf(view: SealedBatch, column: number): Float64Array {
  const vector = columnVector(view, column, 'DOUBLE');
  if (vector.type !== 'DOUBLE') throw new Error('expected a DOUBLE column');
  if (vector.validity !== null) throw new Error('bench data has no nulls');
  return vector.values;
}
