// A view's SELECT over some of its source's batches, computed at once: for the apply of a record
// that cannot wait (a source's shards leaving, whose pending buckets must be computed from their
// rows before they go). The query engine's own grouping, accumulators and finishing, fed batch by
// batch like the aggregate operator (exec/operators/aggregate-operator.ts) but without pauses,
// statistics shortcuts or read-ahead: columns evicted from memory are read back synchronously.
import type { SealedBatch } from '../storage/sealed-batch.js';
import { createAccumulator } from '../query/aggregates/create-accumulator.js';
import { Deadline } from '../query/deadline.js';
import { GroupTable } from '../query/exec/grouping/group-table.js';
import { Grouper } from '../query/exec/grouping/grouper.js';
import { evalCondition } from '../query/exec/kernels/eval-condition.js';
import { evalValue, materialize } from '../query/exec/kernels/eval-value.js';
import { finishGroups } from '../query/exec/output/group-output.js';
import { RunContext } from '../query/exec/run/run-context.js';
import { BatchFrame } from '../query/exec/scan/frame.js';
import { columnsRead } from '../query/exec/scan/slice-reader.js';
import { lowerBound, tsHalves } from '../query/exec/scan/ts-search.js';
import type { TablePlan, TimeRange } from '../query/plan/plan-types.js';
import type { ResultTable } from '../query/result.js';
import { SegmentList } from '../query/vector/segment-list.js';
import type { Rows } from '../query/vector/vec.js';
import { VIEW_LIMITS } from '../query/plan/plan-view.js';

/**
 * The result of `plan` (a view's SELECT, aggregate) over the rows of `batches` inside `range`;
 * `isOrdered`: the batches are in time order (Table.scan), else as stored (Table.scanUnordered).
 */
export function aggregateNow(plan: TablePlan, batches: readonly SealedBatch[], range: TimeRange, isOrdered: boolean): ResultTable | null {
  const agg = plan.aggregate!;
  const ctx = new RunContext(new Deadline(Infinity), VIEW_LIMITS, null, Infinity);
  const accumulators = agg.accumulators.map((spec) => createAccumulator(spec, false, !isOrdered));
  const groups = new GroupTable((capacity) => { for (const a of accumulators) a.reserve(capacity); }, Infinity, isOrdered);
  const grouper = new Grouper(groups, agg.bucket, agg.keys, isOrdered);
  const segments = new SegmentList();
  const columns = columnsRead(plan, true);
  grouper.startRange(0);
  for (const view of batches) {
    view.loadSync(columns);
    try {
      const ts = view.ts;
      const halves = tsHalves(ts);
      const all: Rows = { sel: null, lo: lowerBound(halves, 0, view.rowCount, range.from), hi: lowerBound(halves, 0, view.rowCount, range.to) };
      if (all.hi <= all.lo) continue;
      const frame = new BatchFrame(view, plan.columnTypes, ctx.scratch);
      const rows = plan.where === null ? all : evalCondition(plan.where, frame, all, ctx.deadline);
      if (rows.hi <= rows.lo) continue;
      const args = agg.accumulators.map((s) => materialize(s.arg, evalValue(s.arg, frame, rows), frame, rows));
      grouper.segment(frame, ts, rows, segments);
      accumulators.forEach((a, k) => a.addRuns(segments, args[k], ts));
    } finally {
      view.unpin(columns);
    }
  }
  return finishGroups(plan, agg, groups, accumulators, ctx);
}
