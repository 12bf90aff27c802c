// min, max and spread (max − min) of doubles, int64 and timestamps, with the time of the row
// holding the extreme (earliest row on ties, as batch statistics record it). NaN is skipped, like
// the statistics do. int64 values are compared through their 32-bit halves; a segment's winner
// becomes a BigInt once. A whole batch's extremes come from its statistics.
// Batches read as stored (`tiesByTime`: late runs not merged) may bring an earlier row after a
// later one: ties then go to the earlier row time (equal times: the row met first, which is the
// one inserted first). Doubles track row times for that even without a picked row, since 0 and
// -0 tie and the earliest decides the sign, as it does in time order.
import type { ColumnStats } from '../../types.js';
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec } from '../vector/vec.js';
import type { Accumulator, AccumulatorPartial } from './accumulator.js';
import { addEachRun, emptyBits, grow, growList } from './accumulator.js';
import type { SegmentList } from '../vector/segment-list.js';
import type { AggregateName } from '../plan/aggregate-registry.js';
import { minMaxF64, out } from './f64-loops.js';
import type { RunPartials } from './run-partials.js';

/** The row times of a batch's extremes, as offer() reads them (rows 0 and 1). */
const STATS_TS = new BigInt64Array(2);

export class MinMaxAccumulator implements Accumulator {
  private has = new Uint8Array(16);
  private mins = new Float64Array(8);
  private maxs = new Float64Array(8);
  private readonly bigMins: bigint[] = [];
  private readonly bigMaxs: bigint[] = [];
  private readonly minTs: bigint[] = [];
  private readonly maxTs: bigint[] = [];

  /** Row times of the extremes are kept (needsPoint, or doubles whose ties go by time). */
  private readonly tracksTs: boolean;
  readonly readsRowTimes: boolean;
  /** Ties go to the earlier row time (tracked). */
  private readonly tiesByTs: boolean;

  constructor(private readonly isInt: boolean, private readonly needsPoint: boolean, tiesByTime = false) {
    this.tracksTs = needsPoint || (tiesByTime && !isInt);
    this.tiesByTs = tiesByTime && this.tracksTs;
    this.readsRowTimes = this.tracksTs;
  }

  reserve(groups: number): void {
    this.has = grow(this.has, groups);
    this.mins = grow(this.mins, groups);
    this.maxs = grow(this.maxs, groups);
    if (this.tracksTs) { growList(this.minTs, groups, 0n); growList(this.maxTs, groups, 0n); }
    if (this.isInt) { growList(this.bigMins, groups, 0n); growList(this.bigMaxs, groups, 0n); }
  }

  add(g: number, vec: Vec, rows: Rows, ts: BigInt64Array): void {
    const { sel, lo, hi } = rows;
    let mi = -1;
    let xi = -1;
    if (vec.kind === 'f64') {
      minMaxF64(vec.values, vec.validity, rows);
      if (out[1] >= 0) this.offer(g, out[0], 0n, out[1], out[3], out[2], 0n, ts);
      return;
    }
    if (vec.kind !== 'i64') throw new Error(`planner bug: min/max over ${vec.kind}`);
    const vl = vec.lo;
    const vh = vec.hi;
    const valid = vec.validity;
    let mh = 0, ml = 0, Mh = 0, Ml = 0;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      if (valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const h = vh[(i << 1) | 1];
      const l = vl[i << 1];
      if (mi < 0 || h < mh || (h === mh && l < ml)) { mh = h; ml = l; mi = i; }
      if (xi < 0 || h > Mh || (h === Mh && l > Ml)) { Mh = h; Ml = l; xi = i; }
    }
    if (mi >= 0) this.offer(g, 0, vec.values[mi], mi, xi, 0, vec.values[xi], ts);
  }

  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
    if (vec.kind !== 'f64' || vec.validity !== null) { addEachRun(this, runs, vec, ts); return; }
    if (!this.tracksTs) { this.addRunsF64(runs, vec.values); return; }
    const x = vec.values;
    const rows = { sel: runs.sel, lo: 0, hi: 0 };
    for (let r = 0; r < runs.count; r++) {
      rows.lo = runs.los[r];
      rows.hi = runs.his[r];
      minMaxF64(x, null, rows);
      if (out[1] >= 0) this.offer(runs.groups[r], out[0], 0n, out[1], out[3], out[2], 0n, ts);
    }
  }

  /**
   * The GROUP BY duration shape (many short runs of doubles without nulls, no picked row): the
   * extremes of each run in one loop, merged straight into the group's state. Starting from
   * ±Infinity, strict tests skip NaN, and `m <= M` afterwards says some value was not NaN.
   */
  private addRunsF64(runs: SegmentList, x: Float64Array): void {
    const { groups, los, his, sel } = runs;
    for (let r = 0; r < runs.count; r++) {
      const hi = his[r];
      let m = Infinity;
      let M = -Infinity;
      if (sel === null) {
        for (let i = los[r]; i < hi; i++) { const v = x[i]; if (v < m) m = v; if (v > M) M = v; }
      } else {
        for (let k = los[r]; k < hi; k++) { const v = x[sel[k]]; if (v < m) m = v; if (v > M) M = v; }
      }
      this.merge(groups[r], m, M);
    }
  }

  /** Whether addPartials applies: doubles, and no row time to track. */
  get takesPartials(): boolean {
    return !this.isInt && !this.tracksTs;
  }

  /** Each run's extremes computed by the fused pass (sum-min-max.ts). */
  addPartials(runs: SegmentList, partials: RunPartials): void {
    const { groups } = runs;
    const { mins, maxs } = partials;
    for (let r = 0; r < runs.count; r++) this.merge(groups[r], mins[r], maxs[r]);
  }

  /** Merges one run's extremes (m > M, or NaN: the run had no value besides NaN). */
  private merge(g: number, m: number, M: number): void {
    if (!(m <= M)) return;
    if (this.has[g] === 0) { this.has[g] = 1; this.mins[g] = m; this.maxs[g] = M; return; }
    if (m < this.mins[g]) this.mins[g] = m;
    if (M > this.maxs[g]) this.maxs[g] = M;
  }

  addStats(g: number, stats: ColumnStats): boolean {
    if (stats.minRow < 0) return true;
    // The statistics' own row times stand in for the batch's times at rows 0 and 1.
    const ts = STATS_TS;
    ts[0] = stats.minTime!;
    ts[1] = stats.maxTime!;
    if (this.isInt) this.offer(g, 0, stats.min as bigint, 0, 1, 0, stats.max as bigint, ts);
    else this.offer(g, stats.min as number, 0n, 0, 1, stats.max as number, 0n, ts);
    return true;
  }

  /**
   * Merges one segment's extremes (min at row mi, max at row xi, each the segment's earliest);
   * strict comparisons keep the earlier segment's row on ties, or with `tiesByTs` the earlier
   * row time. Row times are read only when tracked.
   */
  private offer(g: number, m: number, bm: bigint, mi: number, xi: number, M: number, bM: bigint, ts: BigInt64Array): void {
    const isFirst = this.has[g] === 0;
    this.has[g] = 1;
    const isTracked = this.tracksTs;
    const byTs = this.tiesByTs;
    if (this.isInt) {
      if (isFirst || bm < this.bigMins[g] || (byTs && bm === this.bigMins[g] && ts[mi] < this.minTs[g])) { this.bigMins[g] = bm; if (isTracked) this.minTs[g] = ts[mi]; }
      if (isFirst || bM > this.bigMaxs[g] || (byTs && bM === this.bigMaxs[g] && ts[xi] < this.maxTs[g])) { this.bigMaxs[g] = bM; if (isTracked) this.maxTs[g] = ts[xi]; }
    } else {
      if (isFirst || m < this.mins[g] || (byTs && m === this.mins[g] && ts[mi] < this.minTs[g])) { this.mins[g] = m; if (isTracked) this.minTs[g] = ts[mi]; }
      if (isFirst || M > this.maxs[g] || (byTs && M === this.maxs[g] && ts[xi] < this.maxTs[g])) { this.maxs[g] = M; if (isTracked) this.maxTs[g] = ts[xi]; }
    }
  }

  finish(name: AggregateName, groups: number): Vec {
    const validity = emptyBits(this.has, groups);
    if (this.isInt) {
      const out = new BigInt64Array(groups);
      for (let g = 0; g < groups; g++) {
        out[g] = name === 'min' ? this.bigMins[g] : name === 'max' ? this.bigMaxs[g] : BigInt.asIntN(64, this.bigMaxs[g] - this.bigMins[g]);
      }
      return i64Vec(out, validity);
    }
    let out: Float64Array;
    if (name === 'min') out = this.mins.slice(0, groups);
    else if (name === 'max') out = this.maxs.slice(0, groups);
    else {
      out = new Float64Array(groups);
      for (let g = 0; g < groups; g++) out[g] = this.maxs[g] - this.mins[g];
    }
    return { kind: 'f64', values: out, validity };
  }

  pointTs(name: AggregateName, g: number): bigint | null {
    if (this.has[g] === 0) return null;
    return name === 'min' ? this.minTs[g] : name === 'max' ? this.maxTs[g] : null;
  }

  partial(groups: number): AccumulatorPartial {
    return {
      has: this.has.slice(0, groups),
      mins: this.isInt ? this.bigMins.slice(0, groups) : this.mins.slice(0, groups),
      maxs: this.isInt ? this.bigMaxs.slice(0, groups) : this.maxs.slice(0, groups),
      minTs: this.tracksTs ? this.minTs.slice(0, groups) : null,
      maxTs: this.tracksTs ? this.maxTs.slice(0, groups) : null,
    };
  }

  /** Offered as one segment's extremes are (ties keep the earlier group part, or the earlier row time). */
  mergePartials(ids: Int32Array, p: AccumulatorPartial): void {
    const has = p.has as Uint8Array;
    if (!this.isInt && !this.tracksTs) {
      // The GROUP BY duration shape: extremes merged as addRunsF64 merges a run's.
      const mins = p.mins as Float64Array;
      const maxs = p.maxs as Float64Array;
      for (let k = 0; k < ids.length; k++) if (has[k] === 1) this.merge(ids[k], mins[k], maxs[k]);
      return;
    }
    const ts = STATS_TS;
    const minTs = p.minTs as bigint[] | null;
    const maxTs = p.maxTs as bigint[] | null;
    for (let k = 0; k < ids.length; k++) {
      if (has[k] === 0) continue;
      ts[0] = minTs?.[k] ?? 0n;
      ts[1] = maxTs?.[k] ?? 0n;
      if (this.isInt) this.offer(ids[k], 0, (p.mins as bigint[])[k], 0, 1, 0, (p.maxs as bigint[])[k], ts);
      else this.offer(ids[k], (p.mins as Float64Array)[k], 0n, 0, 1, (p.maxs as Float64Array)[k], 0n, ts);
    }
  }
}
