// The state of one aggregate run over a table plan's rows — accumulators, groups, the grouper —
// and how a batch's rows feed it: WHERE, the group runs, every accumulator, and the two fused
// shapes (filtered-sums.ts, aggregates/sum-min-max.ts). The operator drives one over a
// snapshot's slices (aggregate-operator.ts); a worker thread drives one over a part of them and
// hands back its groups' partial states, which the main thread merges (aggregate-parts.ts).
import type { Accumulator } from '../../aggregates/accumulator.js';
import type { SealedBatch } from '../../../storage/sealed-batch.js';
import { createAccumulator } from '../../aggregates/create-accumulator.js';
import { addFused, fusedPairs } from '../../aggregates/sum-min-max.js';
import type { FusedPair } from '../../aggregates/sum-min-max.js';
import type { AggregatePlan, TablePlan } from '../../plan/plan-types.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { evalValue, materialize } from '../kernels/eval-value.js';
import { addFilteredSums, filteredSumsOf } from './filtered-sums.js';
import type { FilteredSums } from './filtered-sums.js';
import type { BatchFrame, Frame } from '../scan/frame.js';
import { GroupTable } from '../grouping/group-table.js';
import { Grouper } from '../grouping/grouper.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import type { Rows, Vec } from '../../vector/vec.js';

/** What accumulators get for row times when none of them (nor the grouping) reads any. */
const NO_TIMES = new BigInt64Array(0);

export class AggregateRun {
  readonly accumulators: Accumulator[];
  readonly groups: GroupTable;
  readonly grouper: Grouper;
  /** Whether a batch's `$timestamp` is read: something reads row times. */
  readonly readsTs: boolean;
  private readonly pairs: FusedPair[];
  private readonly isFed: Uint8Array;
  private readonly filtered: FilteredSums | null;

  /**
   * `isOrdered`: the rows come in time order (no pending late runs among the slices); `maxGroups`
   * refuses the group past it (QueryLimit).
   */
  constructor(readonly plan: TablePlan, readonly agg: AggregatePlan, private readonly ctx: RunContext, isOrdered: boolean, maxGroups: number) {
    const point = agg.pointCall === null ? -1 : agg.calls[agg.pointCall].accumulator;
    const accumulators = agg.accumulators.map((spec, a) => createAccumulator(spec, a === point, !isOrdered));
    this.accumulators = accumulators;
    this.groups = new GroupTable((capacity) => { for (const a of accumulators) a.reserve(capacity); }, maxGroups, isOrdered);
    this.grouper = new Grouper(this.groups, agg.bucket, agg.keys, ctx.scratch.bucketRuns, isOrdered);
    this.pairs = fusedPairs(agg.accumulators, accumulators);
    this.isFed = new Uint8Array(accumulators.length);
    this.filtered = filteredSumsOf(plan, agg, accumulators);
    this.readsTs = this.grouper.readsRowTimes || accumulators.some((acc) => acc.readsRowTimes);
  }

  /** Feeds the rows [lo, hi) of a batch's frame. */
  feedBatch(frame: BatchFrame, lo: number, hi: number): void {
    if (this.filtered !== null && addFilteredSums(this.filtered, this.accumulators, frame, lo, hi, this.grouper)) return;
    this.feed(frame, { sel: null, lo, hi }, this.readsTs ? frame.view.ts : NO_TIMES);
  }

  /** Filters a chunk of rows, splits it into group runs and feeds every accumulator. */
  feed(frame: Frame, all: Rows, ts: BigInt64Array): void {
    const { plan, agg, accumulators, isFed } = this;
    const { segments, partials } = this.ctx.scratch;
    let rows = all;
    if (plan.where !== null) rows = evalCondition(plan.where, frame, rows, this.ctx.deadline);
    if (rows.hi <= rows.lo) return;
    const args: Vec[] = agg.accumulators.map((s) => materialize(s.arg, evalValue(s.arg, frame, rows), frame, rows));
    this.grouper.segment(frame, ts, rows, segments);
    isFed.fill(0);
    for (const pair of this.pairs) {
      if (!addFused(pair, accumulators, segments, args[pair.sum], rows.hi - rows.lo, partials)) continue;
      isFed[pair.sum] = 1;
      isFed[pair.minMax] = 1;
    }
    for (let a = 0; a < accumulators.length; a++) if (isFed[a] === 0) accumulators[a].addRuns(segments, args[a], ts);
  }

  /** Whether a slice is answered from its batch's statistics: whole, one bucket, no WHERE or GROUP BY column. */
  isStatsAnswerable(slice: Slice): boolean {
    const view = slice.view;
    if (this.plan.where !== null || this.agg.keys.length > 0 || slice.lo !== 0 || slice.hi !== view.rowCount) return false;
    return this.agg.bucket === null || this.grouper.bucketOf(view.minTs) === this.grouper.bucketOf(view.maxTs);
  }

  /**
   * Adds a whole batch from its statistics; returns the accumulators that could not take it so
   * (an expression argument, or first/last of a string), which then read its values (addWhole).
   */
  addFromStats(view: SealedBatch): number[] {
    const g = this.grouper.groupOfBatch(view.minTs);
    const rest: number[] = [];
    for (let a = 0; a < this.accumulators.length; a++) {
      const arg = this.agg.accumulators[a].arg;
      if (arg.kind !== 'column' || !this.accumulators[a].addStats(g, view.statsOf(arg.index))) rest.push(a);
    }
    return rest;
  }

  /** Adds every row of the frame's batch to accumulators `which` (a batch in one group). */
  addWhole(which: readonly number[], frame: BatchFrame): void {
    const view = frame.view;
    const g = this.grouper.groupOfBatch(view.minTs);
    const all: Rows = { sel: null, lo: 0, hi: view.rowCount };
    const ts = this.readsTs ? view.ts : NO_TIMES;
    for (const a of which) {
      const arg = this.agg.accumulators[a].arg;
      this.accumulators[a].add(g, materialize(arg, evalValue(arg, frame, all), frame, all), all, ts);
    }
  }
}
