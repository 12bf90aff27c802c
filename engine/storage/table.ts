// A time-series table: schema plus time shards. Inserts group a batch's rows by shard, in any
// order (an unsorted insert is scattered into the shards' tails in one pass per column, and
// tails the stream has left behind are sealed); scans walk the shards overlapping a range in time order. Reads see sealed batches and a
// sorted view of each tail, so results never depend on when a tail was sealed. Late rows wait in
// runs that a background compactor merges (shard.ts); a scan merges those it meets first.
import type { NormalizedBatch } from './batch-input.js';
import { Compactor } from './compactor.js';
import { partitionByShard } from './shard-partition.js';
import type { ShardParts } from './shard-partition.js';
import { Shard } from './shard.js';
import { sourceRows, Tail } from './tail.js';
import type { SourceRows } from './tail.js';
import { TableLayout } from './table-layout.js';
import type { SealedBatch } from './sealed-batch.js';
import { unboundedContext } from './storage-context.js';
import type { StorageContext } from './storage-context.js';
import type { ColumnDef, TimeToLive } from '../types.js';
import { INT64_MIN, addDuration } from '../../grammar/index.js';
import { applyShard, prepareShard, PreparedRemoval } from './row-removal.js';
import type { RowRemoval } from './row-removal.js';

export const DAY_NS = 86_400_000_000_000n;
export const DEFAULT_BATCH_ROWS = 65_536;

export class Table {
  readonly layout: TableLayout;
  /** Shards by id (floor(ts / shardSize)); `order` keeps the ids sorted for scans. */
  private readonly shards = new Map<bigint, Shard>();
  private order: bigint[] = [];
  /** Shards that unsorted inserts wrote to since they were last left behind (see sealPassed). */
  private readonly spreadShards = new Map<bigint, Shard>();
  private readonly compactor = new Compactor();
  /** Rows older than now − ttl are gone (SPEC §14); null keeps them. Set by CREATE and ALTER … TTL. */
  ttl: TimeToLive | null = null;

  constructor(
    readonly name: string,
    columns: readonly ColumnDef[],
    readonly shardSize: bigint = DAY_NS,
    readonly context: StorageContext = unboundedContext(DEFAULT_BATCH_ROWS),
  ) {
    this.layout = new TableLayout(columns, context.batchRows, context.budget);
  }

  /**
   * The earliest time a read at `nowNs` returns: now − ttl, or INT64_MIN without a TTL. Rows
   * before it are gone for every read, whether or not their shard has left yet.
   */
  visibleFrom(nowNs: bigint): bigint {
    if (this.ttl === null) return INT64_MIN;
    const floor = addDuration(nowNs, { ...this.ttl, calendarUnit: null }, -1);
    return floor < INT64_MIN ? INT64_MIN : floor;
  }

  /**
   * Removes every shard that ends at or before `time` (TTL, retention by size): its batches and
   * tail leave memory, and the next checkpoint no longer names them. Returns the rows removed.
   */
  dropShardsBefore(time: bigint): number {
    let rows = 0;
    const kept: bigint[] = [];
    for (const id of this.order) {
      if (this.shardEnd(id) > time) { kept.push(id); continue; }
      const shard = this.shards.get(id)!;
      rows += shard.rowCount;
      shard.drop();
      this.shards.delete(id);
      this.spreadShards.delete(id);
    }
    this.order = kept;
    return rows;
  }

  /** The shards as [start, end) spans with the batches each holds, oldest first (retention by size picks from these). */
  shardSpans(): { readonly start: bigint; readonly end: bigint; readonly batches: readonly SealedBatch[] }[] {
    return this.order.map((id) => ({ start: id * this.shardSize, end: this.shardEnd(id), batches: this.shards.get(id)!.storedViews() }));
  }

  private shardEnd(id: bigint): bigint {
    return (id + 1n) * this.shardSize;
  }

  /**
   * Work of a row removal done ahead of its apply (row-removal.ts): evicted batches read back,
   * outcomes computed and replacement batches built, without changing what readers see.
   */
  async prepareRemoval(removal: RowRemoval): Promise<PreparedRemoval> {
    const prepared = new PreparedRemoval(this.layout, this.context);
    try {
      for (const shard of this.shardsIn(removal)) await prepareShard(shard, removal, this.layout, prepared);
    } catch (e) {
      prepared.dispose();
      throw e;
    }
    return prepared;
  }

  /**
   * Removes the rows `removal` matches, synchronously, using what `prepared` computed where it
   * still applies (its unused work is then disposed). Returns the rows removed.
   */
  removeRows(removal: RowRemoval, prepared: PreparedRemoval | null = null): number {
    let removed = 0;
    try {
      for (const shard of this.shardsIn(removal)) removed += applyShard(shard, removal, this.layout, prepared);
    } finally {
      prepared?.dispose();
    }
    const kept = this.order.filter((id) => !this.shards.get(id)!.isEmpty);
    if (kept.length !== this.order.length) {
      for (const id of this.order) {
        if (!this.shards.get(id)!.isEmpty) continue;
        this.shards.delete(id);
        this.spreadShards.delete(id);
      }
      this.order = kept;
    }
    return removed;
  }

  /** The shards a removal's pieces overlap, in time order. */
  private shardsIn(removal: RowRemoval): Shard[] {
    const out: Shard[] = [];
    let k = 0;
    for (const id of this.order) {
      const start = id * this.shardSize;
      const end = this.shardEnd(id);
      while (k < removal.ranges.length && removal.ranges[k].to <= start) k++;
      if (k < removal.ranges.length && removal.ranges[k].from < end) out.push(this.shards.get(id)!);
    }
    return out;
  }

  /** The schema, `$timestamp` aside; it only grows (addColumns). */
  get columns(): readonly ColumnDef[] {
    return this.layout.columns;
  }

  /**
   * Appends columns: rows already in the table read them as null. Tails grow a null column;
   * sealed batches stay as written and read the new columns as null (SealedBatch.column).
   */
  addColumns(columns: readonly ColumnDef[]): void {
    this.layout.addColumns(columns);
    for (const shard of this.shards.values()) shard.addColumns(columns);
  }

  /** Index of a column in `columns`, or -1. */
  columnIndex(name: string): number {
    return this.columns.findIndex((c) => c.name === name);
  }

  get rowCount(): number {
    let n = 0;
    for (const s of this.shards.values()) n += s.rowCount;
    return n;
  }

  /** Inserts a normalized batch, its rows in any order: each shard gets its rows in their order. */
  insert(batch: NormalizedBatch): void {
    const parts = partitionByShard(batch.ts, this.shardSize, (ts) => this.shardOf(ts));
    const src = sourceRows(batch);
    if (parts.part !== null) return this.insertSpread(src, parts);
    for (let k = 0; k < parts.ids.length; k++) {
      this.shard(parts.ids[k], parts.isSorted).insert(src, parts.perm, parts.starts[k], parts.starts[k + 1], parts.isSorted);
    }
    // Unsorted rows already grouped by shard (see partitionByShard): they move the stream on as a
    // spread insert does, so shards they left behind are sealed the same way.
    if (!parts.isSorted) this.sealPassed(parts.ids);
  }

  /**
   * An unsorted insert over several shards: the rows of each shard that fits in its tail are
   * scattered there in one pass per column; a shard whose tail they would fill takes its rows
   * through Shard.insert, which seals as it goes.
   */
  private insertSpread(src: SourceRows, parts: ShardParts): void {
    const mins = parts.mins!;
    const tails = parts.ids.map((id, k) => this.shard(id).openTail(parts.starts[k + 1] - parts.starts[k], mins[k]));
    Tail.scatter(src, parts.part!, tails);
    tails.forEach((t, k) => {
      const shard = this.shard(parts.ids[k]);
      if (t === null) shard.insert(src, parts.perm, parts.starts[k], parts.starts[k + 1], false);
      else shard.countTail();
    });
    this.sealPassed(parts.ids);
  }

  /**
   * Seals the tails of shards that unsorted inserts filled and then left behind: a stream
   * shuffled within hours, or late by up to a day, moves on, and a shard older than every row of
   * the latest insert will rarely get more. Its tail is sorted now, while its rows are still in
   * the cache, and its size becomes the hint for the next tails (no growing by doubling). A fully
   * shuffled stream never leaves a shard behind, so nothing is sealed early there.
   */
  private sealPassed(ids: readonly bigint[]): void {
    const floor = ids[0];
    for (const [id, shard] of this.spreadShards) {
      if (id >= floor) continue;
      shard.seal();
      this.spreadShards.delete(id);
    }
    for (const id of ids) if (!this.spreadShards.has(id)) this.spreadShards.set(id, this.shards.get(id)!);
  }

  /**
   * Batches overlapping [from, to) in timestamp order, never overlapping each other, ties in
   * insertion order. A batch may extend past the range. The array is the caller's to keep, and
   * no batch in it ever changes.
   */
  scan(from: bigint, to: bigint): SealedBatch[] {
    return this.viewsIn(from, to, (shard) => shard.orderedViews());
  }

  /**
   * Batches overlapping [from, to) as stored, for reads whose answer does not depend on row
   * order (order-free aggregates): each batch is sorted, but they may overlap and come in any
   * order — per shard its merged batches, then its late runs in the order they were sealed, then
   * a sorted view of its tail, so rows of equal timestamp still come in insertion order. Unlike
   * scan() it neither seals a tail nor merges pending runs: the read does not pay for the
   * compaction. The array is the caller's to keep, and no batch in it ever changes.
   */
  scanUnordered(from: bigint, to: bigint): SealedBatch[] {
    return this.viewsIn(from, to, (shard) => shard.storedViews());
  }

  /**
   * The batches `views` gives of each shard overlapping [from, to), those overlapping the range.
   * The first shard is found by bisection: a narrow range of a table of many shards looks at a
   * few, not at every id.
   */
  private viewsIn(from: bigint, to: bigint, views: (shard: Shard) => SealedBatch[]): SealedBatch[] {
    const out: SealedBatch[] = [];
    if (from >= to) return out;
    const first = this.shardOf(from);
    const last = this.shardOf(to - 1n);
    let k = 0;
    for (let hi = this.order.length; k < hi;) {
      const m = (k + hi) >>> 1;
      if (this.order[m] < first) k = m + 1;
      else hi = m;
    }
    for (; k < this.order.length && this.order[k] <= last; k++) {
      for (const v of views(this.shards.get(this.order[k])!)) if (v.maxTs >= from && v.minTs < to) out.push(v);
    }
    return out;
  }

  /** Whether any shard holds late runs that compaction has not merged yet (for tests). */
  get hasRuns(): boolean {
    for (const s of this.shards.values()) if (s.hasRuns) return true;
    return false;
  }

  /**
   * Every batch as stored, tails included: what a checkpoint writes. Per shard in time order:
   * its merged batches, then its late runs in the order they were sealed (they may overlap).
   * Each is immutable, so a checkpoint may tell written ones apart by identity.
   */
  allBatches(): SealedBatch[] {
    return this.order.flatMap((id) => this.shards.get(id)!.storedViews());
  }

  /** Takes back a batch of allBatches(), called in the order allBatches() gave them. */
  restore(view: SealedBatch): void {
    this.shard(this.shardOf(view.minTs)).restore(view);
  }

  /** True while late runs wait for background compaction. */
  get isCompacting(): boolean {
    return !this.compactor.isIdle;
  }

  /** Stops background compaction for good (the table is closed or dropped); data stays readable. */
  stopCompaction(): void {
    this.compactor.stop();
  }

  /** Seals every shard's tail (memory pressure: sealed rows can be checkpointed, then evicted). */
  sealTails(): void {
    for (const s of this.shards.values()) s.seal();
  }

  /** The table is dropped: compaction stops and its data leaves the memory budget. */
  drop(): void {
    this.compactor.stop();
    for (const s of this.shards.values()) s.drop();
  }

  /** The id of the shard holding time `ts` (floor(ts / shardSize)). */
  shardOf(ts: bigint): bigint {
    return ts >= 0n ? ts / this.shardSize : -((-ts - 1n) / this.shardSize) - 1n;
  }

  /** The shard `id`, created if missing; `isInOrder`: the rows come from a sorted insert. */
  private shard(id: bigint, isInOrder = false): Shard {
    let s = this.shards.get(id);
    if (s !== undefined) return s;
    const newest = this.order.length === 0 ? null : this.order[this.order.length - 1];
    // Time moved on in an in-order stream: the previous newest shard will rarely get more rows,
    // so seal its tail now rather than keep a half-empty growable buffer per shard. Not for
    // unsorted inserts: their earlier shards still get rows, which would all become late runs.
    if (isInOrder && newest !== null && id > newest) this.shards.get(newest)!.seal();
    s = new Shard(this.layout, (shard) => this.compactor.schedule(shard));
    this.shards.set(id, s);
    this.order.push(id);
    if (newest !== null && id < newest) this.order.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return s;
  }
}
