// SELECT: plan against the catalog, take the snapshot, then run each table plan with the row or
// aggregate operator. The snapshot is every table's batch list for every range, taken before the
// first pause: sealed batches never change, but the lists do (inserts add batches, late rows
// replace some), so a query that yields to the event loop keeps reading the data as it was when
// it started — concurrent inserts neither break it nor leak into it.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { runAggregate } from '../exec/aggregate-operator.js';
import type { RunContext } from '../exec/run-context.js';
import { runRows } from '../exec/row-operator.js';
import { scanSlices } from '../exec/scan-slices.js';
import { planSelect } from '../plan/plan-select.js';
import type { QueryResult, ResultTable } from '../result.js';

export async function runSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, ctx: RunContext): Promise<QueryResult> {
  const plan = planSelect(ast, catalog, nowNs, ctx.limits);
  const snapshot = plan.tables.map((t) => (t.ranges ?? [null]).map((range) => scanSlices(t.table, range)));
  const tables: ResultTable[] = [];
  for (let i = 0; i < plan.tables.length; i++) {
    const t = plan.tables[i];
    const table = t.aggregate === null ? await runRows(t, ctx, snapshot[i]) : await runAggregate(t, t.aggregate, ctx, snapshot[i]);
    if (table !== null) tables.push(table);
  }
  return { kind: 'rows', tables, scannedRowsCount: ctx.scannedRowsCount };
}
