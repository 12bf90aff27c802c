// Plans of recently run SELECTs: a dashboard polls the same few queries, and for a small one (an
// aggregate over a day, a LIMIT 1000) binding and planning cost as much as running it. A plan is
// reused only where planning again would give exactly the same plan:
// - the statement reads no clock (`now`, `today`, … resolve to a new instant each run);
// - it reads one named table (FIND matches change with tags), and plans are kept per table
//   object: a table dropped and created again is a new object with its own schema, and two
//   databases in one process never share a plan;
// - the condition size is checked against each run's own limits.
// Both levels are WeakMaps, so the cache holds nothing alive: a plan goes when its statement
// leaves the AST cache (ast-cache.ts, which gives the same Select object for the same text) or
// when its table is dropped — a dropped table's batches are not kept for a plan's sake.
// Plans are immutable and hold no per-run state (scratch lives in the RunContext), so runs that
// overlap in time can share one.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import type { QueryLimits } from '../limits.js';
import type { Table } from '../../storage/table.js';
import { readsClock } from './ast-walk.js';
import { checkConditionSize, planSelect } from './plan-select.js';
import type { SelectPlan } from './plan-types.js';

const plans = new WeakMap<Table, WeakMap<Select, SelectPlan>>();
/** Whether a statement reads the clock (its plan is then made each run): asked once. */
const isPlannedEachRun = new WeakMap<Select, boolean>();

/** `planSelect`, reusing the plan of the same statement on the same table. */
export function planSelectCached(ast: Select, catalog: QueryCatalog, nowNs: bigint, limits: QueryLimits): SelectPlan {
  // A join's plan depends on the joined tables too: planned each run.
  const source = ast.sources.length === 1 && ast.join === null ? ast.sources[0] : null;
  const table = source?.kind === 'TableRef' ? catalog.table(source.name) : undefined;
  if (table === undefined) return planSelect(ast, catalog, nowNs, limits);
  const byStatement = plans.get(table);
  const hit = byStatement?.get(ast);
  if (hit !== undefined) {
    checkConditionSize(ast, limits);
    return hit;
  }
  const plan = planSelect(ast, catalog, nowNs, limits);
  let isEachRun = isPlannedEachRun.get(ast);
  if (isEachRun === undefined) isPlannedEachRun.set(ast, (isEachRun = readsClock(ast)));
  if (isEachRun) return plan;
  if (byStatement === undefined) plans.set(table, new WeakMap([[ast, plan]]));
  else byStatement.set(ast, plan);
  return plan;
}
