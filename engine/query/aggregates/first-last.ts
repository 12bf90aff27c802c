// first and last: the earliest and latest non-null value of each group, of any type, with the
// time of its row. Segments arrive in time order, so `first` is set once and `last` overwritten.
// Only the first and last valid rows of a segment are read; statistics name those rows directly.
import type { ColumnStats } from '../../types.js';
import type { Scalar } from '../plan/plan-expr.js';
import type { ValueType } from '../plan/value-type.js';
import { scalarAt } from '../vector/scalars.js';
import type { Rows, Vec } from '../vector/vec.js';
import { isValidAt } from '../vector/vec.js';
import type { SegmentList } from '../vector/segment-list.js';
import type { Accumulator, AccumulatorPartial } from './accumulator.js';
import { addEachRun, grow, growList, scalarResult } from './accumulator.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

type Value = number | bigint | string | Uint8Array | null;

export class FirstLastAccumulator implements Accumulator {
  readonly readsRowTimes: boolean;
  private has = new Uint8Array(16);
  private readonly firsts: Value[] = [];
  private readonly lasts: Value[] = [];
  private readonly firstTs: bigint[] = [];
  private readonly lastTs: bigint[] = [];
  private readonly isText: boolean;

  constructor(private readonly type: ValueType, private readonly needsPoint: boolean) {
    this.isText = type !== 'blob';
    this.readsRowTimes = needsPoint;
  }

  reserve(groups: number): void {
    this.has = grow(this.has, groups);
    growList(this.firsts, groups, null);
    growList(this.lasts, groups, null);
    growList(this.firstTs, groups, 0n);
    growList(this.lastTs, groups, 0n);
  }

  add(g: number, vec: Vec, rows: Rows, ts: BigInt64Array): void {
    const { sel, lo, hi } = rows;
    let first = -1;
    for (let k = lo; k < hi && first < 0; k++) {
      const i = sel === null ? k : sel[k];
      if (isPresent(vec, i)) first = i;
    }
    if (first < 0) return;
    let last = first;
    for (let k = hi - 1; k >= lo; k--) {
      const i = sel === null ? k : sel[k];
      if (isPresent(vec, i)) { last = i; break; }
    }
    this.offer(g, vec, first, last, ts);
  }

  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
    addEachRun(this, runs, vec, ts);
  }

  /** Statistics keep the first and last values of number columns only. */
  addStats(g: number, stats: ColumnStats): boolean {
    if (stats.firstRow < 0) return true;
    if (stats.first === null) return false;
    this.offerValues(g, stats.first, stats.firstTime!, stats.last, stats.lastTime!);
    return true;
  }

  private offer(g: number, vec: Vec, first: number, last: number, ts: BigInt64Array): void {
    const isNew = this.has[g] === 0;
    this.offerValues(g, isNew ? toValue(scalarAt(vec, first, this.isText)) : null, this.needsPoint ? ts[first] : 0n, toValue(scalarAt(vec, last, this.isText)), this.needsPoint ? ts[last] : 0n);
  }

  /** A segment's first and last values with their row times (the first counts only for a new group). */
  private offerValues(g: number, first: Value, firstTs: bigint, last: Value, lastTs: bigint): void {
    if (this.has[g] === 0) {
      this.has[g] = 1;
      this.firsts[g] = first;
      this.firstTs[g] = firstTs;
    }
    this.lasts[g] = last;
    this.lastTs[g] = lastTs;
  }

  finish(name: AggregateName, groups: number): Vec {
    return scalarResult(this.type, name === 'first' ? this.firsts : this.lasts, groups);
  }

  pointTs(name: AggregateName, g: number): bigint | null {
    if (this.has[g] === 0) return null;
    return name === 'first' ? this.firstTs[g] : this.lastTs[g];
  }

  partial(groups: number): AccumulatorPartial {
    return {
      has: this.has.slice(0, groups), firsts: this.firsts.slice(0, groups), lasts: this.lasts.slice(0, groups),
      firstTs: this.firstTs.slice(0, groups), lastTs: this.lastTs.slice(0, groups),
    };
  }

  mergePartials(ids: Int32Array, p: AccumulatorPartial): void {
    const has = p.has as Uint8Array;
    const firsts = p.firsts as Value[];
    const lasts = p.lasts as Value[];
    const firstTs = p.firstTs as bigint[];
    const lastTs = p.lastTs as bigint[];
    for (let k = 0; k < ids.length; k++) if (has[k] === 1) this.offerValues(ids[k], firsts[k], firstTs[k], lasts[k], lastTs[k]);
  }
}

function isPresent(vec: Vec, i: number): boolean {
  if (vec.kind === 'list') return vec.values[i] !== null;
  if (vec.kind === 'const') return vec.value !== null;
  return isValidAt(vec.validity, i);
}

function toValue(s: Scalar): Value {
  return typeof s === 'boolean' ? null : s;
}
