// Plans a DELETE for one source table (SPEC §6): its ranges resolved at the statement's `now` and
// merged, the calendar filters checked, the WHERE bound to the table's columns (a row condition:
// no aggregates, no row-sequence functions), or the DUPLICATE columns resolved (they must include
// `$timestamp`; no list = every column). The same plan is made where the DELETE is run and where
// its WAL record is applied or replayed, from the statement's text and `now`: binding depends only
// on the table's columns, which never shrink.
import { INT64_MAX, resolveRange } from '../../../grammar/index.js';
import type { Delete } from '../../../grammar/index.js';
import type { Table } from '../../storage/table.js';
import type { ColumnType } from '../../types.js';
import { semanticError } from '../query-errors.js';
import { Binder } from './binder.js';
import { planCalendar } from './calendar-plan.js';
import { tableScope } from './column-scope.js';
import type { PlanExpr } from './plan-expr.js';
import type { CalendarPlan, TimeRange } from './plan-types.js';

export interface RemovalPlan {
  /** The ranges, merged (ascending, disjoint) and cut to the table's TTL cutoff. */
  readonly ranges: readonly TimeRange[];
  readonly calendar: CalendarPlan | null;
  /** The row condition; null: every row of the ranges (or DUPLICATE). */
  readonly where: PlanExpr | null;
  /** Batch columns the condition or DUPLICATE reads. */
  readonly columns: readonly number[];
  /** DUPLICATE's batch columns, or null. */
  readonly duplicate: readonly number[] | null;
  /** Types of the batch columns: [$timestamp, …schema]. */
  readonly columnTypes: readonly ColumnType[];
}

export function planRemoval(ast: Delete, table: Table, name: string, nowNs: bigint): RemovalPlan {
  const scope = tableScope(table, name);
  const calendar = planCalendar(ast.calendar);
  const floor = table.visibleFrom(nowNs);
  const ranges = mergeRanges(ast.ranges.map((r) => {
    const { start, end } = resolveRange(r, nowNs);
    // A range ending at end_of_time takes the row there too: the end is exclusive.
    return { from: start > floor ? start : floor, to: end === INT64_MAX ? INT64_MAX + 1n : end };
  }));
  let where: PlanExpr | null = null;
  let duplicate: number[] | null = null;
  let columns: number[] = [];
  if (ast.where?.kind === 'Duplicate') {
    const d = ast.where;
    duplicate = d.columns === null
      ? scope.columnTypes.map((_, i) => i)
      : d.columns.map((c) => (c.name === '$timestamp' ? 0 : scope.resolve(c.name, c.offset).index));
    if (d.columns !== null && !duplicate.includes(0)) throw semanticError('DUPLICATE compares rows of one time: its columns must include $timestamp', d.offset);
    duplicate = [...new Set(duplicate)];
    columns = duplicate;
  } else if (ast.where !== null) {
    const binder = new Binder(scope, nowNs, null);
    where = binder.condition(ast.where, false, 'WHERE');
    columns = [...binder.referenced];
  }
  return { ranges, calendar, where, columns, duplicate, columnTypes: scope.columnTypes };
}

/** `ranges` sorted and merged where they overlap or touch; empty ones dropped. */
function mergeRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const sorted = ranges.filter((r) => r.from < r.to).sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const out: TimeRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last !== undefined && r.from <= last.to) out[out.length - 1] = { from: last.from, to: r.to > last.to ? r.to : last.to };
    else out.push(r);
  }
  return out;
}
