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
import type { ColumnValues } from '../storage/column-values.js';
import type { Table } from '../storage/table.js';
import type { ColumnDef } from '../types.js';
import { readsUnordered } from '../query/aggregates/row-order.js';
import { listBatches } from '../query/exec/scan/scan-slices.js';
import type { Listing } from '../query/exec/scan/scan-slices.js';
import { aggregateNow } from './aggregate-now.js';
import { stateRows } from './partials.js';
import type { PartialShape, Value } from './partials.js';
import { plansOf } from './view-plans.js';
import { computeResult, replaceRows } from './view-rows.js';

/** States by bucket start, then by GROUP BY key (keyText). */
type States = Map<bigint, Map<string, Value[]>>;

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
    replaceRows(view.table, marked, toBatch(rows, view.table.columns));
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
  return toBatch(rows, view.table.columns);
}

function byBucket(rows: readonly [bigint, Value[]][], partial: PartialShape): States {
  const out: States = new Map();
  for (const [bucket, values] of rows) {
    let states = out.get(bucket);
    if (states === undefined) out.set(bucket, (states = new Map()));
    states.set(keyText(values, partial.keyCount), values);
  }
  return out;
}

/** A GROUP BY key as text, one per key GROUP BY tells apart (0 and -0 are one; NaN is one). */
function keyText(values: readonly Value[], count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    const v = values[i];
    text += `${typeof v}:${v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v)}|`;
  }
  return text;
}

/** View rows ([bucket, values]) as the columns of the view's table; null when there are none. */
function toBatch(rows: readonly [bigint, Value[]][], columns: readonly ColumnDef[]): NormalizedBatch | null {
  if (rows.length === 0) return null;
  const n = rows.length;
  const ts = BigInt64Array.from(rows, ([t]) => t);
  return {
    ts,
    columns: columns.map((def, c): ColumnValues => {
      const at = (i: number) => rows[i][1][c];
      switch (def.type) {
        case 'DOUBLE': {
          const values = new Float64Array(n);
          const nulls = new Uint8Array(n);
          for (let i = 0; i < n; i++) { const v = at(i); if (v === null) nulls[i] = 1; else values[i] = Number(v); }
          return { type: def.type, values, nulls };
        }
        case 'INT64':
        case 'TIMESTAMP': {
          const values = new BigInt64Array(n);
          const nulls = new Uint8Array(n);
          for (let i = 0; i < n; i++) { const v = at(i); if (v === null) nulls[i] = 1; else values[i] = BigInt(v as number | bigint); }
          return { type: def.type, values, nulls };
        }
        case 'BOOLEAN': return { type: def.type, values: Array.from({ length: n }, (_, i) => (at(i) === null ? null : at(i) === true || at(i) === 1)) };
        case 'BLOB': return { type: def.type, values: Array.from({ length: n }, (_, i) => at(i) as Uint8Array | null) };
        default: return { type: def.type, values: Array.from({ length: n }, (_, i) => at(i) as string | null) };
      }
    }),
  };
}
