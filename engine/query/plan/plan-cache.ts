// Plans of recently run SELECTs: a dashboard polls the same few queries, and for a small one (an
// aggregate over a day, a LIMIT 1000) binding and planning cost as much as running it. Two levels:
// - the plan of a statement (the same text: ast-cache.ts gives the same Select object) is reused
//   as it is, unless it reads the clock (`now`, `today`, … resolve to a new instant each run);
// - the plan of a query *shape* (grammar/parse-shape.ts: texts differing only in literals, as a
//   dashboard's refresh moves its time range) is a skeleton: when the shape's literals and clock
//   reads all lie in the ranges, the WHERE, LIMIT/OFFSET and the GROUP BY duration, a new text of
//   it gets the skeleton with those parts planned again (plan-select.ts rebindPlan), so a fresh
//   time range costs about what the same text repeated costs. Other shapes are planned afresh.
// Either way a plan is reused only for one named table (FIND matches change with tags), kept per
// table object (a table dropped and created again is a new object with its own schema; two
// databases in one process never share a plan) and per schema width (a column added since would
// be missing from `SELECT *`); the condition size is checked against each run's own limits.
// Every level is a WeakMap, so the cache holds nothing alive: a plan goes when its statement or
// shape leaves its cache, or when its table is dropped — a dropped table's batches are not kept
// for a plan's sake. Plans are immutable and hold no per-run state (scratch lives in the
// RunContext), so runs that overlap in time can share one.
import { literalShapeOf } from '../../../grammar/index.js';
import type { LiteralShape, Select } from '../../../grammar/index.js';
import { isKeptTree } from '../ast-cache.js';
import type { QueryCatalog } from '../catalog.js';
import type { QueryLimits } from '../limits.js';
import type { Table } from '../../storage/table.js';
import { readsClock } from './ast-walk.js';
import { checkConditionSize, planSelect, rebindPlan } from './plan-select.js';
import type { SelectPlan } from './plan-types.js';

interface Kept {
  readonly plan: SelectPlan;
  /** The table's column count when it was planned. */
  readonly width: number;
}

const plans = new WeakMap<Table, WeakMap<Select, Kept>>();
/** Skeletons by table and shape; null: the shape's literals lie where rebindPlan does not go. */
const skeletons = new WeakMap<Table, WeakMap<LiteralShape, Kept | null>>();
/** Whether a statement (or every text of a shape) reads the clock, its plan then made each run: asked once. */
const isPlannedEachRun = new WeakMap<object, boolean>();

/** The clauses rebindPlan plans again; a shape with literals elsewhere is planned afresh. */
const REBOUND: ReadonlySet<string> = new Set(['ranges', 'where', 'limit', 'rowOffset', 'groupBy']);

/** `planSelect`, reusing the plan of the same statement, or the skeleton of its shape, on the same table. */
export function planSelectCached(ast: Select, catalog: QueryCatalog, nowNs: bigint, limits: QueryLimits): SelectPlan {
  // A join's plan depends on the joined tables too: planned each run.
  const source = ast.sources.length === 1 && ast.join === null ? ast.sources[0] : null;
  const table = source?.kind === 'TableRef' ? catalog.table(source.name) : undefined;
  if (table === undefined) return planSelect(ast, catalog, nowNs, limits);
  const width = table.columns.length;
  const hit = plans.get(table)?.get(ast);
  if (hit !== undefined && hit.width === width) {
    checkConditionSize(ast, limits);
    return hit.plan;
  }
  const shape = literalShapeOf(ast);
  // Whether a text reads the clock is a matter of its shape (`now` is a keyword, not a literal).
  const clockKey: object = shape ?? ast;
  let isEachRun = isPlannedEachRun.get(clockKey);
  if (isEachRun === undefined) isPlannedEachRun.set(clockKey, (isEachRun = readsClock(ast)));
  const skeleton = shape === null ? undefined : skeletons.get(table)?.get(shape);
  let plan: SelectPlan;
  if (skeleton !== undefined && skeleton !== null && skeleton.width === width) {
    plan = rebindPlan(skeleton.plan, ast, nowNs, limits);
  } else {
    plan = planSelect(ast, catalog, nowNs, limits);
    if (shape !== null) keep(skeletons, table, shape, isRebindable(ast, shape) ? { plan, width } : null);
  }
  // Kept for a text the parse cache keeps: a tree of a text seen once (a moving range) never comes back.
  if (!isEachRun && isKeptTree(ast)) keep(plans, table, ast, { plan, width });
  return plan;
}

/** Whether the plans of `shape` differ only where rebindPlan plans again (literals and the clock). */
function isRebindable(ast: Select, shape: LiteralShape): boolean {
  for (const clause of shape.clauses) if (!REBOUND.has(clause)) return false;
  return !readsClock({ ...ast, ranges: [], where: null });
}

function keep<K extends object, V>(cache: WeakMap<Table, WeakMap<K, V>>, table: Table, key: K, value: V): void {
  const byKey = cache.get(table);
  if (byKey === undefined) cache.set(table, new WeakMap([[key, value]]));
  else byKey.set(key, value);
}
