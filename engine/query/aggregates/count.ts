// count(x): the number of non-null values. Without nulls it is the segment length; with a
// validity bitmap, a bit test per row. A whole batch's count comes from its statistics.
import type { ColumnStats } from '../../types.js';
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec, int64Halves, TWO_32 } from '../vector/vec.js';
import type { Accumulator, AccumulatorPartial } from './accumulator.js';
import { addEachRun, grow } from './accumulator.js';
import type { SegmentList } from '../vector/segment-list.js';

export class CountAccumulator implements Accumulator {
  readonly readsRowTimes = false;
  private counts = new Float64Array(8);

  reserve(groups: number): void {
    this.counts = grow(this.counts, groups);
  }

  add(g: number, vec: Vec, rows: Rows): void {
    this.counts[g] += countValid(vec, rows);
  }

  /** Adds `n` values known to be non-null to group g. */
  addCount(g: number, n: number): void {
    this.counts[g] += n;
  }

  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
    if (vec.kind === 'list' || vec.kind === 'const' || vec.validity !== null) { addEachRun(this, runs, vec, ts); return; }
    for (let r = 0; r < runs.count; r++) this.counts[runs.groups[r]] += runs.his[r] - runs.los[r];
  }

  addStats(g: number, stats: ColumnStats): boolean {
    this.counts[g] += stats.count;
    return true;
  }

  finish(_name: string, groups: number): Vec {
    // Written through the 32-bit halves: a BigInt per group costs more than the whole count.
    const out = new BigInt64Array(groups);
    const { lo, hi } = int64Halves(out);
    const counts = this.counts;
    for (let g = 0; g < groups; g++) {
      const c = counts[g];
      const h = Math.floor(c / TWO_32);
      lo[g << 1] = c - h * TWO_32;
      hi[(g << 1) | 1] = h;
    }
    return i64Vec(out, null);
  }

  pointTs(): null {
    return null;
  }

  partial(groups: number): AccumulatorPartial {
    return { counts: this.counts.slice(0, groups) };
  }

  mergePartials(ids: Int32Array, p: AccumulatorPartial): void {
    const from = p.counts as Float64Array;
    const counts = this.counts;
    for (let k = 0; k < ids.length; k++) counts[ids[k]] += from[k];
  }
}

/** Non-null values of `vec` at `rows`. */
export function countValid(vec: Vec, rows: Rows): number {
  const { sel, lo, hi } = rows;
  if (vec.kind === 'const') return vec.value === null ? 0 : hi - lo;
  if (vec.kind === 'list') {
    let n = 0;
    for (let k = lo; k < hi; k++) if (vec.values[sel === null ? k : sel[k]] !== null) n++;
    return n;
  }
  const valid = vec.validity;
  if (valid === null) return hi - lo;
  let n = 0;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    n += (valid[i >> 3] >> (i & 7)) & 1;
  }
  return n;
}
