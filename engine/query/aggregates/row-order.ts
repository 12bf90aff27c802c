// Which aggregates need their rows in time order, and so which aggregate plans may read a table's
// batches as stored (Table.scanUnordered: late runs not merged yet) instead of making the read
// merge them first. Three kinds:
// - 'free': the answer is the same in any order, to the bit. count, min/max/spread and abs_*
//   (ties on the value, and ±0, go to the earliest row by time: the accumulators compare row
//   times when batches overlap), distinct_count, and sum/avg of int64 (exact BigInt sums).
// - 'rounding': the same up to rounding: double sums, power sums and moments add each batch part
//   on its own (four partial sums, statistics per batch) and then merge, so the last bits depend
//   on where batches begin and end. They already do on the ordered read: batch bounds follow
//   insert sizes, the batch size and when background compaction ran, so the same rows inserted in
//   the same order answer with other last bits when compaction ran between the inserts.
// - 'rows': first, last and adjacent_count read the rows in sequence; they keep the merged read.
import type { AccumulatorSpec, AggregatePlan } from '../plan/plan-types.js';

export type RowOrderNeed = 'free' | 'rounding' | 'rows';

/**
 * Whether 'rounding' aggregates read unordered. A double sum over runs then rounds as a sum over
 * the runs and `main` apart, one more batch layout among those the ordered read already meets;
 * false would make them pay for the merge like first/last, for last-bit stability only.
 */
export const ROUNDING_READS_UNORDERED = true;

export function rowOrderNeed(spec: AccumulatorSpec): RowOrderNeed {
  switch (spec.family) {
    case 'count':
    case 'minmax':
    case 'abs':
    case 'distinct':
      return 'free';
    case 'sum':
      return spec.arg.type === 'int64' ? 'free' : 'rounding';
    case 'powers':
    case 'moments':
      return 'rounding';
    case 'firstlast':
    case 'adjacent':
      return 'rows';
  }
}

/** Whether every aggregate of `agg` may read batches as stored; `roundingReadsUnordered`: see above. */
export function readsUnordered(agg: AggregatePlan, roundingReadsUnordered = ROUNDING_READS_UNORDERED): boolean {
  return agg.accumulators.every((spec) => {
    const need = rowOrderNeed(spec);
    return need === 'free' || (need === 'rounding' && roundingReadsUnordered);
  });
}
