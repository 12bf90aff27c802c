// The refresher of a database's materialized views (SPEC §15): in the background, it takes the
// range of some view marked dirty longest ago (catalog/dirty-ranges.ts), bounded to a round's
// worth of source rows, notes the marks' version and lists the source's batches there in one
// synchronous step (a snapshot, as a query takes one), computes the view's rows there with the
// query engine, then — synchronously again — settles what was marked by that version and puts the
// computed rows in place of the view's rows there. A range marked again meanwhile stays dirty and
// is computed once more, so a view always ends equal to its SELECT over the source.
//
// A view is derived state, like an index: its rows are never logged. Every node of a cluster
// computes them from its own copy of the source, which the log makes the same; what must survive
// a restart — the view's rows and the ranges still dirty — is in the checkpoint, and replaying the
// log after it marks again what its records change (DESIGN.md, "Lifecycle is shards leaving whole").
import type { EntryStore } from '../catalog/entry-store.js';
import type { MaterializedView } from '../catalog/materialized-view.js';
import type { DirtyRange } from '../catalog/dirty-ranges.js';
import type { Table } from '../storage/table.js';
import { readsUnordered } from '../query/aggregates/row-order.js';
import { listBatches } from '../query/exec/scan/scan-slices.js';
import { computeRows, replaceRows } from './view-rows.js';
import { edgeRows } from './frozen-edge.js';
import { plansOf } from './view-plans.js';
import type { ViewPlans } from './view-plans.js';
import { BatchStates } from './batch-states.js';
import { RefreshLag } from './refresh-lag.js';
import type { ViewFigures } from '../figures.js';

/** Source rows one round reads at most (a bucket is never split: one bucket may hold more). */
const ROUND_ROWS = 1 << 19;
/**
 * Rounds start at least this far apart: what arrives meanwhile is refreshed together, so under a
 * stream of writes the bucket being written is read again about once per PACE_MS, not once per
 * write (it costs most of a round's work when rounds are small), and a write's lag stays around it.
 */
const PACE_MS = 50;
/** A change waiting longer than this (ms) lifts the pacing until the views catch up (SPEC §15: within a second). */
const BEHIND_MS = 400;
/** A range holding this many source batches per bucket or more is refreshed from kept batch states. */
const DENSE_BATCHES = 4;

export interface RefresherOptions {
  readonly log?: (message: string) => void;
  /** Source rows a round reads at most (tests make it small). */
  readonly roundRows?: number;
}

export class ViewRefresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** When the latest round started (performance.now()). */
  private lastRound = -Infinity;
  /** Until start(): the database is still opening (a checkpoint loading, the log replaying). */
  private isStarted = false;
  private isStopped = false;
  readonly lag = new RefreshLag();
  /** Per view, the partial states of source batches kept (batch-states.ts). */
  private readonly states = new WeakMap<MaterializedView, BatchStates>();

  constructor(private readonly store: EntryStore, private readonly options: RefresherOptions = {}) {
    store.onViewsDirty = () => this.wake();
  }

  /** Starts refreshing (once the database is open): what opening marked first. */
  start(): void {
    this.isStarted = true;
    if (this.hasDirty()) this.wake();
  }

  /** Something was marked: a round starts soon, unless one is under way (it goes on until nothing is dirty). */
  wake(): void {
    if (!this.isStarted || this.isStopped || this.timer !== null || this.running !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, Math.max(0, this.lastRound + PACE_MS - performance.now()));
  }

  /** Resolves once no view has anything left to compute (tests, and the bench, wait for it). */
  async caughtUp(): Promise<void> {
    this.waiters++;
    try {
      while (this.isStarted && !this.isStopped && this.hasDirty()) {
        if (this.timer !== null) clearTimeout(this.timer);
        this.timer = null;
        this.run();
        await this.running;
      }
    } finally {
      this.waiters--;
    }
  }

  /** Callers of caughtUp() waiting: rounds then follow each other without a pause. */
  private waiters = 0;

  /** Stops refreshing; resolves once the round under way is over. */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Each view's refresh state now, and the lag of past refreshes. */
  figures(): ViewFigures {
    const now = Date.now();
    return this.lag.figures([...this.store.views.values()].map((v) => {
      const oldest = v.dirty.oldest();
      return { name: v.name, pendingRanges: v.dirty.ranges.length, lagMs: oldest === null ? 0 : now - oldest.since };
    }));
  }

  /** Whether some view's oldest change has waited longer than BEHIND_MS. */
  private isBehind(): boolean {
    const now = Date.now();
    for (const v of this.store.views.values()) {
      const oldest = v.dirty.oldest();
      if (oldest !== null && now - oldest.since > BEHIND_MS) return true;
    }
    return false;
  }

  private hasDirty(): boolean {
    for (const v of this.store.views.values()) if (!v.dirty.isEmpty) return true;
    return false;
  }

  private run(): void {
    if (this.running !== null || this.isStopped || !this.isStarted) return;
    this.running = (async () => {
      while (!this.isStopped) {
        this.lastRound = performance.now();
        if (!await this.round()) break;
        // Paced, unless a caller waits for the views to catch up or the views fall behind: a
        // change waiting longer than BEHIND_MS gets rounds back to back (each still pauses like a
        // query), so a flood of writes cannot hold the refresh to one round per PACE_MS.
        if (this.waiters === 0 && this.lastRound + PACE_MS > performance.now() && !this.isBehind()) break;
      }
    })().catch((e: unknown) => {
      this.options.log?.(`refreshing materialized views failed: ${(e as Error).stack ?? String(e)}`);
    }).finally(() => {
      this.running = null;
      if (this.hasDirty()) this.wake();
    });
  }

  /** Refreshes one range of the view waiting longest; false when none waits. */
  private async round(): Promise<boolean> {
    let view: MaterializedView | null = null;
    let since = Infinity;
    for (const v of this.store.views.values()) {
      const oldest = v.dirty.oldest();
      if (oldest !== null && oldest.since < since) { view = v; since = oldest.since; }
    }
    if (view === null) return false;
    const source = this.store.entries.get(view.source);
    if (source?.type !== 'ts') {
      // The source is gone (a log written before views were refused a source's drop): the view stays as it is.
      view.dirty.clear();
      return true;
    }
    // Nothing is computed where the view's rows are final, or gone with its own TTL.
    const floor = view.table.visibleFrom(BigInt(Date.now()) * 1_000_000n);
    view.dirty.clearBefore(floor > view.finalBefore ? view.bucketOf(floor) : view.finalBefore);
    const oldest = view.dirty.oldest();
    if (oldest === null) return true;
    const plans = plansOf(view, source.table);
    const { shape, partial, partialPlan } = plans;
    // The edge bucket (its rows before the edge kept as partial states): refreshed on its own.
    const isEdge = oldest.from === view.finalBefore && view.edge > view.finalBefore;
    const from = oldest.from;
    const to = isEdge ? view.bucketEnd(from) : this.roundEnd(view, source.table, from, contiguousEnd(view, oldest));
    // Buckets of many batches (a stream's) from the kept states of those batches, where they merge in any order.
    const states = partial.isOrderFree && (isEdge || this.isDense(view, source.table, from, to)) ? this.statesOf(view, plans) : null;
    const plan = isEdge || states !== null ? partialPlan : shape.plan;
    // The marks' version and the source's batches, in one synchronous step (no row before the edge is read).
    const version = view.dirty.version;
    const listing = listBatches(source.table, { from, to }, view.edge, readsUnordered(plan.aggregate!));
    const release = source.table.context.leases.lease();
    let rows;
    try {
      if (states !== null) rows = await states.viewRows(view, listing, from, to);
      else rows = isEdge ? await edgeRows(view, partial, partialPlan, listing) : await computeRows(plan, listing, view.table.columns);
    } finally {
      release();
    }
    // Dropped, or its edge moved, meanwhile: computed again from the marks.
    if (this.store.views.get(view.name) !== view || listing.floor !== view.edge) return true;
    const parts = view.dirty.settle(from, to, version);
    if (parts.length === 0) return true;
    replaceRows(view.table, parts, rows);
    this.lag.settled(parts);
    return true;
  }

  /** Whether [from, to) holds many batches per bucket (DENSE_BATCHES): a bucket a stream is filling. */
  private isDense(view: MaterializedView, source: Table, from: bigint, to: bigint): boolean {
    const buckets = Number((to - from) / (view.bucketEnd(from) - from)) || 1;
    return source.scanUnordered(from, to).length >= DENSE_BATCHES * buckets;
  }

  /** The kept batch states of `view`, made anew when its plans were (the source grew a column). */
  private statesOf(view: MaterializedView, plans: ViewPlans): BatchStates {
    let states = this.states.get(view);
    if (states === undefined || states.partial !== plans.partial) this.states.set(view, (states = new BatchStates(plans.partial, plans.partialPlan)));
    return states;
  }

  /**
   * The end of a round starting at `from` in the dirty range [from, to): all of it when its
   * source rows are few, else whole buckets holding about ROUND_ROWS of them (at least one).
   */
  private roundEnd(view: MaterializedView, source: Table, from: bigint, to: bigint): bigint {
    const limit = this.options.roundRows ?? ROUND_ROWS;
    let rows = 0;
    for (const b of source.scanUnordered(from, to)) {
      rows += b.rowCount;
      if (rows <= limit) continue;
      const end = view.bucketEnd(view.bucketOf(b.maxTs));
      return end < to ? end : to;
    }
    return to;
  }

}

/** The end of the dirty ranges that follow `start` without a gap: a stream's marks, one per write, are refreshed in one round. */
function contiguousEnd(view: MaterializedView, start: DirtyRange): bigint {
  let to = start.to;
  for (const r of view.dirty.ranges) {
    if (r.to <= start.from) continue;
    if (r.from > to) break;
    if (r.to > to) to = r.to;
  }
  return to;
}
