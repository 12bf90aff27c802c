// The partial states of a view's aggregates per source batch, kept: a bucket that many batches
// hold (the one a stream of writes is filling: an hour of a thousand series seals dozens of
// batches, a day hundreds) is refreshed from the states of the batches it had already met, and
// only its new batches — its tail, sealed ones, batches a compaction or a DELETE rebuilt — are
// read again. Per bucket, the batches met in two refreshes running (sealed ones: a tail's view is
// new at every write) are merged once into the bucket's prefix, so a refresh merges its new
// batches' states into a copy of the prefix: its work follows the rows written since the last
// refresh and the bucket's keys, not the bucket's size. A sealed batch never changes, so its
// states stay right while it is in its table; they leave with it (a batch of the refreshed range
// that the listing no longer holds was replaced; a prefix holding one is made again), or, the
// oldest first, past MAX_ROWS. Only for views whose aggregates merge in any order (partials.ts):
// batches as stored overlap in time.
import type { MaterializedView } from '../catalog/materialized-view.js';
import type { NormalizedBatch } from '../storage/batch-input.js';
import type { SealedBatch } from '../storage/sealed-batch.js';
import { INT64_MAX, INT64_MIN } from '../../grammar/index.js';
import type { Listing } from '../query/exec/scan/scan-slices.js';
import type { TablePlan } from '../query/plan/plan-types.js';
import { keyText, stateRows, viewBatch } from './partials.js';
import type { PartialShape, Value } from './partials.js';
import { computeResult } from './view-rows.js';

/** State rows kept per view, at most (a few tens of bytes each). */
const MAX_ROWS = 500_000;
/** Bucket prefixes kept per view (the buckets a stream is filling: one or two). */
const MAX_PREFIXES = 16;

const EVERYTHING = { from: INT64_MIN, to: INT64_MAX + 1n };

/** A batch's states: by bucket, one per GROUP BY key. */
type BatchBuckets = Map<bigint, Value[][]>;

/** A bucket's batches met twice running, and their states merged, by key. */
interface Prefix {
  readonly batches: Set<SealedBatch>;
  readonly merged: Map<string, Value[]>;
}

export class BatchStates {
  /** By batch, its states; in use order (the least recently used first). */
  private readonly kept = new Map<SealedBatch, BatchBuckets>();
  private rows = 0;
  private readonly prefixes = new Map<bigint, Prefix>();
  /** The batches the previous refresh listed. */
  private lastListed = new Set<SealedBatch>();

  constructor(readonly partial: PartialShape, private readonly plan: TablePlan) {}

  /**
   * The view's rows of buckets [from, to): the states of the batches `listing` holds (as stored),
   * merged per bucket and key — with the edge states, for the edge bucket — and finished.
   */
  async viewRows(view: MaterializedView, listing: Listing, from: bigint, to: bigint): Promise<NormalizedBatch | null> {
    const { partial } = this;
    const merge = (into: Map<string, Value[]>, state: Value[]): void => {
      const key = keyText(state, partial.keyCount);
      const earlier = into.get(key);
      into.set(key, earlier === undefined ? state : partial.merge(earlier, state));
    };
    const listed = new Set(listing.batches);
    const byBatch = new Map<SealedBatch, BatchBuckets>();
    for (const batch of listing.batches) byBatch.set(batch, await this.statesOf(batch, listing.floor));
    const rows: [bigint, Value[]][] = [];
    const hasEdge = view.edge > view.finalBefore && view.finalBefore >= from && view.finalBefore < to;
    for (const bucket of bucketsIn(byBatch, from, to, hasEdge ? view.finalBefore : null)) {
      let prefix = this.prefixes.get(bucket);
      if (prefix === undefined || [...prefix.batches].some((b) => !listed.has(b))) prefix = { batches: new Set(), merged: new Map() };
      this.prefixes.delete(bucket);
      this.prefixes.set(bucket, prefix);
      const fresh: Value[][] = [];
      for (const [batch, buckets] of byBatch) {
        const states = buckets.get(bucket);
        if (states === undefined || prefix.batches.has(batch)) continue;
        if (!this.lastListed.has(batch)) { fresh.push(...states); continue; }
        for (const s of states) merge(prefix.merged, s);
        prefix.batches.add(batch);
      }
      const working = new Map(prefix.merged);
      if (hasEdge && bucket === view.finalBefore) for (const s of view.edgeStates as Value[][]) merge(working, s);
      for (const s of fresh) merge(working, s);
      for (const state of working.values()) rows.push([bucket, [...state.slice(0, partial.keyCount), ...partial.finish(state)]]);
    }
    for (const key of [...this.prefixes.keys()].slice(0, Math.max(0, this.prefixes.size - MAX_PREFIXES))) this.prefixes.delete(key);
    this.forgetReplaced(listed, from, to);
    this.lastListed = listed;
    return viewBatch(rows, view.table.columns);
  }

  /** A batch's states: kept ones, or computed (and kept, unless the floor cuts the batch). */
  private async statesOf(batch: SealedBatch, floor: bigint): Promise<BatchBuckets> {
    const isWhole = batch.minTs >= floor;
    const hit = isWhole ? this.kept.get(batch) : undefined;
    if (hit !== undefined) {
      this.kept.delete(batch);
      this.kept.set(batch, hit);
      return hit;
    }
    const buckets: BatchBuckets = new Map();
    let count = 0;
    for (const [bucket, state] of stateRows(await computeResult(this.plan, { range: EVERYTHING, batches: [batch], floor }))) {
      let list = buckets.get(bucket);
      if (list === undefined) buckets.set(bucket, (list = []));
      list.push(state);
      count++;
    }
    if (!isWhole) return buckets;
    this.kept.set(batch, buckets);
    this.rows += count;
    for (const [old, oldBuckets] of this.kept) {
      if (this.rows <= MAX_ROWS) break;
      this.forget(old, oldBuckets);
    }
    return buckets;
  }

  /** Batches of [from, to) the listing no longer holds left the table: their states go (and the batches with them). */
  private forgetReplaced(listed: ReadonlySet<SealedBatch>, from: bigint, to: bigint): void {
    for (const [batch, buckets] of this.kept) if (!listed.has(batch) && batch.maxTs >= from && batch.minTs < to) this.forget(batch, buckets);
  }

  private forget(batch: SealedBatch, buckets: BatchBuckets): void {
    this.kept.delete(batch);
    for (const states of buckets.values()) this.rows -= states.length;
  }
}

/** The buckets in [from, to) some batch has states for (and the edge bucket, when given), ascending. */
function bucketsIn(byBatch: ReadonlyMap<SealedBatch, BatchBuckets>, from: bigint, to: bigint, edge: bigint | null): bigint[] {
  const all = new Set<bigint>(edge === null ? [] : [edge]);
  for (const buckets of byBatch.values()) for (const bucket of buckets.keys()) if (bucket >= from && bucket < to) all.add(bucket);
  return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
