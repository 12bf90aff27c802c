// Which compaction job a shard's late runs get next, so steady late rows into a big shard do not
// cost the shard's size per run. Merging runs into `main` rewrites every sealed batch they
// overlap: done for each run as it appears, a shard of N rows taking late rows in runs of
// batchRows pays about N / batchRows rewritten rows per late row, N² / batchRows in all. So:
// - into `main` when that is cheap (the overlapped part of `main` is a couple of batches), when
//   the runs hold at least 1 / MAIN_SHARE of the rows they overlap (then each merge rewrites at
//   most MAIN_SHARE rows of `main` per late row), or when a reader needs the rows in order;
// - else the newest small runs merged with each other, size-tiered: the newest MIN_SMALL_RUNS
//   when they are of about one size (so a merged run waits for runs of its own size before it is
//   merged again, and each row is merged about once per size tier), or every small run once
//   there are MAX_SMALL_RUNS (sizes too mixed to tier): the number of runs a reader meets while
//   they wait stays bounded;
// - else nothing now: the compactor comes back when more runs arrive, or merges them into `main`
//   once the shard has had no new run for a while (compactor.ts).
import type { SealedBatch } from './sealed-batch.js';

/** `main` merges rewrite at most this many of its rows per late row (amortized). */
export const MAIN_SHARE = 8;
/** Overlapped `main` batches merged eagerly whatever the runs' size: cheap enough. */
export const EAGER_MAIN_BATCHES = 2;
/** Small runs (under half a batch) of about one size merged with each other: this many. */
export const MIN_SMALL_RUNS = 8;
/** "About one size": the largest at most this many times the smallest. */
const SIZE_RATIO = 4;
/** Small runs merged with each other whatever their sizes once this many are waiting. */
export const MAX_SMALL_RUNS = 4 * MIN_SMALL_RUNS;

export type JobChoice =
  | { readonly kind: 'main' }
  /** Merge runs [from, end of the list) with each other: the newest, all small. */
  | { readonly kind: 'runs'; readonly from: number }
  | null;

/**
 * The next job for `runs` (in seal order), `mainRows` being the rows of the `main` batches they
 * overlap; `isForced`: a reader needs them merged into `main` now.
 */
export function chooseJob(runs: readonly SealedBatch[], mainRows: number, batchRows: number, isForced: boolean): JobChoice {
  if (runs.length === 0) return null;
  let runRows = 0;
  for (const r of runs) runRows += r.rowCount;
  if (isForced || mainRows <= EAGER_MAIN_BATCHES * batchRows || runRows * MAIN_SHARE >= mainRows) return { kind: 'main' };
  // Only a contiguous newest stretch: rows of equal time must keep the order of the runs, and
  // the merged run takes the place of the runs it replaces.
  let from = runs.length;
  while (from > 0 && runs[from - 1].rowCount * 2 < batchRows) from--;
  const small = runs.length - from;
  if (small >= MAX_SMALL_RUNS) return { kind: 'runs', from };
  if (small < MIN_SMALL_RUNS) return null;
  let min = Infinity;
  let max = 0;
  for (let k = runs.length - MIN_SMALL_RUNS; k < runs.length; k++) {
    min = Math.min(min, runs[k].rowCount);
    max = Math.max(max, runs[k].rowCount);
  }
  return max <= SIZE_RATIO * min ? { kind: 'runs', from: runs.length - MIN_SMALL_RUNS } : null;
}
