// sum, avg and arithmetic_mean: a running sum and count per group. Doubles sum in plain order.
// int64 sums are exact: each segment adds the unsigned low and signed high 32-bit halves in two
// number accumulators (exact for 2^20 rows at a time), then folds them into a BigInt once per
// segment, so no row ever touches BigInt arithmetic.
import type { ColumnStats } from '../../types.js';
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec } from '../vector/vec.js';
import type { Accumulator, AccumulatorPartial } from './accumulator.js';
import { addEachRun, emptyBits, grow, growList } from './accumulator.js';
import type { SegmentList } from '../vector/segment-list.js';
import type { AggregateName } from '../plan/aggregate-registry.js';
import { out, sumF64 } from './f64-loops.js';
import type { RunPartials } from './run-partials.js';

const CHUNK = 1 << 20;

export class SumAccumulator implements Accumulator {
  readonly readsRowTimes = false;
  private counts = new Float64Array(8);
  private sums = new Float64Array(8);
  private readonly bigSums: bigint[] = [];

  constructor(private readonly isInt: boolean) {}

  reserve(groups: number): void {
    this.counts = grow(this.counts, groups);
    this.sums = grow(this.sums, groups);
    if (this.isInt) growList(this.bigSums, groups, 0n);
  }

  add(g: number, vec: Vec, rows: Rows): void {
    const { sel, hi } = rows;
    if (vec.kind === 'f64') {
      sumF64(vec.values, vec.validity, rows);
      this.sums[g] += out[0];
      this.counts[g] += out[1];
      return;
    }
    if (vec.kind !== 'i64') throw new Error(`planner bug: sum over ${vec.kind}`);
    const vl = vec.lo;
    const vh = vec.hi;
    const valid = vec.validity;
    for (let start = rows.lo; start < hi; start += CHUNK) {
      const end = Math.min(hi, start + CHUNK);
      let sLo = 0;
      let sHi = 0;
      let n = 0;
      for (let k = start; k < end; k++) {
        const i = sel === null ? k : sel[k];
        if (valid === null || ((valid[i >> 3] >> (i & 7)) & 1) === 1) { sLo += vl[i << 1]; sHi += vh[(i << 1) | 1]; n++; }
      }
      this.bigSums[g] += BigInt(sHi) * 4294967296n + BigInt(sLo);
      this.counts[g] += n;
    }
  }

  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
    if (vec.kind !== 'f64' || vec.validity !== null || runs.sel !== null) { addEachRun(this, runs, vec, ts); return; }
    // The GROUP BY duration shape: many short runs of a column without nulls.
    const x = vec.values;
    for (let r = 0; r < runs.count; r++) {
      const g = runs.groups[r];
      const lo = runs.los[r];
      const hi = runs.his[r];
      if (hi - lo >= 64) { sumF64(x, null, { sel: null, lo, hi }); this.sums[g] += out[0]; this.counts[g] += out[1]; continue; }
      let s = 0;
      for (let i = lo; i < hi; i++) s += x[i];
      this.sums[g] += s;
      this.counts[g] += hi - lo;
    }
  }

  /** Adds a double sum of `count` values to group g (filtered-sums.ts). */
  addTotal(g: number, sum: number, count: number): void {
    this.sums[g] += sum;
    this.counts[g] += count;
  }

  /** Whether addPartials applies: a double argument. */
  get takesPartials(): boolean {
    return !this.isInt;
  }

  /** Each run's sum computed by the fused pass (sum-min-max.ts). */
  addPartials(runs: SegmentList, partials: RunPartials): void {
    const { groups, los, his } = runs;
    const { sums, counts } = this;
    const runSums = partials.sums;
    for (let r = 0; r < runs.count; r++) {
      const g = groups[r];
      sums[g] += runSums[r];
      counts[g] += his[r] - los[r];
    }
  }

  addStats(g: number, stats: ColumnStats): boolean {
    if (stats.count === 0) return true;
    if (stats.sum === null) return false;
    if (this.isInt) this.bigSums[g] += stats.sum as bigint;
    else this.sums[g] += stats.sum as number;
    this.counts[g] += stats.count;
    return true;
  }

  finish(name: AggregateName, groups: number): Vec {
    const counts = this.counts;
    const validity = emptyBits(counts, groups);
    if (this.isInt) {
      if (name === 'sum') {
        const out = new BigInt64Array(groups);
        for (let g = 0; g < groups; g++) out[g] = BigInt.asIntN(64, this.bigSums[g]);
        return i64Vec(out, validity);
      }
      const out = new Float64Array(groups);
      for (let g = 0; g < groups; g++) out[g] = Number(this.bigSums[g]) / counts[g];
      return { kind: 'f64', values: out, validity };
    }
    if (name === 'sum') return { kind: 'f64', values: this.sums.slice(0, groups), validity };
    const sums = this.sums;
    const out = new Float64Array(groups);
    for (let g = 0; g < groups; g++) out[g] = sums[g] / counts[g];
    return { kind: 'f64', values: out, validity };
  }

  pointTs(): null {
    return null;
  }

  partial(groups: number): AccumulatorPartial {
    return { counts: this.counts.slice(0, groups), sums: this.isInt ? this.bigSums.slice(0, groups) : this.sums.slice(0, groups) };
  }

  /** As addStats: a group part without values adds nothing (not even a zero to the sum). */
  mergePartials(ids: Int32Array, p: AccumulatorPartial): void {
    const fromCounts = p.counts as Float64Array;
    const { counts } = this;
    if (this.isInt) {
      const fromSums = p.sums as bigint[];
      for (let k = 0; k < ids.length; k++) {
        if (fromCounts[k] === 0) continue;
        this.bigSums[ids[k]] += fromSums[k];
        counts[ids[k]] += fromCounts[k];
      }
      return;
    }
    const fromSums = p.sums as Float64Array;
    const sums = this.sums;
    for (let k = 0; k < ids.length; k++) {
      if (fromCounts[k] === 0) continue;
      const g = ids[k];
      sums[g] += fromSums[k];
      counts[g] += fromCounts[k];
    }
  }
}
