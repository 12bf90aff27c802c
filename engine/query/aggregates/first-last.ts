// first and last: the earliest and latest non-null value of each group, of any type, with the
// time of its row. Segments arrive in time order, so `first` is set once and `last` overwritten.
// Only the first and last valid rows of a segment are read; statistics name those rows directly.
import type { ColumnStats } from '../../types.js';
import type { Scalar, ValueType } from '../plan/plan-expr.js';
import { scalarAt } from '../vector/scalars.js';
import type { Rows, Vec } from '../vector/vec.js';
import { isValidAt } from '../vector/vec.js';
import type { SegmentList } from '../vector/segment-list.js';
import type { Accumulator } from './accumulator.js';
import { addEachRun, grow, growList, scalarResult } from './accumulator.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

type Value = number | bigint | string | Uint8Array | null;

export class FirstLastAccumulator implements Accumulator {
  private has = new Uint8Array(16);
  private readonly firsts: Value[] = [];
  private readonly lasts: Value[] = [];
  private readonly firstTs: bigint[] = [];
  private readonly lastTs: bigint[] = [];
  private readonly isText: boolean;

  constructor(private readonly type: ValueType, private readonly needsPoint: boolean) {
    this.isText = type !== 'blob';
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

  addStats(g: number, stats: ColumnStats, vec: () => Vec, ts: BigInt64Array): boolean {
    if (stats.firstRow >= 0) this.offer(g, vec(), stats.firstRow, stats.lastRow, ts);
    return true;
  }

  private offer(g: number, vec: Vec, first: number, last: number, ts: BigInt64Array): void {
    if (this.has[g] === 0) {
      this.has[g] = 1;
      this.firsts[g] = toValue(scalarAt(vec, first, this.isText));
      if (this.needsPoint) this.firstTs[g] = ts[first];
    }
    this.lasts[g] = toValue(scalarAt(vec, last, this.isText));
    if (this.needsPoint) this.lastTs[g] = ts[last];
  }

  finish(name: AggregateName, groups: number): Vec {
    return scalarResult(this.type, name === 'first' ? this.firsts : this.lasts, groups);
  }

  pointTs(name: AggregateName, g: number): bigint | null {
    if (this.has[g] === 0) return null;
    return name === 'first' ? this.firstTs[g] : this.lastTs[g];
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
