// Plans a SELECT: resolves its sources and ranges once, then binds every clause against each
// source table (each table is its own group, SPEC §6, and columns are typed per table).
import { isBucketDuration, resolveRange } from '../../../grammar/index.js';
import type { DurationValue, Expr, Select, SelectColumn, Star } from '../../../grammar/index.js';
import { AGGREGATES, isAggregateName } from './aggregate-registry.js';
import type { QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';
import type { ResultType } from '../result.js';
import { AggregateCollector } from './aggregate-collector.js';
import { Binder } from './binder.js';
import type { GroupScope } from './binder.js';
import { conditionTerms, containsCallOf, expandAliases, isCountStar } from './ast-walk.js';
import { isSequenceName } from './functions.js';
import { SequenceCollector } from './sequence-collector.js';
import type { QueryLimits } from '../limits.js';
import { limitError } from '../limits.js';
import type { PlanExpr } from './plan-expr.js';
import type { AggregatePlan, CalendarPlan, FillPlan, JoinPlan, JoinSide, OrderKey, OutputColumn, SelectPlan, TablePlan, TimeRange } from './plan-types.js';
import { joinScope, tableScope } from './column-scope.js';
import { planCalendar } from './calendar-plan.js';
import { resolveSources } from './plan-sources.js';
import type { Source } from './plan-sources.js';
import { splitTimeBounds } from './time-bounds.js';

/** GROUP BY split into its duration and its columns (`$table` groups nothing more: SPEC §6). */
interface Grouping {
  readonly bucket: DurationValue | null;
  readonly columns: readonly { readonly name: string; readonly offset: number }[];
  readonly isAggregate: boolean;
  /** GROUP BY columns partition the rows of a plain query for its sequence functions. */
  readonly isPartition: boolean;
}

export function planSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, limits: QueryLimits): SelectPlan {
  checkConditionSize(ast, limits);
  const sources = resolveSources(ast.sources, catalog);
  const ranges = planRanges(ast, nowNs);
  const grouping = planGrouping(ast);
  const calendar = planCalendar(ast.calendar);
  const joined = ast.join === null ? null : resolveSources(ast.join.sources, catalog);
  const isMulti = sources.length > 1;
  return { tables: sources.map((s) => planTable(ast, s, joined, ranges, calendar, grouping, isMulti, nowNs)) };
}

/** The ranges of the IN clause resolved at `nowNs`; null: every row. */
function planRanges(ast: Select, nowNs: bigint): TimeRange[] | null {
  return ast.ranges.length === 0 ? null : ast.ranges.map((r) => {
    const { start, end } = resolveRange(r, nowNs);
    return { from: start, to: end };
  });
}

/**
 * The plan of `ast` made from `skeleton`, the plan of another text of the same shape over the
 * same single table (plan/plan-cache.ts), whose literals and clock reads all lie in the ranges,
 * the WHERE, LIMIT/OFFSET and the GROUP BY duration: those parts are planned again with `ast`'s
 * literals at `nowNs`; everything else (outputs, aggregates, types, sequences) is the
 * skeleton's. The checks planSelect makes on those parts are made again, so a literal that
 * fails them (a regex that does not compile, a bucket of 0s) fails as it would there.
 */
export function rebindPlan(skeleton: SelectPlan, ast: Select, nowNs: bigint, limits: QueryLimits): SelectPlan {
  checkConditionSize(ast, limits);
  const ranges = planRanges(ast, nowNs);
  const bucket = planBucket(ast);
  return {
    tables: skeleton.tables.map((t): TablePlan => {
      // Ids past every node of the skeleton: scratch buffers are keyed by node id.
      const binder = new Binder(tableScope(t.table, t.name), nowNs, null, null, REBOUND_IDS);
      const bound = ast.where === null ? null : binder.condition(ast.where, false, 'WHERE');
      const { bounds: timeBounds, rest: where } = splitTimeBounds(bound);
      const agg = t.aggregate;
      return {
        ...t, ranges, timeBounds, where, limit: ast.limit, offset: ast.rowOffset ?? 0,
        aggregate: agg === null || agg.bucket === bucket || (agg.bucket !== null && bucket !== null && isSameDuration(agg.bucket, bucket)) ? agg : { ...agg, bucket },
      };
    }),
  };
}

/** First node id of a WHERE bound again by rebindPlan (planSelect numbers a table's nodes from 0). */
const REBOUND_IDS = 1 << 29;

function isSameDuration(a: DurationValue, b: DurationValue): boolean {
  return a.months === b.months && a.nanos === b.nanos;
}

/**
 * Refuses a WHERE or HAVING over QueryLimits.maxConditionTerms: checked before anything is bound,
 * as a condition's plan takes memory in proportion to its terms.
 */
export function checkConditionSize(ast: Select, limits: QueryLimits): void {
  for (const [clause, condition] of [['WHERE', ast.where], ['HAVING', ast.having]] as const) {
    const terms = condition === null ? 0 : conditionTerms(condition);
    const max = limits.maxConditionTerms;
    if (terms > max) throw limitError(`the ${clause} condition has ${terms.toLocaleString('en-US')} terms`, 'maxConditionTerms', max);
  }
}

/** FILL: only after GROUP BY duration and without HAVING (a filled bucket has no aggregates to test). */
function planFill(ast: Select, outputs: readonly OutputColumn[]): FillPlan | null {
  const fill = ast.fill;
  if (fill === null) return null;
  if (!ast.groupBy.some((g) => g.kind === 'Duration')) throw semanticError('FILL needs GROUP BY duration: it fills the empty buckets', fill.offset);
  if (ast.having !== null) throw semanticError('FILL cannot be combined with HAVING', fill.offset);
  const v = fill.value;
  if (v !== null && !v.isInteger) {
    const whole = outputs.find((o) => o.expr.type === 'int64' && !isKeyOrBucket(o.expr));
    if (whole !== undefined) throw semanticError(`FILL(${v.text}) does not fit the whole-number column ${whole.name}`, v.offset);
  }
  return { mode: fill.mode, value: v === null ? null : v.value };
}

/** Outputs FILL does not fill: the bucket start and the GROUP BY keys come from the bucket and the series. */
function isKeyOrBucket(e: PlanExpr): boolean {
  return e.kind === 'bucket' || e.kind === 'groupKey';
}

/** The GROUP BY duration, checked, or null. */
function planBucket(ast: Select): DurationValue | null {
  let bucket: DurationValue | null = null;
  for (const item of ast.groupBy) {
    if (item.kind !== 'Duration') continue;
    if (bucket !== null) throw semanticError('GROUP BY takes at most one duration', item.offset);
    if (!isBucketDuration(item)) throw semanticError('a GROUP BY duration must be positive and cannot mix months or years with fixed units', item.offset);
    bucket = item;
  }
  return bucket;
}

function planGrouping(ast: Select): Grouping {
  const bucket = planBucket(ast);
  const columns: { name: string; offset: number }[] = [];
  for (const item of ast.groupBy) {
    if (item.kind !== 'Duration' && item.name !== '$table' && !columns.some((c) => c.name === item.name)) {
      columns.push({ name: item.name, offset: item.offset });
    }
  }
  const exprs: Expr[] = [...ast.columns.flatMap((c) => (c.kind === 'Star' ? [] : [c.expr])), ...ast.orderBy.map((o) => o.expr)];
  const hasAggregates = exprs.some((e) => containsCallOf(e, isAggregateName));
  const hasSequences = exprs.some((e) => containsCallOf(e, isSequenceName));
  // GROUP BY columns without aggregates: distinct keys, or with sequence functions, partitions.
  const isPartition = bucket === null && ast.having === null && !hasAggregates && hasSequences && ast.groupBy.length > 0;
  const isAggregate = !isPartition && (ast.groupBy.length > 0 || ast.having !== null || hasAggregates);
  return { bucket, columns, isAggregate, isPartition };
}

/** The ASOF JOIN of `source` with the joined tables: the sides and their column blocks. */
function planJoin(ast: Select, source: Source, joined: readonly Source[]): JoinPlan {
  const join = ast.join!;
  if (join.type === 'right' && joined.length !== 1) throw semanticError('RIGHT ASOF JOIN takes exactly one table to join', join.offset);
  const sides: JoinSide[] = [];
  let next = 1;
  for (const s of [source, ...joined]) {
    if (sides.some((o) => o.name === s.name)) throw semanticError(`table '${s.name}' cannot be joined with itself`, join.offset);
    sides.push({ table: s.table, name: s.name, firstColumn: next });
    next += 1 + s.table.columns.length;
  }
  return { type: join.type, sides };
}

function planTable(
  ast: Select, source: Source, joined: readonly Source[] | null, ranges: TimeRange[] | null, calendar: CalendarPlan | null,
  grouping: Grouping, isMulti: boolean, nowNs: bigint,
): TablePlan {
  const { table, name } = source;
  const join = joined === null ? null : planJoin(ast, source, joined);
  const columns = join === null ? tableScope(table, name) : joinScope(join.sides);
  const collector = new AggregateCollector();
  const keyColumns: number[] = [];
  const scope: GroupScope | null = grouping.isAggregate ? { hasBucket: grouping.bucket !== null, keyColumns, aggregates: collector } : null;
  const sequences = new SequenceCollector();
  const binder = new Binder(columns, nowNs, scope, sequences);
  const keys = grouping.columns.map((c) => binder.column(c.name, c.offset));
  for (const k of keys) keyColumns.push((k as PlanExpr & { kind: 'column' }).index);
  const boundWhere = ast.where === null ? null : binder.condition(ast.where, false, 'WHERE');
  // A join's rows in the range are what it scans (SPEC §7); counting them as a narrowed scan
  // would take a second merge, so its time terms stay conditions (IN RANGE still narrows it).
  const { bounds: timeBounds, rest: where } = join === null ? splitTimeBounds(boundWhere) : { bounds: null, rest: boundWhere };
  const outputs: OutputColumn[] = [];
  for (const item of ast.columns) outputs.push(...selectItem(item, binder, scope, isMulti, collector));
  const isColumn = (n: string) => n.startsWith('$') || columns.has(n);
  const having = ast.having === null ? null : binder.condition(expandAliases(ast.having, ast, isColumn), true, 'HAVING');
  const orderBy = ast.orderBy.map((item): OrderKey => {
    const output = orderOutput(item.expr, ast, outputs, binder, scope !== null, collector);
    return { output, isDescending: item.isDescending };
  });
  const aggregate: AggregatePlan | null = scope === null ? null : {
    bucket: grouping.bucket, keys, accumulators: collector.accumulators, calls: collector.calls, having,
    pointCall: pointCall(outputs, grouping, keys.length, collector), fill: planFill(ast, outputs),
  };
  return {
    table, name, columnTypes: columns.columnTypes, join, ranges, calendar, timeBounds, where,
    referencedColumns: binder.referenced.size, outputs, orderBy, limit: ast.limit, offset: ast.rowOffset ?? 0, aggregate,
    sequences: sequences.specs, partition: grouping.isPartition ? keys : [],
  };
}

function selectItem(item: SelectColumn | Star, binder: Binder, scope: GroupScope | null, isMulti: boolean, collector: AggregateCollector): OutputColumn[] {
  const { columns } = binder.scope;
  if (item.kind === 'Star') {
    if (scope !== null) throw semanticError('SELECT * cannot be combined with aggregates or GROUP BY', item.offset);
    binder.referenceAll();
    const star: OutputColumn[] = [output('$timestamp', binder.column('$timestamp', item.offset), collector)];
    if (isMulti) star.push(output('$table', binder.row({ kind: 'Column', offset: item.offset, name: '$table' }), collector));
    for (const c of columns) star.push(output(c.name, binder.column(c.name, item.offset), collector));
    return star;
  }
  if (scope !== null && isCountStar(item.expr) && columns.length > 0) {
    // count(*) expands to one count(col) per column (QuasarDB's behaviour, SPEC §6).
    binder.referenceAll();
    return columns.map((c) => {
      const call: Expr = { kind: 'Call', offset: item.offset, name: 'count', args: [{ kind: 'Column', offset: item.offset, name: c.name }] };
      const label = item.alias !== null && columns.length === 1 ? item.alias : `count(${c.name})`;
      return output(label, binder.grouped(call), collector);
    });
  }
  return [output(item.name, scope === null ? binder.row(item.expr) : binder.grouped(item.expr), collector)];
}

function output(name: string, expr: PlanExpr, collector: AggregateCollector, isHidden = false): OutputColumn {
  return { name, expr, type: resultType(expr, collector), isHidden };
}

function resultType(e: PlanExpr, collector: AggregateCollector): ResultType {
  switch (e.type) {
    case 'bool': throw semanticError('a condition cannot be selected', e.offset);
    case 'null': return 'none';
    case 'int64': return e.kind === 'aggregate' && collector.calls[e.slot].isCount ? 'count' : 'int64';
    default: return e.type;
  }
}

/** ORDER BY item → output index: a position (`ORDER BY 2`), an AS name, or a hidden output. */
function orderOutput(e: Expr, ast: Select, outputs: OutputColumn[], binder: Binder, isGroup: boolean, collector: AggregateCollector): number {
  const visible = outputs.filter((o) => !o.isHidden).length;
  if (e.kind === 'Number' && e.isInteger) {
    const n = Number(e.value);
    if (n < 1 || n > visible) throw semanticError(`ORDER BY position ${e.text} is not between 1 and ${visible}`, e.offset);
    return n - 1;
  }
  if (e.kind === 'Column') {
    const named = ast.columns.findIndex((c) => c.kind === 'SelectColumn' && c.alias === e.name);
    if (named >= 0) return outputs.findIndex((o) => o.name === e.name && !o.isHidden);
  }
  const expr = isGroup ? binder.grouped(e) : binder.row(e);
  if (expr.type === 'bool') throw semanticError('ORDER BY needs a value, not a condition', e.offset);
  outputs.push(output(`order ${outputs.length}`, expr, collector, true));
  return outputs.length - 1;
}

/** The call whose picked row gives the row time: a lone first/last/min/max/abs_* without grouping. */
function pointCall(outputs: readonly OutputColumn[], grouping: Grouping, keyCount: number, collector: AggregateCollector): number | null {
  const visible = outputs.filter((o) => !o.isHidden);
  if (grouping.bucket !== null || keyCount > 0 || visible.length !== 1) return null;
  const e = visible[0].expr;
  if (e.kind !== 'aggregate') return null;
  return AGGREGATES[collector.calls[e.slot].name].selectsPoint ? e.slot : null;
}
