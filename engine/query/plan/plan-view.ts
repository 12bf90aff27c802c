// The SELECT of a materialized view (SPEC §15) and the table its rows fill. A view keeps, for every
// bucket, what `SELECT aggs FROM t [WHERE …] GROUP BY duration [, cols]` answers over its source,
// so the SELECT must be one that answers the same whenever it runs and whatever range it is asked
// for: one table, GROUP BY a duration first, aggregate calls (and the GROUP BY columns) as items,
// no clock (`now`), no IN, HAVING, FILL, ORDER BY or LIMIT — those belong to the queries that read
// the view. `count(*)` is refused: it counts every column of the source, so the view's columns
// would change when the source grows one. The view's table has the bucket start as `$timestamp`,
// then the GROUP BY columns, then one column per aggregate, named as the SELECT names them.
import type { ColumnRef, Select, SelectColumn, TableRef } from '../../../grammar/index.js';
import { NS_PER_DAY, parse } from '../../../grammar/index.js';
import { SvcError } from '../../errors.js';
import type { Table } from '../../storage/table.js';
import type { ColumnDef, ColumnType } from '../../types.js';
import { tablesOnlyCatalog } from '../catalog.js';
import { DEFAULT_QUERY_LIMITS } from '../limits.js';
import type { QueryLimits } from '../limits.js';
import { semanticError, toSyntaxError } from '../query-errors.js';
import type { ResultType } from '../result.js';
import { isAggregateName } from './aggregate-registry.js';
import { isCountStar, readsClock } from './ast-walk.js';
import { planSelect } from './plan-select.js';
import type { TablePlan } from './plan-types.js';

export interface ViewShape {
  /** The source table's name. */
  readonly source: string;
  /** The view table's columns: the GROUP BY columns, then one per aggregate. */
  readonly columns: readonly ColumnDef[];
  /** The view table's shard size (see shardSizeOf). */
  readonly shardSize: bigint;
  /** The SELECT its refresher runs: the GROUP BY columns as the first items, then the aggregates. */
  readonly compute: Select;
  /** `compute` planned against the source as it is now (no range: the refresher gives its own). */
  readonly plan: TablePlan;
}

/** The limits of a view's refresh: a view's groups are not bounded by those of one query (a refresh reads a few buckets of them). */
export const VIEW_LIMITS: QueryLimits = { ...DEFAULT_QUERY_LIMITS, maxGroups: Infinity, maxResultRows: Infinity, maxResultBytes: Infinity };


/**
 * The shape of the view `ast` defines over the table `tableOf` finds, or the QuerySemantic error
 * (at its offset) saying why it cannot define one.
 * @example
 * viewShape(parse('SELECT avg(v) FROM t GROUP BY 1h, host') as Select, (n) => db.table(n)).columns;
 * // [{ name: 'host', type: 'SYMBOL' }, { name: 'avg(v)', type: 'DOUBLE' }]
 */
export function viewShape(ast: Select, tableOf: (name: string) => Table | undefined): ViewShape {
  const [from] = ast.sources;
  if (ast.sources.length !== 1 || from.kind !== 'TableRef' || ast.join !== null) {
    throw semanticError('a materialized view reads one table: FROM <table>, without FIND or ASOF JOIN', from.offset);
  }
  const source = tableOf(from.name);
  if (source === undefined) throw semanticError(`no table named '${from.name}'`, from.offset);
  if (ast.ranges.length > 0 || ast.calendar.length > 0) {
    throw semanticError('a materialized view keeps every row of its table: leave IN out (read the view with IN RANGE)', (ast.ranges[0] ?? ast.calendar[0]).offset);
  }
  const extra = ast.having ?? ast.fill ?? ast.orderBy[0] ?? null;
  if (extra !== null || ast.limit !== null || ast.rowOffset !== null) {
    throw semanticError('a materialized view keeps its groups whole: HAVING, FILL, ORDER BY, LIMIT and OFFSET belong to the queries that read it', extra?.offset ?? ast.offset);
  }
  if (readsClock(ast)) throw semanticError('a materialized view cannot depend on when it is computed: now, today, yesterday and tomorrow are not allowed in it', ast.offset);
  const [bucket, ...rest] = ast.groupBy;
  if (bucket?.kind !== 'Duration') throw semanticError('a materialized view needs GROUP BY a duration first (GROUP BY 1h, host)', bucket?.offset ?? ast.offset);
  const keys: ColumnRef[] = [];
  for (const item of rest) {
    if (item.kind !== 'Column' || item.name.startsWith('$')) throw semanticError('after its duration, a view groups by columns of its table only', item.offset);
    if (keys.some((k) => k.name === item.name)) throw semanticError(`column '${item.name}' is grouped by twice`, item.offset);
    keys.push(item);
  }
  const aggregates: SelectColumn[] = [];
  for (const item of ast.columns) {
    if (item.kind === 'Star') throw semanticError('a materialized view selects aggregates, not *', item.offset);
    const e = item.expr;
    // A GROUP BY column selected as it is: the view has it anyway.
    if (e.kind === 'Column' && item.alias === null && keys.some((k) => k.name === e.name)) continue;
    if (isCountStar(e)) throw semanticError('count(*) counts every column of the table, so a view over it would change with its schema: count a column, or count($timestamp) for rows', item.offset);
    if (e.kind !== 'Call' || !isAggregateName(e.name)) {
      throw semanticError(`a view's items are aggregate calls and its GROUP BY columns: compute '${item.text}' when reading the view`, item.offset);
    }
    aggregates.push(item);
  }
  if (aggregates.length === 0) throw semanticError('a materialized view needs at least one aggregate', ast.offset);
  const names = new Set(keys.map((k) => k.name));
  for (const item of aggregates) {
    if (item.name.startsWith('$')) throw semanticError(`column name '${item.name}' is reserved`, item.offset);
    if (names.has(item.name)) throw semanticError(`the view would have two columns named '${item.name}': name one with AS`, item.offset);
    names.add(item.name);
  }
  const compute: Select = { ...ast, columns: [...keys.map(keyItem), ...aggregates] };
  const plan = planView(compute, source);
  const columns = plan.outputs.map((o, i): ColumnDef => ({ name: o.name, type: columnType(o.type, compute.columns[i].offset) }));
  return { source: from.name, columns, shardSize: shardSizeOf(bucket.months, bucket.nanos), compute, plan };
}

/**
 * The shape of the view a SELECT text defines over `source` (validation of a createView write,
 * whose statement the query layer checked first with its offsets).
 */
export function viewShapeOfText(select: string, source: Table): ViewShape {
  let ast;
  try {
    ast = parse(select);
  } catch (e) {
    throw toSyntaxError(e);
  }
  if (ast.kind !== 'Select') throw new SvcError('InvalidArgument', 'a materialized view is defined by a SELECT');
  return viewShape(ast, (name) => (name === source.name ? source : undefined));
}

/** `select` (a view's SELECT, or one derived from it) planned against its one source table. */
export function planView(select: Select, source: Table): TablePlan {
  const from = select.sources[0] as TableRef;
  return planSelect(select, tablesOnlyCatalog(new Map([[from.name, source]]), 'a view plan'), 0n, VIEW_LIMITS).tables[0];
}

/**
 * A view's shard size: about a thousand buckets, at least a day and at most a year (its rows are
 * few: one per bucket and group; its TTL drops whole shards).
 */
function shardSizeOf(months: number, nanos: bigint): bigint {
  const bucket = months > 0 ? BigInt(months) * 31n * NS_PER_DAY : nanos;
  const size = bucket * 1024n;
  return size < NS_PER_DAY ? NS_PER_DAY : size > 364n * NS_PER_DAY ? 364n * NS_PER_DAY : size;
}

function keyItem(k: ColumnRef): SelectColumn {
  return { kind: 'SelectColumn', offset: k.offset, expr: k, alias: null, text: k.name, name: k.name };
}

const COLUMN_TYPES: Readonly<Record<Exclude<ResultType, 'none'>, ColumnType>> = {
  double: 'DOUBLE', int64: 'INT64', count: 'INT64', timestamp: 'TIMESTAMP', string: 'STRING', symbol: 'SYMBOL', blob: 'BLOB', boolean: 'BOOLEAN',
};

function columnType(type: ResultType, offset: number): ColumnType {
  if (type === 'none') throw semanticError('a view column needs a type: this item is always null', offset);
  return COLUMN_TYPES[type];
}

