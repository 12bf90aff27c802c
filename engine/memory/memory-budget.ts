// The memory budget: every byte of table column data, tails, runs and blob contents the engine
// holds is counted here, in one of two kinds. `held` data cannot leave memory (tails, and sealed
// batches and blobs not yet in a checkpoint file); `cached` data can (it is in a checkpoint file
// and is read back when needed). Cached units sit in one least-recently-used list; whenever the
// total would pass the limit, the least recently used units no reader pins are evicted. What
// cannot leave is the write path's concern: it makes a checkpoint turn held data into cached
// data, and makes writers wait, before it refuses a write (write/write-path.ts). Memory for data
// read back comes from the budget too (allocate), recycled from evicted columns (buffer-pool.ts),
// or lent to a large scan's ring of buffers (read-ring.ts), which a one-pass scan reuses instead
// of caching what it reads.
// (DuckDB's buffer manager under memory_limit; QuasarDB's memory limiter.)
import { BufferPool, sizeClass } from './buffer-pool.js';
import type { ColumnMemory } from './buffer-pool.js';

/** A unit of cached data: a column of a sealed batch, or a blob's content. */
export interface Evictable {
  /** Bytes the unit takes while resident. */
  readonly bytes: number;
  /** Readers using the unit now: it cannot leave while this is above 0. */
  readonly pins: number;
  /**
   * Drops the unit's data (called by the budget, which has already uncounted it); returns its
   * memory when it came from allocate() and no one may read it any more, for reuse.
   */
  evict(): ColumnMemory | null;
  /** LRU links, owned by the budget. */
  lruPrev: Evictable | null;
  lruNext: Evictable | null;
  isCached: boolean;
}

/** What the budget reports (GET /api/status/readiness, /metrics). */
export interface MemoryFigures {
  /** The budget, in bytes. */
  readonly limit: number;
  /** held + cached. */
  readonly used: number;
  /** Bytes that cannot leave memory: tails, batches and blobs not yet checkpointed. */
  readonly held: number;
  /** The part of `held` in tails. */
  readonly tails: number;
  /** Bytes in memory that are also in checkpoint files (evictable). */
  readonly cached: number;
  /** Bytes of evicted columns' buffers kept for the next read-backs. */
  readonly pooled: number;
  /** Bytes of buffers lent to large scans' rings (read-ring.ts). */
  readonly scanning: number;
  readonly evictions: number;
  readonly evictedBytes: number;
  /** Units read back from checkpoint files, and their bytes. */
  readonly readBacks: number;
  readonly readBackBytes: number;
}

export class MemoryBudget {
  held = 0;
  /** The part of `held` in tails (rows not yet sealed into batches). */
  tails = 0;
  cached = 0;
  evictions = 0;
  evictedBytes = 0;
  readBacks = 0;
  readBackBytes = 0;
  /** Bytes of buffers lent to scans' rings (borrow/giveBack). */
  lent = 0;
  private readonly pool = new BufferPool();
  /** Least recently used first. */
  private head: Evictable | null = null;
  private tail: Evictable | null = null;

  /**
   * `isShared`: column memory is SharedArrayBuffers, which the database's worker threads read
   * without a copy (docs/workers.md): what allocate and borrow hand out, and what sealed batches
   * are built in (storage/batch-builder.ts).
   */
  constructor(readonly limit: number, readonly isShared = false) {}

  /** A budget that never evicts (tests and tools that build tables outside a database). */
  static unlimited(): MemoryBudget {
    return new MemoryBudget(Number.MAX_SAFE_INTEGER);
  }

  get used(): number {
    return this.held + this.cached + this.lent + this.pool.freeBytes;
  }

  get figures(): MemoryFigures {
    const { limit, held, tails, cached, evictions, evictedBytes, readBacks, readBackBytes } = this;
    return { limit, used: this.used, held, tails, cached, pooled: this.pool.freeBytes, scanning: this.lent, evictions, evictedBytes, readBacks, readBackBytes };
  }

  /**
   * Memory for `bytes` of data to read back: a recycled buffer of its size class, else a new one
   * once least recently used data made room for it. The view starts at offset 0 (8-byte aligned).
   * Counted once the data joins the cache (readBack, with its buffer's size).
   */
  allocate(bytes: number): Uint8Array {
    const size = sizeClass(bytes);
    const buffer = this.pool.take(size) ?? this.evict(size, size) ?? this.newBuffer(size);
    return new Uint8Array(buffer, 0, bytes);
  }

  /**
   * A buffer of `size` (a size class) lent to a scan's ring until giveBack: recycled, or made
   * room for like allocate's. Counted in `used` while lent.
   */
  borrow(size: number): ColumnMemory {
    const buffer = this.pool.take(size) ?? this.evict(size, size) ?? this.newBuffer(size);
    this.lent += size;
    return buffer;
  }

  /** A lent buffer comes back: kept for the next read-backs while it fits. */
  giveBack(buffer: ColumnMemory): void {
    this.lent -= buffer.byteLength;
    this.pool.give(buffer);
    this.evict(0, 0);
  }

  /** Columns of `bytes` read back for a scan that keeps them only while it reads them (a ring's). */
  countReadBack(bytes: number): void {
    this.readBacks += 1;
    this.readBackBytes += bytes;
  }

  /** Held data grew by `bytes` (negative: shrank); cached data makes room for it. */
  hold(bytes: number): void {
    this.held += bytes;
    if (bytes > 0) this.makeRoom(0);
  }

  /** Held data in tails grew by `bytes` (negative: shrank). */
  holdTail(bytes: number): void {
    this.tails += bytes;
    this.hold(bytes);
  }

  /** `unit` is resident and may leave: it joins the cache as its most recently used unit. */
  cache(unit: Evictable): void {
    if (unit.isCached) return this.touch(unit);
    unit.isCached = true;
    this.cached += unit.bytes;
    this.append(unit);
    this.makeRoom(0);
  }

  /** `unit` was read back from disk and joins the cache. */
  readBack(unit: Evictable): void {
    this.countReadBack(unit.bytes);
    this.cache(unit);
  }

  /** `unit` was just used: it leaves last. */
  touch(unit: Evictable): void {
    if (!unit.isCached || this.tail === unit) return;
    this.unlink(unit);
    this.append(unit);
  }

  /** `unit` leaves the cache without being evicted (its batch or blob is gone). */
  uncache(unit: Evictable): void {
    if (!unit.isCached) return;
    unit.isCached = false;
    this.cached -= unit.bytes;
    this.unlink(unit);
  }

  /**
   * Evicts least recently used units no reader pins until `incoming` more bytes fit under the
   * limit (or nothing more can leave), then keeps only the recycled buffers that still fit.
   * Returns whether `incoming` fits.
   */
  makeRoom(incoming: number): boolean {
    this.evict(incoming, 0);
    return this.held + this.cached + this.lent + incoming <= this.limit;
  }

  /**
   * Evicts (least recently used first, pinned units skipped) until `incoming` bytes fit; an
   * evicted buffer of size `reuse` is returned at once for the caller to fill (the incoming
   * bytes then replace it), others are recycled. Recycled buffers past what fits are let go.
   */
  /** Fresh memory of `size` bytes, shared when the budget's data is. */
  newBuffer(size: number): ColumnMemory {
    return this.isShared ? new SharedArrayBuffer(size) : Buffer.allocUnsafeSlow(size).buffer;
  }

  private evict(incoming: number, reuse: number): ColumnMemory | null {
    let unit = this.head;
    while (unit !== null && this.held + this.cached + this.lent + incoming > this.limit) {
      const next = unit.lruNext;
      if (unit.pins === 0) {
        this.uncache(unit);
        this.evictions += 1;
        this.evictedBytes += unit.bytes;
        const buffer = unit.evict();
        if (buffer !== null && buffer.byteLength === reuse) return buffer;
        if (buffer !== null) this.pool.give(buffer);
      }
      unit = next;
    }
    const room = this.limit - this.held - this.cached - this.lent - incoming;
    if (this.pool.freeBytes > room) this.pool.trim(Math.max(0, room));
    return null;
  }

  private append(unit: Evictable): void {
    unit.lruPrev = this.tail;
    unit.lruNext = null;
    if (this.tail === null) this.head = unit;
    else this.tail.lruNext = unit;
    this.tail = unit;
  }

  private unlink(unit: Evictable): void {
    if (unit.lruPrev === null) this.head = unit.lruNext;
    else unit.lruPrev.lruNext = unit.lruNext;
    if (unit.lruNext === null) this.tail = unit.lruPrev;
    else unit.lruNext.lruPrev = unit.lruPrev;
    unit.lruPrev = null;
    unit.lruNext = null;
  }
}
