// Range pruning: the batches of a table overlapping one range, each with the slice [lo, hi) of
// its rows inside the range. Batches wholly inside take no search; edge batches are cut by a
// binary search on their sorted timestamps. Order-free aggregates may read the batches as stored
// (late runs not merged yet): each is still sorted, so the cut works per batch.
import { INT64_MAX, INT64_MIN } from '../../../../grammar/index.js';
import type { Table } from '../../../storage/table.js';
import type { BatchView } from '../../../types.js';
import type { TimeRange } from '../../plan/plan-types.js';
import { lowerBound, tsHalves } from './ts-search.js';

export interface Slice {
  readonly view: BatchView;
  readonly lo: number;
  readonly hi: number;
}

const EVERYTHING: TimeRange = { from: INT64_MIN, to: INT64_MAX };

/**
 * The non-empty slices of `range` (null = every row), in timestamp order; with `isUnordered`,
 * as stored (Table.scanUnordered: slices may overlap and come in any order).
 */
export function scanSlices(table: Table, range: TimeRange | null, isUnordered = false): Slice[] {
  const { from, to } = range ?? EVERYTHING;
  const out: Slice[] = [];
  if (from >= to) return out;
  for (const view of isUnordered ? table.scanUnordered(from, to) : table.scan(from, to)) {
    if (view.rowCount === 0) continue;
    // Without a range every row counts, even one at end_of_time (the scan's exclusive end).
    if (range === null || (view.minTs >= from && view.maxTs < to)) {
      out.push({ view, lo: 0, hi: view.rowCount });
      continue;
    }
    const ts = tsHalves(view.ts);
    const lo = view.minTs >= from ? 0 : lowerBound(ts, 0, view.rowCount, from);
    const hi = view.maxTs < to ? view.rowCount : lowerBound(ts, lo, view.rowCount, to);
    if (hi > lo) out.push({ view, lo, hi });
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
 * exactly as an ordered scan's rows.
 */
export function isTimeOrdered(slices: readonly Slice[]): boolean {
  for (let k = 1; k < slices.length; k++) {
    const a = slices[k - 1];
    const b = slices[k];
    if (a.view.ts[a.hi - 1] > b.view.ts[b.lo]) return false;
  }
  return true;
}
