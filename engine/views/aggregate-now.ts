// A view's SELECT over some of its source's batches, computed at once: for the apply of a record
// that cannot wait (a source's shards leaving, whose pending buckets must be computed from their
// rows before they go). The aggregate operator's own run (exec/operators/aggregate-run.ts), fed
// batch by batch but without pauses, statistics shortcuts or read-ahead: columns evicted from
// memory are read back synchronously.
import type { SealedBatch } from '../storage/sealed-batch.js';
import { Deadline } from '../query/deadline.js';
import { finishGroups } from '../query/exec/output/group-output.js';
import { AggregateRun } from '../query/exec/operators/aggregate-run.js';
import { RunContext } from '../query/exec/run/run-context.js';
import { BatchFrame } from '../query/exec/scan/frame.js';
import { columnsRead } from '../query/exec/scan/slice-reader.js';
import { lowerBound, tsHalves } from '../query/exec/scan/ts-search.js';
import type { TablePlan, TimeRange } from '../query/plan/plan-types.js';
import type { ResultTable } from '../query/result.js';
import type { Rows } from '../query/vector/vec.js';
import { VIEW_LIMITS } from '../query/plan/plan-view.js';

/**
 * The result of `plan` (a view's SELECT, aggregate) over the rows of `batches` inside `range`;
 * `isOrdered`: the batches are in time order (Table.scan), else as stored (Table.scanUnordered).
 */
export function aggregateNow(plan: TablePlan, batches: readonly SealedBatch[], range: TimeRange, isOrdered: boolean): ResultTable | null {
  const agg = plan.aggregate!;
  const ctx = new RunContext(new Deadline(Infinity), VIEW_LIMITS, null, Infinity);
  const run = new AggregateRun(plan, agg, ctx, isOrdered, Infinity);
  const columns = columnsRead(plan, true);
  run.grouper.startRange(0);
  for (const view of batches) {
    view.loadSync(columns);
    try {
      const ts = view.ts;
      const halves = tsHalves(ts);
      const all: Rows = { sel: null, lo: lowerBound(halves, 0, view.rowCount, range.from), hi: lowerBound(halves, 0, view.rowCount, range.to) };
      if (all.hi <= all.lo) continue;
      run.feed(new BatchFrame(view, plan.columnTypes, ctx.scratch), all, ts);
    } finally {
      view.unpin(columns);
    }
  }
  const result = finishGroups(plan, agg, run.groups, run.accumulators, ctx);
  ctx.close();
  return result;
}
