// Plain SELECT (no aggregate): for each range and batch slice, filter with WHERE into a
// selection vector, evaluate the select list over the surviving rows and append them to the
// output columns. Without ORDER BY, a LIMIT stops the scan once enough rows are kept (the scanned
// count still covers the whole range: it is logical, SPEC §7). Rows and bytes are charged to the
// result budget before they are copied; between batches the run may pause (run-context.ts).
import type { TablePlan } from '../../plan/plan-types.js';
import type { ResultTable } from '../../result.js';
import { ColumnBuilder } from '../output/column-builder.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { evalValue } from '../kernels/eval-value.js';
import { finishTable } from '../output/finish-table.js';
import { BatchFrame } from '../scan/frame.js';
import { columnsRead, SliceReader } from '../scan/slice-reader.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import { rowsIn } from '../scan/scan-slices.js';
import type { Rows } from '../../vector/vec.js';

/** `scans`: the snapshot's slices of each range of the plan (statements/run-select.ts). */
export async function runRows(plan: TablePlan, ctx: RunContext, scans: readonly (readonly Slice[])[]): Promise<ResultTable | null> {
  const times = new ColumnBuilder('timestamp');
  const columns = plan.outputs.map((o) => new ColumnBuilder(o.expr.type));
  const wanted = plan.orderBy.length === 0 && plan.limit !== null ? plan.offset + plan.limit : Infinity;
  // Without WHERE the row count is known before reading a value: size the columns once.
  if (plan.where === null) {
    const rows = scans.reduce((n, slices) => n + rowsIn(slices), 0);
    ctx.budget.rows(0, Math.min(rows, wanted));
    ColumnBuilder.preallocate([times, ...columns], Math.min(rows, wanted));
  }
  const read = columnsRead([plan.where, ...plan.outputs.map((o) => o.expr)], true);
  for (const slices of scans) {
    const reader = new SliceReader(slices, read, plan.columnTypes, ctx.scratch, () => times.length < wanted);
    try {
      for (let k = 0; k < slices.length; k++) {
        const slice = slices[k];
        ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
        if (times.length >= wanted) continue;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        const loaded = reader.frame(k);
        const frame = loaded instanceof BatchFrame ? loaded : await loaded;
        let rows: Rows = { sel: null, lo: slice.lo, hi: slice.hi };
        if (plan.where !== null) rows = evalCondition(plan.where, frame, rows, ctx.deadline);
        const room = wanted - times.length;
        if (rows.hi - rows.lo > room) rows = { ...rows, hi: rows.lo + room };
        if (rows.hi <= rows.lo) continue;
        const vecs = plan.outputs.map((o) => evalValue(o.expr, frame, rows));
        ctx.budget.rows(times.length, rows.hi - rows.lo);
        ctx.budget.values(vecs, rows);
        times.append(frame.column(0), rows);
        vecs.forEach((v, i) => columns[i].append(v, rows));
      }
    } finally {
      reader.close();
    }
  }
  return finishTable(plan, times, columns);
}
