// The mutable tail of a shard: rows appended since the last seal, in arrival order, copied into
// column buffers the tail owns. The buffers are sized from the previous seal (ingestion rates are
// steady, so most tails fill one allocation exactly) and become the sealed batch's arrays without
// another copy. Per in-order insert nothing is allocated: allocating and dropping a copy of every batch
// made V8 run a full mark-compact per ~64 MB of inserted data, which cost more than the copying.
// Regions already written never change, so views handed to readers stay valid while more rows
// are appended. A tail takes rows of any time (late rows included) and sorts them when sealed.
import { sortPermutation } from './sort-permutation.js';
import type { NormalizedBatch } from './batch-input.js';
import { gather64, permuteColumn } from './column-values.js';
import type { ColumnValues } from './column-values.js';
import { permuteRows } from './row-slices.js';
import type { TableLayout } from './table-layout.js';

type Numeric = Float64Array | BigInt64Array;
type TailColumn =
  | { readonly type: 'DOUBLE' | 'INT64' | 'TIMESTAMP'; values: Numeric; nulls: Uint8Array | null }
  | { readonly type: 'STRING' | 'SYMBOL' | 'BLOB'; values: unknown[] };

/** The smallest allocation: growing a tail a few rows at a time costs more than the bytes saved. */
const MIN_ROWS = 256;
/** A sealed tail may keep buffers up to 1/16 larger than its rows; beyond that it is copied to size. */
const MAX_SLACK_SHIFT = 4;

export class Tail {
  length = 0;
  private capacity = 0;
  private ts = new BigInt64Array(0);
  private columns: TailColumn[];
  /** True while every appended timestamp is >= the one before: sealing then needs no sort. */
  private isSorted = true;
  /** The earliest timestamp held (meaningful when length > 0). */
  minTs = 0n;
  /** True once late rows came in: such a tail's size says nothing about the in-order stream. */
  private hasLate = false;

  constructor(private readonly layout: TableLayout) {
    this.columns = this.emptyColumns();
  }

  /**
   * Copies rows [start, end) of a batch into the tail, or with `perm` the rows perm[start..end);
   * `min` is their earliest timestamp and `isSorted` says whether they are in time order. Late
   * rows (`isLate`: older than the shard's sealed data) trickle in, so their tail grows by
   * doubling from their size instead of taking the in-order stream's size hint at once.
   */
  append(batch: NormalizedBatch, perm: Uint32Array | null, start: number, end: number, min: bigint, isSorted: boolean, isLate: boolean): void {
    const n = end - start;
    if (n <= 0) return;
    const first = batch.ts[perm === null ? start : perm[start]];
    if (!isSorted || (this.length > 0 && first < this.ts[this.length - 1])) this.isSorted = false;
    if (this.length === 0 || min < this.minTs) this.minTs = min;
    if (isLate) this.hasLate = true;
    this.reserve(this.length + n, isLate);
    const at = this.length;
    copy64(batch.ts, this.ts, perm, start, end, at);
    for (let c = 0; c < this.columns.length; c++) {
      const dst = this.columns[c];
      const src = batch.columns[c];
      if (dst.type === 'DOUBLE' || dst.type === 'INT64' || dst.type === 'TIMESTAMP') {
        const { values, nulls } = src as { values: Numeric; nulls: Uint8Array | null };
        copy64(values, dst.values, perm, start, end, at);
        if (nulls === null) continue;
        dst.nulls ??= new Uint8Array(this.capacity);
        if (perm === null) dst.nulls.set(nulls.subarray(start, end), at);
        else for (let i = start; i < end; i++) dst.nulls[at + i - start] = nulls[perm[i]];
      } else {
        const values = src.values as readonly unknown[];
        const list = dst.values as unknown[];
        for (let i = start; i < end; i++) list.push(values[perm === null ? i : perm[i]]);
      }
    }
    this.length += n;
  }

  /** The tail's rows sorted by timestamp (ties in arrival order), as views where no sort is needed. */
  sorted(): NormalizedBatch {
    const n = this.length;
    const rows: NormalizedBatch = {
      ts: this.ts.subarray(0, n),
      columns: this.columns.map((col): ColumnValues => (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP'
        ? { type: col.type, values: col.values.subarray(0, n), nulls: col.nulls?.subarray(0, n) ?? null }
        : { type: col.type, values: col.values.slice(0, n) }) as ColumnValues),
    };
    const perm = this.isSorted ? null : sortPermutation(rows.ts);
    return perm === null ? rows : permuteRows(rows, perm);
  }

  /**
   * Empties the tail and returns its rows sorted, in arrays no one will write again: the tail's
   * own buffers when they fit the rows closely, exact-size copies otherwise. The row count
   * becomes the size hint of the next tail of this table.
   */
  take(): NormalizedBatch {
    const n = this.length;
    let rows = this.sorted();
    if (rows.ts.buffer === this.ts.buffer && this.capacity - n > n >> MAX_SLACK_SHIFT) {
      rows = { ts: rows.ts.slice(), columns: rows.columns.map((c) => permuteColumn(c, null, 0, n)) };
    }
    if (!this.hasLate) this.layout.tailRowsHint = n;
    this.hasLate = false;
    this.length = 0;
    this.capacity = 0;
    this.ts = new BigInt64Array(0);
    this.columns = this.emptyColumns();
    this.isSorted = true;
    return rows;
  }

  /** Grows the buffers to hold `rows` rows: first to the hinted size, then by doubling. */
  private reserve(rows: number, isLate: boolean): void {
    if (rows <= this.capacity) return;
    const { batchRows, tailRowsHint } = this.layout;
    const hint = isLate ? MIN_ROWS : Math.max(MIN_ROWS, tailRowsHint + (tailRowsHint >> 6));
    const wanted = this.capacity === 0 ? hint : this.capacity * 2;
    const capacity = Math.max(rows, Math.min(batchRows, wanted));
    const n = this.length;
    const ts = new BigInt64Array(capacity);
    ts.set(this.ts.subarray(0, n));
    this.ts = ts;
    for (const col of this.columns) {
      if (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP') {
        const values = col.type === 'DOUBLE' ? new Float64Array(capacity) : new BigInt64Array(capacity);
        (values as Float64Array).set((col.values as Float64Array).subarray(0, n));
        col.values = values;
        if (col.nulls !== null) {
          const nulls = new Uint8Array(capacity);
          nulls.set(col.nulls.subarray(0, n));
          col.nulls = nulls;
        }
      }
    }
    this.capacity = capacity;
  }

  private emptyColumns(): TailColumn[] {
    return this.layout.columns.map(({ type }): TailColumn => (type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP'
      ? { type, values: type === 'DOUBLE' ? new Float64Array(0) : new BigInt64Array(0), nulls: null }
      : { type, values: [] }));
  }
}

/** Rows [start, end) of `src` (through `perm` when given) into `dst` from row `at`. */
function copy64(src: Numeric, dst: Numeric, perm: Uint32Array | null, start: number, end: number, at: number): void {
  if (perm === null) (dst as Float64Array).set((src as Float64Array).subarray(start, end), at);
  else gather64(src, dst.subarray(at), perm, start, end - start);
}
