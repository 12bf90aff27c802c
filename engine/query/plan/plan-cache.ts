// Plans of recently run SELECTs, by statement: a dashboard polls the same few queries, and for a
// small one (an aggregate over a day, a LIMIT 1000) binding and planning cost as much as running
// it. A plan is reused only while it is exactly what planning again would give:
// - the statement reads no clock (`now`, `today`, … resolve to a new instant each run);
// - its sources are named tables (FIND matches change with tags) that still resolve to the same
//   table objects (a table dropped and created again is a new object, with a new schema);
// - the condition size is checked against each run's own limits.
// Plans are immutable and hold no per-run state (scratch lives in the RunContext), so runs that
// overlap in time can share one. Statements come from the AST cache (ast-cache.ts), so the same
// text gives the same Select object and the WeakMap lets a plan go with its statement.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import type { QueryLimits } from '../limits.js';
import type { Table } from '../../storage/table.js';
import { readsClock } from './ast-walk.js';
import { checkConditionSize, planSelect } from './plan-select.js';
import type { SelectPlan } from './plan-types.js';

interface CachedPlan {
  readonly plan: SelectPlan;
  /** The table each named source resolved to, in the statement's order. */
  readonly tables: readonly Table[];
}

const plans = new WeakMap<Select, CachedPlan>();
/** Statements seen to read the clock or name a FIND: planned every time. */
const notCached = new WeakSet<Select>();

/** `planSelect`, reusing the plan of the same statement when it is still valid. */
export function planSelectCached(ast: Select, catalog: QueryCatalog, nowNs: bigint, limits: QueryLimits): SelectPlan {
  const hit = plans.get(ast);
  if (hit !== undefined && isCurrent(ast, hit.tables, catalog)) {
    checkConditionSize(ast, limits);
    return hit.plan;
  }
  const plan = planSelect(ast, catalog, nowNs, limits);
  if (notCached.has(ast)) return plan;
  if (ast.sources.some((s) => s.kind !== 'TableRef') || readsClock(ast)) {
    notCached.add(ast);
    return plan;
  }
  plans.set(ast, { plan, tables: ast.sources.map((s) => catalog.table((s as { name: string }).name)!) });
  return plan;
}

function isCurrent(ast: Select, tables: readonly Table[], catalog: QueryCatalog): boolean {
  for (let i = 0; i < tables.length; i++) {
    if (catalog.table((ast.sources[i] as { name: string }).name) !== tables[i]) return false;
  }
  return true;
}
