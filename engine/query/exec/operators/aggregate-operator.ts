// Aggregate SELECT: scans each range batch by batch, splits the rows into per-group segments and
// feeds every accumulator (aggregate-run.ts). A batch wholly inside the range and inside one
// bucket, with no WHERE and no GROUP BY column, is answered from its statistics for the families
// that allow it (count/sum/avg/min/max/spread/first/last): no value of it is read. Two common
// shapes take one pass where the families would take several: WHERE <double column> <op>
// <constant> under sums and counts (filtered-sums.ts), and a sum beside a min/max of the same
// double argument over many short runs, as in GROUP BY 1min (sum-min-max.ts).
// Plans whose aggregates do not need rows in time order (aggregates/row-order.ts) get the
// batches as stored, late runs not merged (statements/run-select.ts): each batch is sorted, but
// they may overlap. Then groups are looked up by bucket, ties of min/max/abs_* go by row time,
// and the groups are sorted into result order at the end.
// With worker threads, a large scan's batches are split into parts that workers aggregate; their
// partial states are merged here in batch order (aggregate-parts.ts), so the answer is the one
// this thread would have computed alone.
import { maxBuckets } from '../grouping/bucket-segments.js';
import type { AggregatePlan, TablePlan } from '../../plan/plan-types.js';
import type { ResultTable } from '../../result.js';
import type { Accumulator } from '../../aggregates/accumulator.js';
import type { GroupTable } from '../grouping/group-table.js';
import { BatchFrame } from '../scan/frame.js';
import { columnsRead, SliceReader } from '../scan/slice-reader.js';
import { finishGroups } from '../output/group-output.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import { isTimeOrdered } from '../scan/scan-slices.js';
import type { RangeRows } from '../join/join-scan.js';
import { isSlices } from '../join/join-scan.js';
import { AggregateRun } from './aggregate-run.js';
import { mergePart, PartRunner, partsOf } from './aggregate-parts.js';

const MAX_RESERVED_GROUPS = 1 << 20;

/**
 * `scans`: the snapshot's rows of each range of the plan (statements/run-select.ts): batch slices,
 * each sorted, in time order unless the plan reads unordered; or an ASOF JOIN's merge (in order).
 */
export async function runAggregate(plan: TablePlan, agg: AggregatePlan, ctx: RunContext, scans: readonly RangeRows[]): Promise<ResultTable | null> {
  const { groups, accumulators } = await aggregateGroups(plan, agg, ctx, scans);
  return finishGroups(plan, agg, groups, accumulators, ctx);
}

/**
 * The groups of runAggregate and their accumulators, before the result is built: for a caller
 * that takes the aggregates' values by group as they are (a materialized view's refresh, which
 * needs neither the result order nor the select list's evaluation).
 */
export async function aggregateGroups(plan: TablePlan, agg: AggregatePlan, ctx: RunContext, scans: readonly RangeRows[]): Promise<{ readonly groups: GroupTable; readonly accumulators: readonly Accumulator[] }> {
  // No pending runs among the slices (the common case): as fast as an ordered read, and the same.
  const isOrdered = scans.every((s) => !isSlices(s) || isTimeOrdered(s));
  const run = new AggregateRun(plan, agg, ctx, isOrdered, ctx.limits.maxGroups);
  const { groups, grouper } = run;
  // Sized once when the bound is tight: no WHERE to thin the rows out, and capped, since sparse
  // rows under a fine bucket can bound far more groups than they make.
  if (agg.keys.length === 0 && plan.where === null && scans.every(isSlices)) {
    const bound = (slices: readonly Slice[]): number => (slices.length === 0 ? 0 : agg.bucket === null ? 1 : maxBuckets(slices, agg.bucket));
    groups.reserve(Math.min(MAX_RESERVED_GROUPS, ctx.limits.maxGroups, scans.reduce((n, slices) => n + bound(slices as readonly Slice[]), 0)));
  } else {
    // Otherwise as many as the last run of this plan made (a dashboard's refresh makes the same).
    groups.reserve(Math.min(MAX_RESERVED_GROUPS, ctx.limits.maxGroups, lastGroups.get(agg.accumulators) ?? 0));
  }
  // `$timestamp` is read back only when something reads row times.
  const columns = columnsRead(plan, run.readsTs);
  for (let r = 0; r < scans.length; r++) {
    grouper.startRange(r);
    const scan = scans[r];
    if (!isSlices(scan)) {
      for await (const chunk of scan.chunks(ctx.scratch)) {
        ctx.scannedRowsCount += (chunk.hi - chunk.lo) * plan.referencedColumns;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        run.feed(chunk.frame, { sel: null, lo: chunk.lo, hi: chunk.hi }, chunk.ts);
      }
      continue;
    }
    const slices = scan;
    // Parts for worker threads (none without them, or for a small scan): a part's result is
    // merged where the loop reaches its first slice, and stands for all its slices.
    const parts = partsOf(run, slices, columns, ctx);
    const runner = parts.list.length === 0 ? null : new PartRunner(run, parts, slices, columns, ctx);
    /** A part whose batches turned out not to be in shared memory: read here after all. */
    let here = -1;
    const isRead = (k: number): boolean => !run.isStatsAnswerable(slices[k]) && parts.partAt[k] < 0;
    const reader = new SliceReader(slices, columns, plan.columnTypes, ctx.scratch, isRead);
    try {
      for (let k = 0; k < slices.length; k++) {
        const slice = slices[k];
        ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        const part = parts.partAt[k];
        if (part >= 0 && part !== here) {
          if (parts.list[part].from !== k) continue;
          const result = await runner!.result(part);
          if (result !== 'here') {
            mergePart(run, result);
            continue;
          }
          here = part;
        }
        if (run.isStatsAnswerable(slice)) {
          const rest = run.addFromStats(slice.view);
          if (rest.length > 0) run.addWhole(rest, await reader.frame(k));
          continue;
        }
        const loaded = reader.frame(k);
        run.feedBatch(loaded instanceof BatchFrame ? loaded : await loaded, slice.lo, slice.hi);
      }
    } finally {
      reader.close();
      runner?.close();
    }
  }
  lastGroups.set(agg.accumulators, groups.count);
  return { groups, accumulators: run.accumulators };
}

/**
 * Groups the last run of a plan made, by its accumulator specs (which the plans of one query
 * shape share, whatever their literals: plan/plan-cache.ts).
 */
const lastGroups = new WeakMap<object, number>();
