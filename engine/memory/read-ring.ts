// A large scan's ring of buffers: the scan reads back batches it will not keep into a few buffers
// it reuses, instead of caching them. A scan reading back more than a quarter of the budget is
// a one-pass scan: caching it would evict the working set of other queries for data read once
// (PostgreSQL's BAS_BULKREAD ring, DuckDB's), and filling the budget with fresh buffers costs
// page faults and garbage collections (external memory drives V8's GC) for nothing. The ring's
// buffers are lent by the budget (counted in its `used`) and return to it when the scan closes
// and the last reader of each is done.
import type { MemoryBudget } from './memory-budget.js';
import { sizeClass } from './buffer-pool.js';
import type { ColumnMemory } from './buffer-pool.js';

/** What a scan must read back, at least, to read through a ring: this part of the budget. */
export const RING_SHARE = 4;

export class ReadRing {
  private readonly free: ColumnMemory[] = [];
  private isClosed = false;

  constructor(private readonly budget: MemoryBudget) {}

  /** Whether a scan reading back `bytes` should read through a ring under `budget`. */
  static isFor(budget: MemoryBudget, bytes: number): boolean {
    return bytes > budget.limit / RING_SHARE;
  }

  /** A buffer of at least `bytes` (at its offset 0) until give(its buffer). */
  readonly take = (bytes: number): Uint8Array => {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i].byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best].byteLength)) best = i;
    }
    let buffer: ColumnMemory;
    if (best >= 0) {
      buffer = this.free[best];
      this.free[best] = this.free[this.free.length - 1];
      this.free.pop();
    } else {
      // None is large enough: the smallest free one goes back, a larger one replaces it.
      if (this.free.length > 0) {
        let smallest = 0;
        for (let i = 1; i < this.free.length; i++) if (this.free[i].byteLength < this.free[smallest].byteLength) smallest = i;
        this.budget.giveBack(this.free.splice(smallest, 1)[0]);
      }
      buffer = this.budget.borrow(sizeClass(bytes));
    }
    return new Uint8Array(buffer, 0, bytes);
  };

  /** A buffer from take() no one reads any more. */
  give(buffer: ColumnMemory): void {
    if (this.isClosed) this.budget.giveBack(buffer);
    else this.free.push(buffer);
  }

  /** The scan ended: free buffers return to the budget now, those still read when given. */
  close(): void {
    this.isClosed = true;
    for (const buffer of this.free) this.budget.giveBack(buffer);
    this.free.length = 0;
  }
}
