// GROUP BY duration: splits ascending rows into bucket runs. Fixed-width buckets (every unit but
// months and years) run on plain numbers: timestamps become offsets from the first bucket start
// of the batch (exact while a batch spans under 2^53 ns, about 104 days), each bucket edge is
// searched from where the previous bucket's row count points (a couple of probes on evenly spaced
// data instead of a walk over every row), and each bucket start is written as 32-bit halves: no
// BigInt per bucket.
// Calendar buckets (months, years) take a BigInt step per bucket; there are few of them.
import { addDuration, bucketStart, NS_PER_DAY } from '../../../../grammar/index.js';
import type { DurationValue } from '../../../../grammar/index.js';
import { gallop } from '../scan/ts-search.js';
import type { TsHalves } from '../scan/ts-search.js';
import type { Slice } from '../scan/scan-slices.js';
import type { BucketRuns } from '../../vector/segment-list.js';
import type { Rows } from '../../vector/vec.js';
import { splitInt64 } from '../../vector/vec.js';

const TWO_32 = 4294967296;
const EXACT = 2 ** 53;
/** The shortest month, for bounding how many calendar buckets a span holds. */
const MIN_MONTH_NS = 28n * NS_PER_DAY;

/**
 * At most how many buckets of `d` the rows of `slices` (one range, each slice sorted, the slices
 * in any order) fall in: one per bucket their span touches, never more than their rows. Lets
 * the groups be sized once.
 */
export function maxBuckets(slices: readonly Slice[], d: DurationValue): number {
  if (slices.length === 0) return 0;
  let rows = 0;
  let min = slices[0].minTs;
  let max = slices[0].maxTs;
  for (const s of slices) {
    rows += s.hi - s.lo;
    if (s.minTs < min) min = s.minTs;
    if (s.maxTs > max) max = s.maxTs;
  }
  const span = max - min;
  const width = d.months === 0 ? d.nanos : BigInt(d.months) * MIN_MONTH_NS;
  return Math.min(rows, Number(span / width) + 2);
}

/** Fills `runs` with the bucket runs of `rows`: start as hi·2^32 + lo, rows [from, to). */
export function bucketRuns(ts: BigInt64Array, halves: TsHalves, rows: Rows, d: DurationValue, runs: BucketRuns): void {
  runs.count = 0;
  if (rows.hi <= rows.lo) return;
  if (d.months !== 0 || !fixedBuckets(ts, halves, rows, d, runs)) calendarBuckets(ts, halves, rows, d, runs);
}

function fixedBuckets(ts: BigInt64Array, halves: TsHalves, rows: Rows, d: DurationValue, runs: BucketRuns): boolean {
  const { sel, lo, hi } = rows;
  const w = Number(d.nanos);
  const base = bucketStart(ts[sel === null ? lo : sel[lo]], d);
  if (w >= EXACT || ts[sel === null ? hi - 1 : sel[hi - 1]] - base >= BigInt(EXACT)) return false;
  const { hi: bh, lo: bl } = splitInt64(base);
  const th = halves.hi;
  const tl = halves.lo;
  /** Offset of the k-th row from `base`, exact as a number. */
  const rel = (k: number): number => {
    const i = sel === null ? k : sel[k];
    return (th[(i << 1) | 1] - bh) * TWO_32 + (tl[i << 1] - bl);
  };
  let guess = 1;
  let k = lo;
  while (k < hi) {
    const m = Math.floor(rel(k) / w);
    const end = (m + 1) * w;
    // The first row at or past `end`, searched from where the previous run's length points:
    // galloping away from the guess, then bisecting. Evenly spaced rows hit within a step or two.
    let a = k + 1;
    let b = hi;
    const g = Math.min(hi, k + guess);
    if (g < hi && rel(g) < end) {
      let step = 1;
      a = g + 1;
      while (g + step < hi && rel(g + step) < end) { a = g + step + 1; step <<= 1; }
      b = Math.min(hi, g + step);
    } else {
      let step = 1;
      b = g;
      while (g - step > k && rel(g - step) >= end) { b = g - step; step <<= 1; }
      a = Math.max(k + 1, g - step + 1);
    }
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (rel(mid) < end) a = mid + 1;
      else b = mid;
    }
    const offset = m * w;
    let startLo = bl + (offset % TWO_32);
    let startHi = bh + Math.floor(offset / TWO_32);
    if (startLo >= TWO_32) { startLo -= TWO_32; startHi += 1; }
    runs.push(startHi, startLo, k, a);
    guess = a - k;
    k = a;
  }
  return true;
}

function calendarBuckets(ts: BigInt64Array, halves: TsHalves, rows: Rows, d: DurationValue, runs: BucketRuns): void {
  const { sel, hi } = rows;
  let k = rows.lo;
  while (k < hi) {
    const start = bucketStart(ts[sel === null ? k : sel[k]], d);
    const end = d.months === 0 ? start + d.nanos : addDuration(start, d);
    const j = gallop(halves, { sel, lo: k, hi }, end);
    const s = splitInt64(start);
    runs.push(s.hi, s.lo, k, j);
    k = j;
  }
}
