// The content of a blob as the memory budget sees it: resident and held until a checkpoint writes
// it to a blob file, then evictable (least recently used first) and read back from there when
// asked for. A blob's content never changes (a put makes a new entry), so what a file holds stays
// right for as long as the entry lives.
import type { Evictable, MemoryBudget } from '../memory/index.js';

/** Where a checkpoint's blob file holds the content, and how to read it back. */
export interface StoredBlob {
  readonly file: string;
  readonly index: number;
  /** The content, read back and checked. */
  read(): Promise<Uint8Array>;
}

export class BlobContent implements Evictable {
  readonly pins = 0;
  lruPrev: Evictable | null = null;
  lruNext: Evictable | null = null;
  isCached = false;
  private loading: Promise<Uint8Array> | null = null;
  private storedAt: StoredBlob | null;
  private isRetired = false;

  /** `data` null: known only from a checkpoint (`stored`), `size` bytes long. */
  constructor(private data: Uint8Array | null, readonly size: number, private readonly budget: MemoryBudget, stored: StoredBlob | null = null) {
    this.storedAt = stored;
    if (data !== null) budget.hold(size);
  }

  get bytes(): number {
    return this.size;
  }

  get stored(): StoredBlob | null {
    return this.storedAt;
  }

  /** The content: at once when resident, else once read back from its blob file. */
  read(): Uint8Array | Promise<Uint8Array> {
    if (this.data !== null) {
      this.budget.touch(this);
      return this.data;
    }
    this.loading ??= this.storedAt!.read().then((data) => {
      this.loading = null;
      if (this.data === null && !this.isRetired) {
        this.budget.makeRoom(this.size);
        this.data = data;
        this.budget.readBack(this);
      }
      return data;
    }, (e: unknown) => {
      this.loading = null;
      throw e;
    });
    return this.loading;
  }

  /** A durable checkpoint holds the content at `stored`: from now on it may leave memory. */
  markStored(stored: StoredBlob): void {
    const wasStored = this.storedAt !== null;
    this.storedAt = stored;
    if (wasStored || this.isRetired || this.data === null) return;
    this.budget.hold(-this.size);
    this.budget.cache(this);
  }

  /** The blob was replaced or removed: its content leaves the budget (a reader holding the entry still reads it). */
  retire(): void {
    if (this.isRetired) return;
    this.isRetired = true;
    if (this.isCached) this.budget.uncache(this);
    else if (this.data !== null && this.storedAt === null) this.budget.hold(-this.size);
  }

  evict(): null {
    this.data = null;
    return null;
  }
}
