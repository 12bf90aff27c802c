// A SELECT on a node that does not hold every table's rows (a cluster whose nodes serve only some
// table groups: catalog.placement, engine/cluster/). Each result table of a SELECT is computed
// from its own source table alone (an ASOF JOIN: from the tables it joins), so each is one part:
// the parts whose tables this node holds run here, the others on nodes that hold them (one
// request per node, all at once), and the results are put together in the order a single node
// gives them, with their scanned rows summed. A table's rows are never split between nodes — a
// table lives whole in one group, and a node serving a group applies its whole stream — so a
// part's result is final: nothing inside a result table is merged.
//
// Planning runs here first, on the schemas every node holds, so a query a single node refuses is
// refused the same way; every part runs with this node's `now`, limits and remaining time. The
// node running parts is asked through executePart, which runs only the parts it names.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog, SelectPart } from '../catalog.js';
import type { RunContext } from '../exec/run/run-context.js';
import { checkResultBytes } from '../exec/run/result-budget.js';
import { planSelectCached } from '../plan/plan-cache.js';
import type { TablePlan } from '../plan/plan-types.js';
import type { QueryResult, ResultTable } from '../result.js';
import { runPlan } from './run-select.js';

/**
 * Runs `ast` (the SELECT `text`): the parts named in `only` alone, when another node asked for
 * them; else every part, each where its rows are.
 */
export async function runPlacedSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, ctx: RunContext, text: string, only: ReadonlySet<string> | null): Promise<QueryResult> {
  const plan = planSelectCached(ast, catalog, nowNs, ctx.limits);
  if (only !== null) return runPlan({ tables: plan.tables.filter((t) => only.has(t.name)) }, nowNs, ctx);
  const placement = catalog.placement;
  const parts = plan.tables.map(partOf);
  const isHere = parts.map((p) => placement === undefined || placement.holds(p.tables));
  if (placement === undefined || isHere.every((x) => x)) return runPlan(plan, nowNs, ctx);
  const away = parts.filter((_, i) => !isHere[i]);
  let isFailed = false;
  const remote = placement.run(away, { text, nowNs, deadlineMs: ctx.deadline.remainingMs, yieldAfterMs: ctx.sliceMs, limits: ctx.limits }, () => isFailed || ctx.isCancelled);
  remote.catch(() => undefined); // awaited below, after the local part: not an unhandled rejection meanwhile
  let local: QueryResult;
  try {
    local = await runPlan({ tables: plan.tables.filter((_, i) => isHere[i]) }, nowNs, ctx);
  } catch (e) {
    isFailed = true; // the other nodes' parts are cancelled
    await remote.catch(() => undefined);
    throw e;
  }
  const results = [local, ...await remote];
  const byName = new Map<string, ResultTable>();
  let scannedRowsCount = 0;
  for (const r of results) {
    scannedRowsCount += r.scannedRowsCount;
    for (const t of r.tables) byName.set(t.name, t);
  }
  // In the order of the plan; a part without rows gives no table, as on a single node.
  const tables = parts.flatMap((p) => byName.get(p.name) ?? []);
  checkResultBytes(tables, ctx.limits);
  return { kind: 'rows', tables, scannedRowsCount };
}

/** A table plan's part: its result table's name and the tables it reads. */
function partOf(t: TablePlan): SelectPart {
  return { name: t.name, tables: t.join === null ? [t.table.name] : t.join.sides.map((s) => s.table.name) };
}
