// SELECT: plan against the catalog, then run each table plan with the row or aggregate operator.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { runAggregate } from '../exec/aggregate-operator.js';
import { RunContext } from '../exec/run-context.js';
import { runRows } from '../exec/row-operator.js';
import { planSelect } from '../plan/plan-select.js';
import type { QueryResult, ResultTable } from '../result.js';
import type { Deadline } from '../deadline.js';

export function runSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, deadline: Deadline): QueryResult {
  const plan = planSelect(ast, catalog, nowNs);
  const ctx = new RunContext(deadline);
  const tables: ResultTable[] = [];
  for (const t of plan.tables) {
    const table = t.aggregate === null ? runRows(t, ctx) : runAggregate(t, t.aggregate, ctx);
    if (table !== null) tables.push(table);
  }
  return { kind: 'rows', tables, scannedRowsCount: ctx.scannedRowsCount };
}
