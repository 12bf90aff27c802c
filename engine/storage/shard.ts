// One time shard of a table: immutable sorted batches that never overlap, plus a mutable tail
// whose rows are all at or after the last sealed timestamp. Rows older than that ("late" rows)
// are merged into the sealed batches at once, so a scan is always a simple ordered walk.
import { buildBatch } from './batch-builder.js';
import { batchColumns } from './batch-columns.js';
import { permuteColumn } from './column-values.js';
import { sortPermutation } from './batch-input.js';
import type { NormalizedBatch } from './batch-input.js';
import { concatRows, permuteRows, sliceRows } from './row-slices.js';
import { Tail } from './tail.js';
import type { TableLayout } from './table-layout.js';
import type { BatchView } from '../types.js';

export class Shard {
  readonly batches: BatchView[] = [];
  private readonly tail: Tail;
  /** The tail materialized as a batch for readers; dropped whenever the tail changes. */
  private tailView: BatchView | null = null;

  constructor(private readonly layout: TableLayout) {
    this.tail = new Tail(layout);
  }

  get rowCount(): number {
    let n = this.tail.length;
    for (const b of this.batches) n += b.rowCount;
    return n;
  }

  /**
   * Adds rows [start, end) of a sorted batch, all of which belong to this shard. The tail is
   * sealed the moment it holds `batchRows` rows, and what is left of the batch is then checked
   * against the new last sealed timestamp again (an unsorted tail may have sealed later rows).
   */
  insert(batch: NormalizedBatch, start: number, end: number): void {
    while (start < end) {
      const last = this.batches.length === 0 ? null : this.batches[this.batches.length - 1].maxTs;
      let split = start;
      if (last !== null) while (split < end && batch.ts[split] < last) split++;
      if (split > start) this.mergeLate(batch, start, split);
      if (split === end) return;
      const stop = Math.min(end, split + this.layout.batchRows - this.tail.length);
      this.tail.append(batch, split, stop);
      this.tailView = null;
      if (this.tail.length >= this.layout.batchRows) this.seal();
      start = stop;
    }
  }

  /** Turns the tail into a sealed batch (it never holds more than `batchRows` rows). */
  seal(): void {
    if (this.tail.length === 0) return;
    const rows = this.tail.take();
    this.tailView = null;
    this.batches.push(this.build(rows));
  }

  /** Sealed batches plus the tail view, all in timestamp order. */
  views(): BatchView[] {
    if (this.tail.length === 0) return this.batches;
    this.tailView ??= this.build(this.tail.sorted());
    return [...this.batches, this.tailView];
  }

  /** Adds a batch loaded from a checkpoint (they arrive in order). */
  restore(view: BatchView): void {
    this.batches.push(view);
  }

  /**
   * Rewrites only the sealed batches that the late rows [start, end) fall among: those ending
   * after the earliest late row and starting at or before the latest one (a batch starting at
   * exactly that time holds earlier-inserted ties, which must stay first).
   */
  private mergeLate(batch: NormalizedBatch, start: number, end: number): void {
    const lateMin = batch.ts[start];
    const lateMax = batch.ts[end - 1];
    let k = this.batches.length;
    while (k > 0 && this.batches[k - 1].maxTs > lateMin) k--;
    let m = k;
    while (m < this.batches.length && this.batches[m].minTs <= lateMax) m++;
    const parts = this.batches.slice(k, m).map((b) => batchColumns(b, this.layout.columns));
    parts.push(sliceRows(batch, start, end));
    const merged = concatRows(parts);
    const perm = sortPermutation(merged.ts);
    const sorted = perm === null ? merged : permuteRows(merged, perm);
    this.batches.splice(k, m - k, ...this.chunks(sorted));
  }

  /** Sorted rows as sealed batches of at most `batchRows` rows. */
  private chunks(rows: NormalizedBatch): BatchView[] {
    const size = this.layout.batchRows;
    const out: BatchView[] = [];
    for (let at = 0; at < rows.ts.length; at += size) {
      const end = Math.min(rows.ts.length, at + size);
      const whole = at === 0 && end === rows.ts.length;
      out.push(this.build(whole ? rows : {
        ts: rows.ts.slice(at, end),
        columns: rows.columns.map((c) => permuteColumn(c, null, at, end)),
      }));
    }
    return out;
  }

  private build(rows: NormalizedBatch): BatchView {
    return buildBatch(this.layout.schema, rows.ts, rows.columns, this.layout.dictionaries);
  }
}
