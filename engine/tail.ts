// The mutable tail of a shard: rows appended since the last seal, in arrival order. It holds
// views of the inserted (engine-owned, immutable) batches rather than copies; sealing or reading
// concatenates them once and sorts (stably) only when some row arrived out of order.
import { sortPermutation } from './batch-input.js';
import type { NormalizedBatch } from './batch-input.js';
import { concatRows, permuteRows, sliceRows } from './row-slices.js';

export class Tail {
  length = 0;
  private parts: NormalizedBatch[] = [];
  /** True while every appended timestamp is >= the one before: sealing then needs no sort. */
  private isSorted = true;
  private lastTs = 0n;

  /** Appends rows [start, end) of a timestamp-sorted batch. */
  append(batch: NormalizedBatch, start: number, end: number): void {
    if (end <= start) return;
    if (this.length > 0 && batch.ts[start] < this.lastTs) this.isSorted = false;
    this.parts.push(sliceRows(batch, start, end));
    this.lastTs = batch.ts[end - 1];
    this.length += end - start;
  }

  /** The tail's rows sorted by timestamp (ties in arrival order), in fresh exact-size arrays. */
  sorted(): NormalizedBatch {
    const rows = concatRows(this.parts);
    // Keep the concatenation: later appends add to it instead of re-copying every part.
    this.parts = [rows];
    const perm = this.isSorted ? null : sortPermutation(rows.ts);
    return perm === null ? rows : permuteRows(rows, perm);
  }

  clear(): void {
    this.length = 0;
    this.parts = [];
    this.isSorted = true;
  }
}
