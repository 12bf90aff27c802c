// The one door to a sealed batch's column data. A sealed batch is immutable, timestamp-sorted and
// keeps its statistics in memory always; its columns are resident or, once a checkpoint has
// written the batch, possibly evicted, and read back from the checkpoint file on demand. A
// reader loads the columns it needs (load/loadSync pin them), reads them with column(i) and
// unpins them when done; statistics, row count and time bounds never need a load. A large scan
// loads through its ring (memory/read-ring.ts): what it reads back stays only while pinned,
// in the ring's buffers, and never joins the cache.
//
// It is also the one place where a batch written before a column was added to its table reads
// that column as all null (ALTER TABLE … ADD COLUMN): column(i) and statsOf(i) past the batch's
// own columns answer for the schema's column i with nulls, and the checkpoint writes such a
// batch padded with them.
import { makeData } from 'apache-arrow';
import type { Data, DataType, Vector } from 'apache-arrow';
import type { ColumnMemory, Evictable, MemoryBudget, ReadRing } from '../memory/index.js';
import type { ColumnStats, ColumnType } from '../types.js';
import type { TableLayout } from './table-layout.js';

/** Where a checkpoint file holds a batch, and how to read its columns back from there. */
export interface StoredBatch {
  /** The checkpoint file and the batch's index in it. */
  readonly file: string;
  readonly index: number;
  /** Bytes column i takes in memory once read back. */
  bytesOf(column: number): number;
  /**
   * Columns `columns` (ascending) read back and checked, as Arrow Data over memory from
   * `allocate` (one buffer per column, at its offset 0).
   */
  read(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Promise<Data[]>;
  /** The same, synchronously (a reader that cannot wait: an ordered scan merging late rows). */
  readSync(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Data[];
}

/**
 * What an operator reads of a batch whose columns are loaded: its size, time bounds, columns and
 * statistics. A SealedBatch is one; so is a batch a worker thread sees over shared memory
 * (query/exec/scan/shared-batch.ts).
 */
export interface BatchView {
  readonly rowCount: number;
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly ts: BigInt64Array;
  column(index: number): Data;
  statsOf(index: number): ColumnStats;
}

/** Memory for read-back columns when the batch has no budget to take it from. */
const allocateFresh = (bytes: number) => new Uint8Array(bytes);

/** One column of one batch: the unit of residency, eviction and read-back. */
class ColumnChunk implements Evictable {
  pins = 0;
  loading: Promise<void> | null = null;
  lruPrev: Evictable | null = null;
  lruNext: Evictable | null = null;
  isCached = false;
  /** The budget's buffer the data lies in, when read back (returned on eviction). */
  pooled: ColumnMemory | null = null;
  /** The ring `pooled` belongs to while a large scan's read-back is pinned (never cached then). */
  ring: ReadRing | null = null;

  constructor(public data: Data | null, public bytes: number) {}

  evict(): ColumnMemory | null {
    const buffer = this.pooled;
    this.data = null;
    this.pooled = null;
    return buffer;
  }
}

export class SealedBatch implements BatchView {
  private readonly chunks: ColumnChunk[];
  /** Set once a durable checkpoint holds the batch: from then on its columns may leave memory. */
  private storedAt: StoredBatch | null = null;
  /**
   * The batch left its table (merged by compaction, or the table dropped): it leaves the budget,
   * and its memory is freed with the batch once no reader (a query's snapshot) holds it.
   */
  private isRetired = false;

  /**
   * `data`: the batch's columns ([$timestamp, ...schema columns of the moment]) when built in
   * memory, or null for a batch known only from a checkpoint (`stored`, with `columnCount`
   * columns). `budget` null: a tail's view, whose memory the tail already counts.
   */
  constructor(
    readonly layout: TableLayout,
    readonly rowCount: number,
    readonly minTs: bigint,
    readonly maxTs: bigint,
    readonly stats: readonly ColumnStats[],
    data: readonly Data[] | null,
    readonly budget: MemoryBudget | null,
    stored: StoredBatch | null = null,
  ) {
    if (data !== null) {
      this.chunks = data.map((d) => new ColumnChunk(d, dataBytes(d)));
      if (budget !== null) budget.hold(this.chunks.reduce((n, c) => n + c.bytes, 0));
    } else {
      this.storedAt = stored;
      this.chunks = stats.map((_, i) => new ColumnChunk(null, stored!.bytesOf(i)));
    }
  }

  /** Where a checkpoint holds the batch, or null while none does. */
  get stored(): StoredBatch | null {
    return this.storedAt;
  }

  /** Bytes of the batch's columns in memory, resident or not. */
  get bytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.bytes;
    return n;
  }

  /**
   * Column `index` (0 = `$timestamp`, i+1 = schema column i) as Arrow Data. It must be loaded
   * (and pinned) — or be a column added after the batch was written, which reads as all null.
   */
  column(index: number): Data {
    if (index >= this.chunks.length) return this.layout.nullData(index, this.rowCount);
    const data = this.chunks[index].data;
    if (data === null) throw new Error(`column ${index} of a batch was read without being loaded`);
    return data;
  }

  /** The batch's timestamps (column 0, which must be loaded). */
  get ts(): BigInt64Array {
    return this.column(0).values as BigInt64Array;
  }

  /** Statistics of column `index`; a column added after the batch was written is all null. */
  statsOf(index: number): ColumnStats {
    return index < this.stats.length ? this.stats[index] : allNullStats(this.layout.columns[index - 1].type, this.rowCount);
  }

  /** Bytes of `columns` a load would read back now (neither resident nor being read). */
  bytesToRead(columns: readonly number[]): number {
    let n = 0;
    for (const i of columns) {
      const c = this.chunks[i];
      if (c !== undefined && c.data === null && c.loading === null) n += c.bytes;
    }
    return n;
  }

  /**
   * Pins `columns` and makes them resident: null when they already are (read them at once),
   * else a promise that resolves once they are read back — into `ring`'s buffers, uncached and
   * released at the last unpin, when given. Either way unpin(columns) later, also after a
   * failure.
   */
  load(columns: readonly number[], ring: ReadRing | null = null): Promise<void> | null {
    let missing: number[] | null = null;
    let waits: Promise<void>[] | null = null;
    for (const i of columns) {
      if (i >= this.chunks.length) continue;
      const c = this.chunks[i];
      c.pins += 1;
      if (c.data !== null) this.budget?.touch(c);
      else if (c.loading !== null) (waits ??= []).push(c.loading);
      else (missing ??= []).push(i);
    }
    if (missing !== null) (waits ??= []).push(this.readBack(missing, ring));
    if (waits === null) return null;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
  }

  /** Pins `columns` and makes them resident at once (read synchronously when evicted). */
  loadSync(columns: readonly number[]): void {
    const missing: number[] = [];
    for (const i of columns) {
      if (i >= this.chunks.length) continue;
      const c = this.chunks[i];
      c.pins += 1;
      if (c.data !== null) this.budget?.touch(c);
      else missing.push(i);
    }
    if (missing.length === 0) return;
    this.place(missing, this.storedAt!.readSync(missing, this.allocate), null);
  }

  /**
   * Ends a load(columns) or loadSync(columns); what readers kept past the budget may leave now,
   * and what a ring read back leaves once no reader pins it.
   */
  unpin(columns: readonly number[]): void {
    for (const i of columns) {
      if (i >= this.chunks.length) continue;
      const c = this.chunks[i];
      c.pins -= 1;
      if (c.pins === 0 && c.ring !== null) {
        c.ring.give(c.pooled!);
        c.ring = null;
        c.pooled = null;
        c.data = null;
      }
    }
    if (this.budget !== null && this.budget.used > this.budget.limit) this.budget.makeRoom(0);
  }

  /** Every column, ascending (what compaction and checkpoints read). */
  get allColumns(): number[] {
    return this.chunks.map((_, i) => i);
  }

  /**
   * A durable checkpoint holds the batch at `stored` (again, after a rewrite): from now on its
   * columns may leave memory, least recently used first.
   */
  markStored(stored: StoredBatch): void {
    const wasStored = this.storedAt !== null;
    this.storedAt = stored;
    if (wasStored || this.isRetired || this.budget === null) return;
    for (const c of this.chunks) {
      if (c.data === null) continue;
      this.budget.hold(-c.bytes);
      this.budget.cache(c);
    }
  }

  /**
   * The batch left its table for good: it leaves the budget. A query that listed it still reads
   * it (its memory goes with the query's snapshot).
   */
  retire(): void {
    if (this.isRetired) return;
    this.isRetired = true;
    if (this.budget === null) return;
    for (const c of this.chunks) {
      if (c.isCached) this.budget.uncache(c);
      else if (c.data !== null && this.storedAt === null) this.budget.hold(-c.bytes);
    }
  }

  /** Memory for read-back columns: from the budget (recycled when evicted). */
  private readonly allocate = (bytes: number): Uint8Array => this.budget?.allocate(bytes) ?? allocateFresh(bytes);

  private readBack(columns: number[], ring: ReadRing | null): Promise<void> {
    // A ring's buffers, one per column in order: they go back to it when the read fails.
    const taken: ColumnMemory[] = [];
    const allocate = ring === null ? this.allocate : (bytes: number) => {
      const into = ring.take(bytes);
      taken.push(into.buffer);
      return into;
    };
    const done = this.storedAt!.read(columns, allocate).then(
      (data) => this.place(columns, data, ring === null ? null : { ring, buffers: taken }),
      (e: unknown) => {
        for (const i of columns) this.chunks[i].loading = null;
        for (const buffer of taken) ring!.give(buffer);
        throw e;
      },
    );
    for (const i of columns) this.chunks[i].loading = done;
    return done;
  }

  /**
   * Read-back columns arrive: resident (and cached) while the batch lives, or, read into a
   * ring's buffers (`into.buffers[k]` holds column k), until no reader pins them. A column a
   * synchronous read placed meanwhile keeps that copy.
   */
  private place(columns: readonly number[], data: readonly Data[], into: { readonly ring: ReadRing; readonly buffers: readonly ColumnMemory[] } | null): void {
    columns.forEach((i, k) => {
      const c = this.chunks[i];
      const values = data[k].values as ArrayBufferView | undefined;
      c.loading = null;
      if (into !== null) {
        this.budget?.countReadBack(c.bytes);
        // No reader waits for it any more (the scan stopped), or another read placed it first.
        if (c.pins === 0 || c.data !== null) return into.ring.give(into.buffers[k]);
        c.data = data[k];
        c.ring = into.ring;
        c.pooled = into.buffers[k];
        return;
      }
      if (c.data !== null) return;
      c.data = data[k];
      // Retired batches' memory is not recycled: an old query may still read it.
      c.pooled = this.budget !== null && !this.isRetired && values !== undefined ? values.buffer : null;
      c.bytes = c.pooled?.byteLength ?? dataBytes(data[k]);
      if (!this.isRetired) this.budget?.readBack(c);
    });
  }
}

/** Bytes of a column's buffers (a SYMBOL column's table-wide dictionary is not the batch's). */
export function dataBytes(d: Data): number {
  return (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0);
}

/** Statistics of an all-null column of `n` rows (as batch-stats.ts computes them: no value sums to 0). */
function allNullStats(type: ColumnType, n: number): ColumnStats {
  const sum = type === 'DOUBLE' ? 0 : type === 'INT64' ? 0n : null;
  return {
    count: 0, nullCount: n, min: null, max: null, minRow: -1, maxRow: -1, sum, firstRow: -1, lastRow: -1,
    minTime: null, maxTime: null, firstTime: null, lastTime: null, first: null, last: null,
  };
}
