// Searches in a batch's sorted timestamps without allocating: the target is split into 32-bit
// halves once and compared against the int64 array's halves with plain numbers. Range edges and
// GROUP BY bucket edges are all found this way.
import { INT64_MAX, INT64_MIN } from '../../../../grammar/index.js';
import type { Rows } from '../../vector/vec.js';
import { int64Halves, splitInt64 } from '../../vector/vec.js';

export interface TsHalves {
  readonly lo: Uint32Array;
  readonly hi: Int32Array;
}

export function tsHalves(ts: BigInt64Array): TsHalves {
  return int64Halves(ts);
}

/** True when ts[i] < (th, tl). */
function isBefore(ts: TsHalves, i: number, th: number, tl: number): boolean {
  const h = ts.hi[(i << 1) | 1];
  return h < th || (h === th && ts.lo[i << 1] < tl);
}

/** First index in [from, to) with ts[index] >= target (to when none). */
export function lowerBound(ts: TsHalves, from: number, to: number, target: bigint): number {
  if (target <= INT64_MIN) return from;
  if (target > INT64_MAX) return to;
  const { hi: th, lo: tl } = splitInt64(target);
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (isBefore(ts, m, th, tl)) a = m + 1;
    else b = m;
  }
  return a;
}

/**
 * First k in [rows.lo, rows.hi) whose row has ts >= target, searching forward from rows.lo by
 * doubling steps then bisecting: cheap when the answer is near (small buckets), logarithmic
 * when it is far (large buckets).
 */
export function gallop(ts: TsHalves, rows: Rows, target: bigint): number {
  const { sel, lo, hi } = rows;
  if (target > INT64_MAX) return hi;
  const { hi: th, lo: tl } = splitInt64(target);
  const before = (k: number): boolean => isBefore(ts, sel === null ? k : sel[k], th, tl);
  if (lo >= hi || !before(lo)) return lo;
  let last = lo;
  let step = 1;
  while (last + step < hi && before(last + step)) { last += step; step <<= 1; }
  let a = last + 1;
  let b = Math.min(hi, last + step);
  while (a < b) {
    const m = (a + b) >>> 1;
    if (before(m)) a = m + 1;
    else b = m;
  }
  return a;
}
