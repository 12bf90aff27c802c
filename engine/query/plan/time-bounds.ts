// `WHERE $timestamp >= t1 AND $timestamp < t2` — how QuestDB, InfluxDB and SQL users say "a time
// range" — read as a range: the WHERE's top-level terms that compare `$timestamp` with a time
// constant become bounds the scan narrows to (Table.scan prunes shards and batches, edge batches
// are cut by binary search), and leave the condition. Exact, not a pre-filter: a row is inside the
// bounds if and only if it passes those terms, so the rest of the WHERE (often nothing) is all
// that is still evaluated, and batches wholly inside answer from their statistics as under
// IN RANGE. SPEC §7's scanned_rows_count still counts the rows of the query's ranges
// (statements/run-select.ts), whatever the narrowing skipped.
import { INT64_MAX, INT64_MIN } from '../../../grammar/index.js';
import type { CompareOp, PlanExpr } from './plan-expr.js';
import type { TimeRange } from './plan-types.js';

export interface SplitCondition {
  /** Rows outside [from, to) fail the condition; null when it bounds no time. */
  readonly bounds: TimeRange | null;
  /** The condition less the terms the bounds stand for (null: nothing left to test). */
  readonly rest: PlanExpr | null;
}

/** The time bounds of a bound WHERE, and what of it remains to evaluate per row. */
export function splitTimeBounds(where: PlanExpr | null): SplitCondition {
  if (where === null) return { bounds: null, rest: null };
  const terms = where.kind === 'and' ? where.operands : [where];
  // Inclusive [min, max], so `<= end_of_time` needs no bound past int64 (`to` is max + 1 at the end).
  let min = INT64_MIN;
  let max = INT64_MAX;
  const rest: PlanExpr[] = [];
  for (const term of terms) {
    const b = timeBound(term);
    if (b === null) { rest.push(term); continue; }
    if (b.min > min) min = b.min;
    if (b.max < max) max = b.max;
  }
  if (rest.length === terms.length) return { bounds: null, rest: where };
  const bounds: TimeRange = { from: min, to: max + 1n };
  if (rest.length === 0) return { bounds, rest: null };
  if (rest.length === 1) return { bounds, rest: rest[0] };
  return { bounds, rest: { ...(where as PlanExpr & { kind: 'and' }), operands: rest } };
}

/** [from, to) ∩ bounds; `range` null is every row. */
export function narrowRange(range: TimeRange | null, bounds: TimeRange): TimeRange {
  if (range === null) return bounds;
  const from = range.from > bounds.from ? range.from : bounds.from;
  const to = range.to < bounds.to ? range.to : bounds.to;
  return { from, to: to > from ? to : from };
}

const FLIPPED: Readonly<Record<CompareOp, CompareOp>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The inclusive time span a `$timestamp <op> <time constant>` term keeps, or null for any other term. */
function timeBound(term: PlanExpr): { min: bigint; max: bigint } | null {
  if (term.kind !== 'compare') return null;
  let op = term.op;
  let constant = term.right;
  if (!isRowTime(term.left)) {
    if (!isRowTime(term.right)) return null;
    op = FLIPPED[op];
    constant = term.left;
  }
  if (constant.kind !== 'const' || constant.type !== 'timestamp' || typeof constant.value !== 'bigint') return null;
  const t = constant.value;
  switch (op) {
    case '=': return { min: t, max: t };
    case '<': return { min: INT64_MIN, max: t - 1n };
    case '<=': return { min: INT64_MIN, max: t };
    case '>': return { min: t + 1n, max: INT64_MAX };
    case '>=': return { min: t, max: INT64_MAX };
    default: return null;
  }
}

function isRowTime(e: PlanExpr): boolean {
  return e.kind === 'column' && e.index === 0;
}
