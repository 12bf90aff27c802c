// The immutable plan of a SELECT: one TablePlan per source table (each table is its own group,
// SPEC §6), holding typed expressions and aggregate specs. Running a plan never changes it; the
// executor keeps all per-run state (accumulators, scratch buffers, groups) on its side.
import type { DurationValue } from '../../../grammar/index.js';
import type { Table } from '../../storage/table.js';
import type { ColumnType } from '../../types.js';
import type { AccumulatorFamily, AggregateName } from './aggregate-registry.js';
import type { SequenceFn } from './functions.js';
import type { ResultType } from '../result.js';
import type { PlanExpr } from './plan-expr.js';
import type { ValueType } from './value-type.js';

/** [from, to) in nanoseconds: start-inclusive, end-exclusive. */
export interface TimeRange {
  readonly from: bigint;
  readonly to: bigint;
}

/**
 * `WITH MONTHS IN / DAYS IN / TIME IN` of the IN clause: inside each range, the times kept. Each
 * pair is [from, to): months 1–12 (to up to 13), ISO weekdays 1–7 (to up to 8), times of day in
 * nanoseconds (to up to 24 h); from > to wraps around. Null: no such filter.
 */
export interface CalendarPlan {
  readonly months: readonly [number, number] | null;
  readonly weekdays: readonly [number, number] | null;
  readonly times: readonly [bigint, bigint] | null;
}

/** One accumulator: a family over one row-context argument, serving one or more aggregates. */
export interface AccumulatorSpec {
  readonly family: AccumulatorFamily;
  readonly arg: PlanExpr;
  /** `exprKey(arg)`: accumulators over equal arguments have equal keys. */
  readonly argKey: string;
  readonly names: ReadonlySet<AggregateName>;
  /** abs family: abs_max (true) or abs_min (false); they never share an accumulator. */
  readonly isMax: boolean;
}

/** One aggregate call of the query (`slot` = index in `AggregatePlan.calls`). */
export interface AggregateCall {
  readonly name: AggregateName;
  readonly accumulator: number;
  readonly type: ValueType;
  readonly isCount: boolean;
}

/**
 * `FILL(…)` after GROUP BY duration: every bucket of each range (the data's span without one)
 * is emitted, per GROUP BY key series, the empty ones filled: null, a number (numeric columns),
 * the series' previous row (PREV) or the line between its neighbours (LINEAR, numeric columns).
 */
export interface FillPlan {
  readonly mode: 'null' | 'prev' | 'linear' | 'value';
  /** The FILL number: a bigint when written whole, else a double. */
  readonly value: number | bigint | null;
}

export interface AggregatePlan {
  /** GROUP BY duration, or null. */
  readonly bucket: DurationValue | null;
  /** GROUP BY columns (row context), in the order written. */
  readonly keys: readonly PlanExpr[];
  readonly accumulators: readonly AccumulatorSpec[];
  readonly calls: readonly AggregateCall[];
  /** HAVING, in group context. */
  readonly having: PlanExpr | null;
  /** The lone first/last/min/max/abs_min/abs_max whose row time is the result row time. */
  readonly pointCall: number | null;
  /** FILL of the empty buckets, or null. */
  readonly fill: FillPlan | null;
}

/**
 * One row-sequence call (cumsum, moving_average, delta, derivative, non_negative_derivative,
 * lag), `slot` = index in `TablePlan.sequences`. Computed over the rows of a plain query in time
 * order (per GROUP BY column partition), or over the groups of an aggregate query in bucket order.
 */
export interface SequenceSpec {
  readonly fn: SequenceFn;
  /** Row context in a plain query, group context in an aggregate query. */
  readonly arg: PlanExpr;
  readonly type: ValueType;
  /** The window of moving_average, the distance of lag (1 for the others). */
  readonly n: number;
  /** The time unit of derivative, in nanoseconds (1 s unless given). */
  readonly unitNs: number;
  /** The key of its scratch buffers. */
  readonly id: number;
}

/** One table of an ASOF JOIN: its columns sit at firstColumn (`$timestamp`), firstColumn + 1, … */
export interface JoinSide {
  readonly table: Table;
  readonly name: string;
  readonly firstColumn: number;
}

/**
 * `[LEFT | RIGHT | FULL] ASOF JOIN`: the FROM source and the joined tables, in that order. Each
 * output row takes, from every table but the one whose row it is, that table's last row at or
 * before its time; `inner` drops rows some table has no such row for, `right` makes the (one)
 * joined table's rows the output rows, `full` takes every table's rows except those at a time an
 * earlier table also has a row at.
 */
export interface JoinPlan {
  readonly type: 'inner' | 'left' | 'right' | 'full';
  readonly sides: readonly JoinSide[];
}

export interface OutputColumn {
  readonly name: string;
  /** Row context in a plain query, group context in an aggregate query. */
  readonly expr: PlanExpr;
  readonly type: ResultType;
  /** ORDER BY keys that are not selected are computed as hidden outputs. */
  readonly isHidden: boolean;
}

export interface OrderKey {
  readonly output: number;
  readonly isDescending: boolean;
}

export interface TablePlan {
  readonly table: Table;
  readonly name: string;
  /** Types of the batch columns by index: [$timestamp, ...schema]. */
  readonly columnTypes: readonly ColumnType[];
  /** Ranges in the order written; null = every row. */
  readonly ranges: readonly TimeRange[] | null;
  /** The ASOF JOIN this table is the FROM source of, or null. */
  readonly join: JoinPlan | null;
  /** Calendar filters cutting each range into pieces before the scan (exec/scan/calendar-pieces.ts). */
  readonly calendar: CalendarPlan | null;
  /**
   * What the WHERE's `$timestamp <op> <time>` terms keep (plan/time-bounds.ts): each range is
   * narrowed to it before the scan, and those terms are not in `where`. Null: no such term.
   */
  readonly timeBounds: TimeRange | null;
  /** The WHERE less the terms `timeBounds` stands for; null = every row of the narrowed ranges. */
  readonly where: PlanExpr | null;
  /** Distinct columns the query references (the SPEC §7 scanned-rows multiplier). */
  readonly referencedColumns: number;
  readonly outputs: readonly OutputColumn[];
  readonly orderBy: readonly OrderKey[];
  readonly limit: number | null;
  readonly offset: number;
  /** Null for a plain row query. */
  readonly aggregate: AggregatePlan | null;
  /** Row-sequence calls, inner ones before the calls using them; empty for most queries. */
  readonly sequences: readonly SequenceSpec[];
  /**
   * GROUP BY columns of a plain query with sequence functions (row context): the sequences run
   * per value of these, and rows come out by range, then key, then time.
   */
  readonly partition: readonly PlanExpr[];
}

export interface SelectPlan {
  readonly tables: readonly TablePlan[];
}
