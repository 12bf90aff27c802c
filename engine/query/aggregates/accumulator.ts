// The contract between the aggregate operator and the aggregate families. An accumulator holds
// the running state of every group (struct of arrays indexed by group id) for one argument, and
// is fed segments: one group's rows of one batch, in time order. Families that can, also take a
// whole batch from its statistics without reading values.
import type { ColumnStats } from '../../types.js';
import type { ValueType } from '../plan/value-type.js';
import type { SegmentList } from '../vector/segment-list.js';
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec, setValid } from '../vector/vec.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

export interface Accumulator {
  /**
   * Whether add/addRuns read the rows' times (`ts`): a picked row's time, or ties broken by
   * time. When false the operator may pass an empty array: the times need not be read back.
   */
  readonly readsRowTimes: boolean;
  /** Makes room for group ids below `groups` (new groups start empty). */
  reserve(groups: number): void;
  /** Adds the values of `vec` at `rows` (all in group g, ascending time) ; `ts` = batch times. */
  add(g: number, vec: Vec, rows: Rows, ts: BigInt64Array): void;
  /**
   * Adds every run of a batch (see SegmentList): one call per batch instead of one per run, so
   * families can loop over thousands of small runs without a dispatch each.
   */
  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void;
  /**
   * Adds a whole batch from its statistics (which carry the times and first/last values they
   * report); false, nothing added, when the family cannot: the batch's values are then read.
   */
  addStats(g: number, stats: ColumnStats): boolean;
  /** The value of aggregate `name` for groups [0, groups), as a Vec by group id. */
  finish(name: AggregateName, groups: number): Vec;
  /** Time of the row whose value `name` picked for group g (null when none). */
  pointTs(name: AggregateName, g: number): bigint | null;
  /**
   * The states of groups [0, groups) as plain data, for a worker thread to hand the main thread
   * (its typed arrays are transferred). Absent: the family's states do not merge, and its
   * queries run on the main thread.
   */
  partial?(groups: number): AccumulatorPartial;
  /**
   * Adds each group k < `ids.length` of `p` (the partial of an accumulator of the same spec) to
   * group ids[k], in order, as taking k's rows after the group's own would: the main thread
   * merges the groups of consecutive batches in batch order, each a batch's partial, so sums
   * round as this thread's own would have.
   */
  mergePartials?(ids: Int32Array, p: AccumulatorPartial): void;
}

/** An accumulator's states as they cross threads (see Accumulator.partial). */
export type AccumulatorPartial = Readonly<Record<string, unknown>>;

/**
 * The length accumulators' arrays start at: 8 doubles are 64 bytes, which V8 keeps on its heap.
 * Longer typed arrays get a backing store outside it, which costs ~1 µs to make and more to
 * collect, and a small aggregate query makes a dozen of them.
 */
export const INITIAL_GROUPS = 8;

/** Grows a typed array to at least `n` entries, keeping its contents. */
export function grow<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (len: number) => T)(Math.max(n, a.length * 2, INITIAL_GROUPS));
  b.set(a);
  return b;
}

/** Grows a JS array to `n` entries, filling with `fill`. */
export function growList<T>(a: T[], n: number, fill: T): void {
  while (a.length < n) a.push(fill);
}

/** A validity bitmap with `isNull(g)` groups cleared, or null when no group is null. */
export function nullBits(groups: number, isNull: (g: number) => boolean): Uint8Array | null {
  let bits: Uint8Array | null = null;
  for (let g = 0; g < groups; g++) {
    if (!isNull(g)) continue;
    bits ??= new Uint8Array((groups + 7) >> 3).fill(255);
    setValid(bits, g, false);
  }
  return bits;
}

/**
 * A validity bitmap clearing the groups g < groups whose `marks[g]` (a flag or a count) is 0, or
 * null when no group is empty: one scan without a callback per group.
 */
export function emptyBits(marks: Uint8Array | Float64Array, groups: number): Uint8Array | null {
  const at = marks.subarray(0, groups).indexOf(0);
  if (at < 0) return null;
  const bits = new Uint8Array((groups + 7) >> 3).fill(255);
  for (let g = at; g < groups; g++) if (marks[g] === 0) bits[g >> 3] &= ~(1 << (g & 7));
  return bits;
}

/** A double result Vec; `isNull(g)` marks groups without a value. */
export function f64Result(values: Float64Array, groups: number, isNull: (g: number) => boolean): Vec {
  return { kind: 'f64', values, validity: nullBits(groups, isNull) };
}

/** A result Vec of type `type` from one JS value per group (null = null). */
export function scalarResult(type: ValueType, values: readonly (number | bigint | string | Uint8Array | null)[], groups: number): Vec {
  const bits = new Uint8Array((groups + 7) >> 3);
  if (type === 'double' || type === 'boolean') {
    const out = new Float64Array(groups);
    for (let g = 0; g < groups; g++) {
      const v = values[g];
      setValid(bits, g, v !== null && v !== undefined);
      if (typeof v === 'number') out[g] = v;
    }
    return { kind: 'f64', values: out, validity: bits };
  }
  if (type === 'int64' || type === 'timestamp') {
    const out = new BigInt64Array(groups);
    for (let g = 0; g < groups; g++) {
      const v = values[g];
      setValid(bits, g, v !== null && v !== undefined);
      if (typeof v === 'bigint') out[g] = v;
    }
    return i64Vec(out, bits);
  }
  const list: (string | Uint8Array | null)[] = new Array(groups);
  for (let g = 0; g < groups; g++) {
    const v = values[g];
    list[g] = typeof v === 'string' || v instanceof Uint8Array ? v : null;
  }
  return { kind: 'list', values: list };
}

/** Non-null doubles of an f64 or i64 Vec over `rows`, handed one by one to `fn`. */
export function forEachNumber(vec: Vec, rows: Rows, fn: (x: number, i: number) => void): void {
  const { sel, lo, hi } = rows;
  if (vec.kind === 'f64') {
    const x = vec.values;
    const valid = vec.validity;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      if (valid === null || ((valid[i >> 3] >> (i & 7)) & 1) === 1) fn(x[i], i);
    }
  } else if (vec.kind === 'i64') {
    const vl = vec.lo;
    const vh = vec.hi;
    const valid = vec.validity;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      if (valid === null || ((valid[i >> 3] >> (i & 7)) & 1) === 1) fn(vh[(i << 1) | 1] * 4294967296 + vl[i << 1], i);
    }
  } else {
    throw new Error(`planner bug: numeric aggregate over ${vec.kind}`);
  }
}

/** addRuns for families without a specialized loop: add() per run. */
/**
 * Base of the families that add one run at a time and cannot use batch statistics: it supplies
 * those two parts of the interface once.
 */
export abstract class RunByRunAccumulator implements Accumulator {
  abstract readonly readsRowTimes: boolean;
  abstract reserve(groups: number): void;
  abstract add(g: number, vec: Vec, rows: Rows, ts: BigInt64Array): void;
  abstract finish(name: AggregateName, groups: number): Vec;
  abstract pointTs(name: AggregateName, g: number): bigint | null;

  addRuns(runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
    addEachRun(this, runs, vec, ts);
  }

  addStats(): boolean {
    return false;
  }
}

export function addEachRun(acc: Accumulator, runs: SegmentList, vec: Vec, ts: BigInt64Array): void {
  const rows = { sel: runs.sel, lo: 0, hi: 0 };
  for (let r = 0; r < runs.count; r++) {
    rows.lo = runs.los[r];
    rows.hi = runs.his[r];
    acc.add(runs.groups[r], vec, rows, ts);
  }
}
