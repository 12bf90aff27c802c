// The mutable tail of a shard: rows appended since the last seal, in arrival order, copied into
// column buffers the tail owns. The buffers are sized from the previous seal (ingestion rates are
// steady, so most tails fill one allocation exactly) and become the sealed batch's arrays without
// another copy. Per in-order insert nothing is allocated: allocating and dropping a copy of every batch
// made V8 run a full mark-compact per ~64 MB of inserted data, which cost more than the copying.
// Regions already written never change, so views handed to readers stay valid while more rows
// are appended. A tail takes rows of any time (late rows included) and sorts them when sealed.
import { sortPermutation } from './sort-permutation.js';
import type { NormalizedBatch } from './batch-input.js';
import { bits64, permuteColumn } from './column-values.js';
import type { ColumnValues } from './column-values.js';
import { permuteInPlace, permuteRows } from './row-slices.js';
import { scratchI32 } from './scratch.js';
import { firstLater, mergeOrder, moveMerged, moveMergedBytes, moveMergedList, rowOrder } from './tail-merge.js';
import type { TableLayout } from './table-layout.js';
import type { ColumnDef } from '../types.js';

type Numeric = Float64Array | BigInt64Array;
type TailColumn =
  | { readonly type: 'DOUBLE' | 'INT64' | 'TIMESTAMP'; values: Numeric; nulls: Uint8Array | null }
  | { readonly type: 'STRING' | 'SYMBOL' | 'BLOB' | 'BOOLEAN'; values: unknown[] };

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
  /** True once sorted() handed out views of the buffers: rows written so far must not change. */
  private isShared = false;
  /** Float64 views of `ts` (index 0) and of each 64-bit column (c + 1; null for other types). */
  private bits: (Float64Array | null)[];

  constructor(private readonly layout: TableLayout) {
    this.columns = this.emptyColumns();
    this.bits = this.bitViews();
  }

  /**
   * Bytes the tail holds: its buffers, and 32 per string, symbol or blob value (a list slot and
   * a short string: an estimate, so that appends never walk the values' contents).
   */
  get bytes(): number {
    let bytes = this.ts.byteLength;
    for (const col of this.columns) {
      if ('nulls' in col) bytes += col.values.byteLength + (col.nulls?.byteLength ?? 0);
      else bytes += col.values.length * LIST_VALUE_BYTES;
    }
    return bytes;
  }

  /**
   * Copies rows [start, end) of a batch into the tail, or with `perm` the rows perm[start..end);
   * `min` is their earliest timestamp and `isSorted` says whether they are in time order. Late
   * rows (`isLate`: older than the shard's sealed data) trickle in, so their tail grows by
   * doubling from their size instead of taking the in-order stream's size hint at once. 64-bit
   * values move as raw float64 bits through views made once per insert (`src`) and once per
   * allocation (the tail's own): an insert spread over hundreds of shards appends a few dozen rows
   * to each, where making views per call cost more than the copying.
   */
  append(src: SourceRows, perm: Uint32Array | null, start: number, end: number, min: bigint, isSorted: boolean, isLate: boolean): void {
    const n = end - start;
    if (n <= 0) return;
    const batch = src.batch;
    const firstRow = perm === null ? start : perm[start];
    const isInOrder = isSorted && (this.length === 0 || batch.ts[firstRow] >= this.ts[this.length - 1]);
    if (!isInOrder && this.isSorted && n >= MERGE_ROWS && this.mergeIn(src, perm, start, end, min, isLate)) return;
    if (!isInOrder) this.isSorted = false;
    if (this.length === 0 || min < this.minTs) this.minTs = min;
    if (isLate) this.hasLate = true;
    this.reserve(this.length + n, isLate);
    const at = this.length;
    for (let c = 0; c <= this.columns.length; c++) {
      const to = this.bits[c];
      if (to !== null) {
        if (n <= FEW_ROWS) copyFew(c === 0 ? batch.ts : (batch.columns[c - 1].values as Numeric), c === 0 ? this.ts : (this.columns[c - 1].values as Numeric), perm, start, end, at);
        else copyBits(src.bits(c)!, to, perm, start, end, at);
      }
      if (c === 0) continue;
      const dst = this.columns[c - 1];
      const col = batch.columns[c - 1];
      if (dst.type === 'DOUBLE' || dst.type === 'INT64' || dst.type === 'TIMESTAMP') {
        const nulls = (col as { nulls: Uint8Array | null }).nulls;
        if (nulls === null) continue;
        dst.nulls ??= new Uint8Array(this.capacity);
        if (perm === null) dst.nulls.set(nulls.subarray(start, end), at);
        else for (let i = start; i < end; i++) dst.nulls[at + i - start] = nulls[perm[i]];
      } else {
        const values = col.values as readonly unknown[];
        const list = dst.values as unknown[];
        for (let i = start; i < end; i++) list.push(values[perm === null ? i : perm[i]]);
      }
    }
    this.length += n;
  }

  /**
   * Appends rows out of order with a sorted tail's end and keeps it sorted (tail-merge.ts): the
   * rows are sorted and merged in, moving only the tail rows later than their earliest. Returns
   * false, having done nothing, when that would move more tail rows than it appends.
   */
  private mergeIn(src: SourceRows, perm: Uint32Array | null, start: number, end: number, min: bigint, isLate: boolean): boolean {
    const n = end - start;
    const batch = src.batch;
    const len = this.length;
    // Known from the earliest row alone: an append that would give up is not sorted first.
    const p = firstLater(this.ts, len, min);
    if (len - p > n) return false;
    const rows = rowOrder(batch.ts, perm, start, end);
    if (len === 0 || min < this.minTs) this.minTs = min;
    if (isLate) this.hasLate = true;
    // Rows a reader holds must not change: rows from p move, so the tail takes fresh buffers.
    this.reserve(len + n, isLate, this.isShared && p < len);
    const merge = mergeOrder(this.ts, p, len, rows);
    for (let c = 0; c <= this.columns.length; c++) {
      const to = this.bits[c];
      if (to !== null) moveMerged(to, src.bits(c)!, perm, start, merge, p);
      if (c === 0) continue;
      const dst = this.columns[c - 1];
      const col = batch.columns[c - 1];
      if (dst.type === 'DOUBLE' || dst.type === 'INT64' || dst.type === 'TIMESTAMP') {
        const nulls = (col as { nulls: Uint8Array | null }).nulls;
        if (nulls !== null || dst.nulls !== null) moveMergedBytes(this.nullsOf(c - 1), nulls, perm, start, merge, p);
      } else {
        moveMergedList(dst.values as unknown[], col.values as readonly unknown[], perm, start, merge, p);
      }
    }
    this.length = len + n;
    return true;
  }

  /**
   * Makes room for `n` rows of an insert spread over many tails, earliest `min`, that
   * Tail.scatter() then writes: the first half of an append.
   */
  open(n: number, min: bigint, isLate: boolean): void {
    this.isSorted = false;
    if (this.length === 0 || min < this.minTs) this.minTs = min;
    if (isLate) this.hasLate = true;
    this.reserve(this.length + n, isLate);
  }

  /**
   * Appends row i of `src` to tails[part[i]] for every row whose tail is not null (each opened for
   * its rows), in row order. One pass over the rows per column, reading them in order and writing
   * to the few hundred tails they spread over: reading an insert's rows shard by shard instead
   * missed the cache on nearly every value, as their rows lie hundreds of rows apart.
   */
  static scatter(src: SourceRows, part: Int32Array, tails: readonly (Tail | null)[]): void {
    const n = part.length;
    const first = tails.find((t) => t !== null);
    if (first === undefined) return;
    // Rows of tails not taken are written to a scratch tail and dropped: no branch per row.
    let sink: Tail | null = null;
    if (tails.includes(null)) { sink = new Tail(first.layout); sink.reserve(n, true); }
    const live = tails.map((t) => t ?? sink!);
    const pos = scratchI32('tail.scatter.pos', live.length);
    for (let c = 0; c <= src.batch.columns.length; c++) {
      const from = src.bits(c);
      if (from !== null) {
        for (let k = 0; k < live.length; k++) pos[k] = live[k].length;
        scatterBits(from, part, live.map((t) => t.bits[c]!), pos);
      }
      if (c === 0) continue;
      const col = src.batch.columns[c - 1];
      if (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP') {
        if (col.nulls === null) continue;
        for (let k = 0; k < live.length; k++) pos[k] = live[k].length;
        scatterBytes(col.nulls, part, live.map((t) => t.nullsOf(c - 1)), pos);
      } else {
        const lists = live.map((t) => t.columns[c - 1].values as unknown[]);
        for (let i = 0; i < n; i++) lists[part[i]].push(col.values[i]);
      }
    }
    const counts = scratchI32('tail.scatter.counts', live.length).fill(0);
    for (let i = 0; i < n; i++) counts[part[i]]++;
    for (let k = 0; k < live.length; k++) live[k].length += counts[k];
    if (sink !== null) sink.length = 0;
  }

  /** The null mask of 64-bit column c, made when first needed. */
  private nullsOf(c: number): Uint8Array {
    const col = this.columns[c] as { nulls: Uint8Array | null };
    return (col.nulls ??= new Uint8Array(this.capacity));
  }

  /**
   * The tail's rows sorted by timestamp (ties in arrival order), as views of its buffers. An
   * unsorted tail is sorted in place first (in fresh buffers when a reader holds views of these),
   * so it stays sorted: a later read or the seal sorts only what came after.
   */
  sorted(): NormalizedBatch {
    const n = this.length;
    if (!this.isSorted) {
      const perm = sortPermutation(this.ts.subarray(0, n));
      if (perm !== null) {
        if (this.isShared) this.reserve(n, false, true);
        permuteInPlace(this.bits.filter((b): b is Float64Array => b !== null).map((b) => b.subarray(0, n)), this.nullMasks(), this.lists(), perm);
      }
      this.isSorted = true;
    }
    this.isShared = true;
    return this.views();
  }

  /**
   * Empties the tail and returns its rows sorted, in arrays no one will write again: the tail's
   * own buffers when they fit the rows closely, exact-size copies otherwise (an unsorted tail is
   * then permuted straight into them rather than sorted in place and copied). The row count
   * becomes the size hint of the next tail of this table.
   */
  take(): NormalizedBatch {
    const n = this.length;
    const isLoose = this.capacity - n > n >> MAX_SLACK_SHIFT;
    let rows: NormalizedBatch;
    if (isLoose && !this.isSorted) {
      const perm = sortPermutation(this.ts.subarray(0, n));
      rows = perm === null ? exactCopy(this.views()) : permuteRows(this.views(), perm);
    } else {
      rows = this.sorted();
      if (isLoose) rows = exactCopy(rows);
    }
    if (!this.hasLate) this.layout.tailRowsHint = n;
    this.hasLate = false;
    this.length = 0;
    this.capacity = 0;
    this.ts = new BigInt64Array(0);
    this.columns = this.emptyColumns();
    this.bits = this.bitViews();
    this.isSorted = true;
    this.isShared = false;
    return rows;
  }

  /** Views of the tail's rows in arrival order (lists are copied shallowly). */
  private views(): NormalizedBatch {
    const n = this.length;
    return {
      ts: this.ts.subarray(0, n),
      columns: this.columns.map((col): ColumnValues => (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP'
        ? { type: col.type, values: col.values.subarray(0, n), nulls: col.nulls?.subarray(0, n) ?? null }
        : { type: col.type, values: col.values.slice(0, n) }) as ColumnValues),
    };
  }

  /** The rows' null masks of the 64-bit columns that have one. */
  private nullMasks(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const col of this.columns) if ('nulls' in col && col.nulls !== null) out.push(col.nulls.subarray(0, this.length));
    return out;
  }

  /** The value lists of string, symbol and blob columns. */
  private lists(): unknown[][] {
    const out: unknown[][] = [];
    for (const col of this.columns) if (!('nulls' in col)) out.push(col.values);
    return out;
  }

  /**
   * Grows the buffers to hold `rows` rows: first to the hinted size, then by doubling. `isFresh`:
   * new buffers even when the rows fit, of the same size then (readers hold views of these).
   */
  private reserve(rows: number, isLate: boolean, isFresh = false): void {
    if (rows <= this.capacity && !isFresh) return;
    const { batchRows, tailRowsHint } = this.layout;
    const hint = isLate ? MIN_ROWS : Math.max(MIN_ROWS, tailRowsHint + (tailRowsHint >> 6));
    const wanted = this.capacity === 0 ? hint : rows <= this.capacity ? this.capacity : this.capacity * 2;
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
    this.bits = this.bitViews();
    this.isShared = false;
  }

  /** Appends null columns (the table's schema grew): the rows held read them as null. */
  addColumns(columns: readonly ColumnDef[]): void {
    for (const { type } of columns) {
      if (type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP') {
        const nulls = new Uint8Array(this.capacity);
        nulls.fill(1, 0, this.length);
        this.columns.push({ type, values: type === 'DOUBLE' ? new Float64Array(this.capacity) : new BigInt64Array(this.capacity), nulls });
      } else {
        this.columns.push({ type, values: new Array<null>(this.length).fill(null) });
      }
    }
    this.bits = this.bitViews();
  }

  private bitViews(): (Float64Array | null)[] {
    return [bits64(this.ts), ...this.columns.map((c) => (c.type === 'DOUBLE' || c.type === 'INT64' || c.type === 'TIMESTAMP' ? bits64(c.values) : null))];
  }

  private emptyColumns(): TailColumn[] {
    return this.layout.columns.map(({ type }): TailColumn => (type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP'
      ? { type, values: type === 'DOUBLE' ? new Float64Array(0) : new BigInt64Array(0), nulls: null }
      : { type, values: [] }));
  }
}

/**
 * An insert's rows with views made on first use and kept for the rest of the insert: `ts` as Int32
 * word pairs for comparing timestamps, and float64 views of `ts` (column 0) and of each 64-bit
 * column (c + 1; null for other types) for moving values. Appends of a few rows (late single-row
 * inserts) never ask for them: making five views cost more than the insert.
 */
export class SourceRows {
  private words: Int32Array | null = null;
  private readonly bitViews: (Float64Array | null | undefined)[] = [];

  constructor(readonly batch: NormalizedBatch) {}

  /** The float64 view of column c (0 = ts), or null when it does not hold 64-bit values. */
  bits(c: number): Float64Array | null {
    let v = this.bitViews[c];
    if (v === undefined) {
      const col = c === 0 ? null : this.batch.columns[c - 1];
      v = c === 0 ? bits64(this.batch.ts) : col!.type === 'DOUBLE' || col!.type === 'INT64' || col!.type === 'TIMESTAMP' ? bits64(col!.values) : null;
      this.bitViews[c] = v;
    }
    return v;
  }

  /** `ts` as Int32 word pairs, for comparing timestamps without a BigInt each. */
  get tsWords(): Int32Array {
    return (this.words ??= words64(this.batch.ts));
  }
}

/** The rows of an insert, read through views made as needed. */
export function sourceRows(batch: NormalizedBatch): SourceRows {
  return new SourceRows(batch);
}

/** `rows` in fresh arrays of exactly their size. */
function exactCopy(rows: NormalizedBatch): NormalizedBatch {
  const n = rows.ts.length;
  return { ts: rows.ts.slice(), columns: rows.columns.map((c) => permuteColumn(c, null, 0, n)) };
}

function words64(values: Numeric): Int32Array {
  return new Int32Array(values.buffer, values.byteOffset, values.length * 2);
}


/** What a tail counts per string, symbol or blob value it holds (see Tail.bytes). */
const LIST_VALUE_BYTES = 32;

/** Appends of fewer rows than this that are out of order just mark the tail unsorted. */
const MERGE_ROWS = 64;

/** Appends of up to this many rows copy values one by one rather than through word views. */
const FEW_ROWS = 4;

/**
 * Rows [start, end) of `from` (through `perm`) into `to` from row `at`, value by value: a
 * BigInt per int64 value, and doubles keep their bits (V8 does not rewrite NaN payloads moving
 * a double from one Float64Array to another; only boxing into a JS array does).
 */
function copyFew(from: Numeric, to: Numeric, perm: Uint32Array | null, start: number, end: number, at: number): void {
  for (let i = start; i < end; i++) (to as Float64Array)[at + i - start] = (from as Float64Array)[perm === null ? i : perm[i]];
}

/** Value i of `from` to value pos[part[i]] of to[part[i]], advancing it. */
function scatterBits(from: Float64Array, part: Int32Array, to: readonly Float64Array[], pos: Int32Array): void {
  for (let i = 0; i < part.length; i++) {
    const k = part[i];
    to[k][pos[k]++] = from[i];
  }
}

/** Byte i of `from` to byte pos[part[i]] of to[part[i]], advancing it. */
function scatterBytes(from: Uint8Array, part: Int32Array, to: readonly Uint8Array[], pos: Int32Array): void {
  for (let i = 0; i < part.length; i++) {
    const k = part[i];
    to[k][pos[k]++] = from[i];
  }
}

/** Rows [start, end) of `from` (through `perm` when given) into `to` from row `at`. */
function copyBits(from: Float64Array, to: Float64Array, perm: Uint32Array | null, start: number, end: number, at: number): void {
  if (perm === null) {
    if (end - start > 64) { to.set(from.subarray(start, end), at); return; }
    for (let i = start; i < end; i++) to[at++] = from[i];
    return;
  }
  for (let i = start; i < end; i++) to[at++] = from[perm[i]];
}
