// What a view keeps of its source's rows when they leave it (SPEC §14: a source's TTL never
// removes view rows). At the apply of a removal (ShardsDrop: TTL, retention by size), before the
// rows go, the rows between the view's edge and the removal's bound are aggregated into partial
// states (partials.ts), in one synchronous step, the same on every replica and on replay:
// - buckets wholly before the bound become final: those a write had marked are finished now from
//   their states (the others already hold exactly that);
// - the bucket holding the bound (unless it starts there) keeps the states of its rows before it:
//   the edge states, which its later refreshes merge with its rows still in the source
//   (refreshEdge);
// - rows before the new edge are never read again (rows arriving there later, older than the
//   source's TTL, do not reach the view).
import type { MaterializedView } from '../catalog/materialized-view.js';
import type { NormalizedBatch } from '../storage/batch-input.js';
import type { Table } from '../storage/table.js';
import { readsUnordered } from '../query/aggregates/row-order.js';
import { listBatches } from '../query/exec/scan/scan-slices.js';
import type { Listing } from '../query/exec/scan/scan-slices.js';
import { aggregateNow } from './aggregate-now.js';
import { byBucket, keyText, stateRows, viewBatch } from './partials.js';
import type { PartialShape, Value } from './partials.js';
import { plansOf } from './view-plans.js';
import { computeResult, replaceRows } from './view-rows.js';

/** Moves `view`'s edge up to `before`, keeping what the source's rows before it hold (see the header). */
export function freezeBefore(view: MaterializedView, source: Table, before: bigint): void {
  if (before <= view.edge) return;
  const { partial, partialPlan } = plansOf(view, source);
  const isOrdered = !readsUnordered(partialPlan.aggregate!);
  const range = { from: view.edge, to: before };
  const listing = listBatches(source, range, view.edge, !isOrdered);
  const leaving = byBucket(stateRows(aggregateNow(partialPlan, listing.batches, range, isOrdered)), partial);
  // The edge bucket's states so far come first: its rows before the old edge precede these.
  const oldEdge = view.bucketOf(view.edge);
  if (view.edgeStates.length > 0) {
    let states = leaving.get(oldEdge);
    if (states === undefined) leaving.set(oldEdge, (states = new Map()));
    for (const earlier of view.edgeStates as Value[][]) {
      const key = keyText(earlier, partial.keyCount);
      const later = states.get(key);
      states.set(key, later === undefined ? earlier : partial.merge(earlier, later));
    }
  }
  const newEdge = view.bucketOf(before);
  // Buckets wholly before the bound are final: those marked are finished from their states now.
  const marked = view.dirty.settle(view.finalBefore, newEdge, view.dirty.version);
  if (marked.length > 0) {
    const rows: [bigint, Value[]][] = [];
    for (const [bucket, states] of [...leaving].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (bucket >= newEdge) continue;
      for (const state of states.values()) rows.push([bucket, [...state.slice(0, partial.keyCount), ...partial.finish(state)]]);
    }
    replaceRows(view.table, marked, viewBatch(rows, view.table.columns));
  }
  view.edgeStates = before > newEdge ? [...(leaving.get(newEdge)?.values() ?? [])] : [];
  view.edge = before;
}

/**
 * The rows of the edge bucket [bucket, end): its edge states merged with the states of its rows
 * at or after the edge, which `listing` lists (read asynchronously, like any refresh).
 */
export async function edgeRows(view: MaterializedView, partial: PartialShape, partialPlan: Parameters<typeof computeResult>[0], listing: Listing): Promise<NormalizedBatch | null> {
  const live = byBucket(stateRows(await computeResult(partialPlan, listing)), partial).get(view.finalBefore) ?? new Map<string, Value[]>();
  const merged = new Map<string, Value[]>();
  for (const earlier of view.edgeStates as Value[][]) merged.set(keyText(earlier, partial.keyCount), earlier);
  for (const [key, later] of live) {
    const earlier = merged.get(key);
    merged.set(key, earlier === undefined ? later : partial.merge(earlier, later));
  }
  const rows: [bigint, Value[]][] = [...merged.values()].map((state) => [view.finalBefore, [...state.slice(0, partial.keyCount), ...partial.finish(state)]]);
  return viewBatch(rows, view.table.columns);
}
