// Aggregate SELECT: scans each range batch by batch, splits the rows into per-group segments and
// feeds every accumulator. A batch wholly inside the range and inside one bucket, with no WHERE
// and no GROUP BY column, is answered from its statistics for the families that allow it
// (count/sum/avg/min/max/spread/first/last): no value of it is read. Two common shapes take one
// pass where the families would take several: WHERE <double column> <op> <constant> under sums
// and counts (filtered-sums.ts), and a sum beside a min/max of the same double argument over many
// short runs, as in GROUP BY 1min (sum-min-max.ts).
// Plans whose aggregates do not need rows in time order (aggregates/row-order.ts) get the
// batches as stored, late runs not merged (statements/run-select.ts): each batch is sorted, but
// they may overlap. Then groups are looked up by bucket, ties of min/max/abs_* go by row time,
// and the groups are sorted into result order at the end.
import type { Accumulator } from '../../aggregates/accumulator.js';
import type { SealedBatch } from '../../../storage/sealed-batch.js';
import { createAccumulator } from '../../aggregates/create-accumulator.js';
import { addFused, fusedPairs } from '../../aggregates/sum-min-max.js';
import type { AggregatePlan, TablePlan } from '../../plan/plan-types.js';
import type { ResultTable } from '../../result.js';
import { maxBuckets } from '../grouping/bucket-segments.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { evalValue, materialize } from '../kernels/eval-value.js';
import { addFilteredSums, filteredSumsOf } from './filtered-sums.js';
import { BatchFrame } from '../scan/frame.js';
import { columnsRead, SliceReader } from '../scan/slice-reader.js';
import { finishGroups } from '../output/group-output.js';
import { GroupTable } from '../grouping/group-table.js';
import { Grouper } from '../grouping/grouper.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import { isTimeOrdered } from '../scan/scan-slices.js';
import type { Rows, Vec } from '../../vector/vec.js';
import type { Frame } from '../scan/frame.js';
import type { RangeRows } from '../join/join-scan.js';
import { isSlices } from '../join/join-scan.js';

const MAX_RESERVED_GROUPS = 1 << 20;

/**
 * `scans`: the snapshot's rows of each range of the plan (statements/run-select.ts): batch slices,
 * each sorted, in time order unless the plan reads unordered; or an ASOF JOIN's merge (in order).
 */
export async function runAggregate(plan: TablePlan, agg: AggregatePlan, ctx: RunContext, scans: readonly RangeRows[]): Promise<ResultTable | null> {
  // No pending runs among the slices (the common case): as fast as an ordered read, and the same.
  const isOrdered = scans.every((s) => !isSlices(s) || isTimeOrdered(s));
  const point = agg.pointCall === null ? -1 : agg.calls[agg.pointCall].accumulator;
  const accumulators = agg.accumulators.map((spec, a) => createAccumulator(spec, a === point, !isOrdered));
  const groups = new GroupTable((capacity) => { for (const a of accumulators) a.reserve(capacity); }, ctx.limits.maxGroups, isOrdered);
  const { segments, partials, bucketRuns } = ctx.scratch;
  const grouper = new Grouper(groups, agg.bucket, agg.keys, bucketRuns, isOrdered);
  const pairs = fusedPairs(agg.accumulators, accumulators);
  const isFed = new Uint8Array(accumulators.length);
  const filtered = filteredSumsOf(plan, agg, accumulators);
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
  const readsTs = grouper.readsRowTimes || accumulators.some((acc) => acc.readsRowTimes);
  const columns = columnsRead(plan, readsTs);
  /** Filters a chunk of rows, splits it into group runs and feeds every accumulator. */
  const feed = (frame: Frame, all: Rows, ts: BigInt64Array): void => {
    let rows = all;
    if (plan.where !== null) rows = evalCondition(plan.where, frame, rows, ctx.deadline);
    if (rows.hi <= rows.lo) return;
    const args: Vec[] = agg.accumulators.map((s) => materialize(s.arg, evalValue(s.arg, frame, rows), frame, rows));
    grouper.segment(frame, ts, rows, segments);
    isFed.fill(0);
    for (const pair of pairs) {
      if (!addFused(pair, accumulators, segments, args[pair.sum], rows.hi - rows.lo, partials)) continue;
      isFed[pair.sum] = 1;
      isFed[pair.minMax] = 1;
    }
    for (let a = 0; a < accumulators.length; a++) if (isFed[a] === 0) accumulators[a].addRuns(segments, args[a], ts);
  };
  for (let r = 0; r < scans.length; r++) {
    grouper.startRange(r);
    const scan = scans[r];
    if (!isSlices(scan)) {
      for await (const chunk of scan.chunks(ctx.scratch)) {
        ctx.scannedRowsCount += (chunk.hi - chunk.lo) * plan.referencedColumns;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        feed(chunk.frame, { sel: null, lo: chunk.lo, hi: chunk.hi }, chunk.ts);
      }
      continue;
    }
    const slices = scan;
    const reader = new SliceReader(slices, columns, plan.columnTypes, ctx.scratch, (k) => !isStatsAnswerable(plan, agg, slices[k], grouper));
    try {
      for (let k = 0; k < slices.length; k++) {
        const slice = slices[k];
        ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        if (isStatsAnswerable(plan, agg, slice, grouper)) {
          const rest = addFromStats(agg, accumulators, slice.view, grouper);
          if (rest.length > 0) addWhole(agg, accumulators, rest, await reader.frame(k), grouper, readsTs);
          continue;
        }
        const loaded = reader.frame(k);
        const frame = loaded instanceof BatchFrame ? loaded : await loaded;
        if (filtered !== null && addFilteredSums(filtered, accumulators, frame, slice.lo, slice.hi, grouper)) continue;
        feed(frame, { sel: null, lo: slice.lo, hi: slice.hi }, readsTs ? slice.view.ts : NO_TIMES);
      }
    } finally {
      reader.close();
    }
  }
  lastGroups.set(agg.accumulators, groups.count);
  return finishGroups(plan, agg, groups, accumulators, ctx);
}

/**
 * Groups the last run of a plan made, by its accumulator specs (which the plans of one query
 * shape share, whatever their literals: plan/plan-cache.ts).
 */
const lastGroups = new WeakMap<object, number>();

/** What accumulators get for row times when none of them (nor the grouping) reads any. */
const NO_TIMES = new BigInt64Array(0);

function isStatsAnswerable(plan: TablePlan, agg: AggregatePlan, slice: Slice, grouper: Grouper): boolean {
  const view = slice.view;
  if (plan.where !== null || agg.keys.length > 0 || slice.lo !== 0 || slice.hi !== view.rowCount) return false;
  return agg.bucket === null || grouper.bucketOf(view.minTs) === grouper.bucketOf(view.maxTs);
}

/**
 * Adds a whole batch from its statistics; returns the accumulators that could not take it so
 * (an expression argument, or first/last of a string), which then read its values.
 */
function addFromStats(agg: AggregatePlan, accumulators: readonly Accumulator[], view: SealedBatch, grouper: Grouper): number[] {
  const g = grouper.groupOfBatch(view.minTs);
  const rest: number[] = [];
  for (let a = 0; a < accumulators.length; a++) {
    const arg = agg.accumulators[a].arg;
    if (arg.kind !== 'column' || !accumulators[a].addStats(g, view.statsOf(arg.index))) rest.push(a);
  }
  return rest;
}

/** Adds every row of the frame's batch to accumulators `which` (a batch in one group). */
function addWhole(agg: AggregatePlan, accumulators: readonly Accumulator[], which: readonly number[], frame: BatchFrame, grouper: Grouper, readsTs: boolean): void {
  const view = frame.view;
  const g = grouper.groupOfBatch(view.minTs);
  const all: Rows = { sel: null, lo: 0, hi: view.rowCount };
  const ts = readsTs ? view.ts : NO_TIMES;
  for (const a of which) {
    const arg = agg.accumulators[a].arg;
    accumulators[a].add(g, materialize(arg, evalValue(arg, frame, all), frame, all), all, ts);
  }
}
