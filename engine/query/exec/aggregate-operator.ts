// Aggregate SELECT: scans each range batch by batch, splits the rows into per-group segments and
// feeds every accumulator. A batch wholly inside the range and inside one bucket, with no WHERE
// and no GROUP BY column, is answered from its statistics for the families that allow it
// (count/sum/avg/min/max/spread/first/last): no value of it is read.
import type { Accumulator } from '../aggregates/accumulator.js';
import { createAccumulator } from '../aggregates/create-accumulator.js';
import type { AggregatePlan, TablePlan } from '../plan/plan-types.js';
import type { ResultTable } from '../result.js';
import { evalCondition } from './eval-condition.js';
import { evalValue, materialize } from './eval-value.js';
import { BatchFrame } from './frame.js';
import { finishGroups } from './group-output.js';
import { GroupTable } from './group-table.js';
import { Grouper } from './grouper.js';
import { SegmentList } from './segment-list.js';
import type { RunContext } from './run-context.js';
import type { Slice } from './scan-slices.js';
import { scanSlices } from './scan-slices.js';
import type { Rows, Vec } from './vec.js';

export function runAggregate(plan: TablePlan, agg: AggregatePlan, ctx: RunContext): ResultTable | null {
  const point = agg.pointCall === null ? -1 : agg.calls[agg.pointCall].accumulator;
  const accumulators = agg.accumulators.map((spec, a) => createAccumulator(spec, a === point));
  const groups = new GroupTable((capacity) => { for (const a of accumulators) a.reserve(capacity); });
  const grouper = new Grouper(groups, agg.bucket, agg.keys);
  const segments = new SegmentList();
  const scans = (plan.ranges ?? [null]).map((range) => scanSlices(plan.table, range));
  if (agg.keys.length === 0) groups.reserve(scans.reduce((n, slices) => n + grouper.maxGroups(slices), 0));
  for (let r = 0; r < scans.length; r++) {
    grouper.startRange(r);
    for (const slice of scans[r]) {
      ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
      ctx.deadline.check();
      const frame = new BatchFrame(slice.view, plan.columnTypes, ctx.scratch);
      if (isStatsAnswerable(plan, agg, slice, grouper)) {
        addFromStats(agg, accumulators, frame, grouper);
        continue;
      }
      let rows: Rows = { sel: null, lo: slice.lo, hi: slice.hi };
      if (plan.where !== null) rows = evalCondition(plan.where, frame, rows);
      if (rows.hi <= rows.lo) continue;
      const args: Vec[] = agg.accumulators.map((s) => materialize(s.arg, evalValue(s.arg, frame, rows), frame, rows));
      const ts = slice.view.ts;
      grouper.segment(frame, ts, rows, segments);
      for (let a = 0; a < accumulators.length; a++) accumulators[a].addRuns(segments, args[a], ts);
    }
  }
  return finishGroups(plan, agg, groups, accumulators, ctx);
}

function isStatsAnswerable(plan: TablePlan, agg: AggregatePlan, slice: Slice, grouper: Grouper): boolean {
  const view = slice.view;
  if (plan.where !== null || agg.keys.length > 0 || slice.lo !== 0 || slice.hi !== view.rowCount) return false;
  return agg.bucket === null || grouper.bucketOf(view.minTs) === grouper.bucketOf(view.maxTs);
}

function addFromStats(agg: AggregatePlan, accumulators: readonly Accumulator[], frame: BatchFrame, grouper: Grouper): void {
  const view = frame.view;
  const g = grouper.groupOfBatch(view.minTs);
  const all: Rows = { sel: null, lo: 0, hi: view.rowCount };
  for (let a = 0; a < accumulators.length; a++) {
    const arg = agg.accumulators[a].arg;
    if (arg.kind === 'column') {
      const index = arg.index;
      if (accumulators[a].addStats(g, view.stats[index], () => frame.column(index), view.ts)) continue;
      accumulators[a].add(g, frame.column(index), all, view.ts);
      continue;
    }
    accumulators[a].add(g, materialize(arg, evalValue(arg, frame, all), frame, all), all, view.ts);
  }
}
