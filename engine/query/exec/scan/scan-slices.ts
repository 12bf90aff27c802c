// Range pruning: the batches of a table overlapping one range, each with the slice [lo, hi) of
// its rows inside the range. Listing the batches is synchronous (it is part of a query's
// snapshot); cutting them is not: batches wholly inside take no search, and edge batches are cut
// by a binary search on their sorted timestamps, which are read back from disk when evicted.
// Order-free aggregates may read the batches as stored (late runs not merged yet): each is still
// sorted, so the cut works per batch.
import { INT64_MAX, INT64_MIN } from '../../../../grammar/index.js';
import type { SealedBatch } from '../../../storage/sealed-batch.js';
import type { Table } from '../../../storage/table.js';
import type { TimeRange } from '../../plan/plan-types.js';
import { lowerBound, tsHalves } from './ts-search.js';

export interface Slice {
  readonly view: SealedBatch;
  readonly lo: number;
  readonly hi: number;
  /** Bounds of the slice's row times: minTs <= every row's time <= maxTs. */
  readonly minTs: bigint;
  readonly maxTs: bigint;
}

/** The batches of a table in one range, as listed for a snapshot (see sliceBatches). */
export interface Listing {
  readonly range: TimeRange | null;
  readonly batches: readonly SealedBatch[];
  /**
   * The table's TTL cutoff when the query started (Table.visibleFrom; INT64_MIN without a TTL):
   * rows before it are gone, whatever the range says.
   */
  readonly floor: bigint;
}

/** Every row: the end is past INT64_MAX, so a row at end_of_time is listed too. */
const EVERYTHING: TimeRange = { from: INT64_MIN, to: INT64_MAX + 1n };

/**
 * The batches overlapping `range` (null = every row) at or after `floor` as the table holds them
 * now, in timestamp order; with `isUnordered` as stored (Table.scanUnordered: they may overlap and
 * come in any order). Synchronous, so a snapshot of several tables and ranges is taken at one moment.
 */
export function listBatches(table: Table, range: TimeRange | null, floor: bigint, isUnordered = false): Listing {
  const { from, to } = clampTo(range ?? EVERYTHING, floor);
  if (from >= to) return { range, batches: [], floor };
  return { range, batches: isUnordered ? table.scanUnordered(from, to) : table.scan(from, to), floor };
}

/** `range` less what lies before `floor`. */
function clampTo(range: TimeRange, floor: bigint): TimeRange {
  return range.from >= floor ? range : { from: floor, to: range.to };
}

/**
 * The non-empty slices of `range` over batches listed for it or for a range holding it, in
 * their order; edge batches' timestamps are read back as needed, batches outside never.
 */
export async function sliceBatches({ range, batches, floor }: Listing): Promise<Slice[]> {
  const isEverything = range === null && floor === INT64_MIN;
  const { from, to } = clampTo(range ?? EVERYTHING, floor);
  const out: Slice[] = [];
  if (from >= to) return out;
  for (const view of batches) {
    if (view.rowCount === 0 || (!isEverything && (view.maxTs < from || view.minTs >= to))) continue;
    // Without a range every row counts, even one at end_of_time (the scan's exclusive end).
    if (isEverything || (view.minTs >= from && view.maxTs < to)) {
      out.push({ view, lo: 0, hi: view.rowCount, minTs: view.minTs, maxTs: view.maxTs });
      continue;
    }
    const loading = view.load([0]);
    try {
      if (loading !== null) await loading;
      const ts = tsHalves(view.ts);
      const lo = view.minTs >= from ? 0 : lowerBound(ts, 0, view.rowCount, from);
      const hi = view.maxTs < to ? view.rowCount : lowerBound(ts, lo, view.rowCount, to);
      if (hi > lo) out.push({ view, lo, hi, minTs: view.ts[lo], maxTs: view.ts[hi - 1] });
    } finally {
      view.unpin([0]);
    }
  }
  return out;
}

/** Rows in `slices`. */
export function rowsIn(slices: readonly Slice[]): number {
  let n = 0;
  for (const s of slices) n += s.hi - s.lo;
  return n;
}

/**
 * Whether the rows of `slices`, read one after the other, are in time order. Slices of one
 * shard come in insertion order for equal timestamps (Table.scanUnordered), so then they read
 * exactly as an ordered scan's rows; pieces of one batch in order are in order.
 */
export function isTimeOrdered(slices: readonly Slice[]): boolean {
  for (let k = 1; k < slices.length; k++) {
    const a = slices[k - 1];
    const b = slices[k];
    if (a.view === b.view ? a.hi > b.lo : a.maxTs > b.minTs) return false;
  }
  return true;
}
