// Plain SELECT (no aggregate): for each range and batch slice, filter with WHERE into a
// selection vector, evaluate the select list over the surviving rows and append them to the
// output columns. Without ORDER BY, a LIMIT stops the scan once enough rows are kept (the scanned
// count still covers the whole range: it is logical, SPEC §7).
import type { TablePlan } from '../plan/plan-types.js';
import type { ResultTable } from '../result.js';
import { ColumnBuilder } from './column-builder.js';
import { evalCondition } from './eval-condition.js';
import { evalValue } from './eval-value.js';
import { finishTable } from './finish-table.js';
import { BatchFrame } from './frame.js';
import type { RunContext } from './run-context.js';
import { scanSlices } from './scan-slices.js';
import type { Rows } from './vec.js';

export function runRows(plan: TablePlan, ctx: RunContext): ResultTable | null {
  const times = new ColumnBuilder('timestamp');
  const columns = plan.outputs.map((o) => new ColumnBuilder(o.expr.type));
  const wanted = plan.orderBy.length === 0 && plan.limit !== null ? plan.offset + plan.limit : Infinity;
  const scans = (plan.ranges ?? [null]).map((range) => scanSlices(plan.table, range));
  // Without WHERE the row count is known before reading a value: size the columns once.
  if (plan.where === null) {
    const rows = scans.reduce((n, slices) => slices.reduce((m, s) => m + s.hi - s.lo, n), 0);
    ColumnBuilder.preallocate([times, ...columns], Math.min(rows, wanted));
  }
  for (const slices of scans) {
    for (const slice of slices) {
      ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
      if (times.length >= wanted) continue;
      ctx.deadline.check();
      const frame = new BatchFrame(slice.view, plan.columnTypes, ctx.scratch);
      let rows: Rows = { sel: null, lo: slice.lo, hi: slice.hi };
      if (plan.where !== null) rows = evalCondition(plan.where, frame, rows);
      const room = wanted - times.length;
      if (rows.hi - rows.lo > room) rows = { ...rows, hi: rows.lo + room };
      if (rows.hi <= rows.lo) continue;
      times.append(frame.column(0), rows);
      plan.outputs.forEach((o, i) => columns[i].append(evalValue(o.expr, frame, rows), rows));
    }
  }
  return finishTable(plan, times, columns);
}
