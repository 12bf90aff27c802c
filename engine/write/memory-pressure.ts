// Backpressure of the memory budget on writers. Data that cannot leave memory (tails, batches
// and blobs no checkpoint holds yet: the budget's `held` bytes) only shrinks when a checkpoint
// writes it, after which it is evictable. So: past SOFT_SHARE of the budget a checkpoint starts
// in the background; a write that would take held data past WAIT_SHARE waits for a checkpoint
// (tails sealed first when they hold much of it); only a write that cannot fit even then — it is
// larger than the budget, or checkpoints stop freeing anything — fails with MemoryLimit, before
// anything is logged or applied. (QuasarDB's memory limiter; PostgreSQL's checkpoints driven by
// max_wal_size do the same for disk.)
import type { MemoryBudget } from '../memory/index.js';
import { SvcError } from '../errors.js';

/** Held data past this share of the budget starts a checkpoint in the background. */
const SOFT_SHARE = 0.5;
/** A write that would take held data past this share waits for a checkpoint. */
const WAIT_SHARE = 0.9;
/** Tails holding this share of the budget are sealed before a checkpoint that writers wait for. */
const TAIL_SHARE = 0.25;
/** Checkpoints a waiting write sits through while they keep freeing memory. */
const MAX_ROUNDS = 8;

/** What relieves memory pressure: a checkpoint (optionally sealing tails first). */
export interface Relief {
  relieve(sealTails: boolean): Promise<void>;
}

export class MemoryPressure {
  /** The relief writers wait for now (one at a time, shared). */
  private relieving: Promise<void> | null = null;

  constructor(private readonly budget: MemoryBudget, private readonly relief: Relief, private readonly log?: (message: string) => void) {}

  /**
   * Null when `bytes` more held data fit now; else a promise that resolves once a checkpoint
   * has made room (ask again: others may have taken it), or rejects with MemoryLimit. A write
   * that has waited once goes on as long as it fits under the limit itself.
   */
  admit(bytes: number, hasWaited = false): Promise<void> | null {
    const { held, limit } = this.budget;
    if (held + bytes <= (hasWaited ? limit : limit * WAIT_SHARE)) return null;
    if (bytes > limit) return Promise.reject(tooLarge(bytes, limit));
    return this.makeRoom(bytes);
  }

  /** After a write: past SOFT_SHARE, a checkpoint starts in the background. */
  afterWrite(): void {
    if (this.relieving !== null || this.budget.held <= this.budget.limit * SOFT_SHARE) return;
    this.relieveOnce(false).catch((e: unknown) => this.log?.(`checkpoint for memory failed: ${(e as Error).message}`));
  }

  private async makeRoom(bytes: number): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const before = this.budget.held;
      try {
        await this.relieveOnce(this.budget.tails > this.budget.limit * TAIL_SHARE);
      } catch (e) {
        throw new SvcError('MemoryLimit', `the memory budget is full and the checkpoint that would free it failed: ${(e as Error).message}`, { cause: e });
      }
      if (this.budget.held + bytes <= this.budget.limit * WAIT_SHARE) return;
      if (this.budget.held >= before) break;
    }
    if (this.budget.held + bytes <= this.budget.limit) return;
    throw new SvcError('MemoryLimit',
      `the write needs ${bytes} bytes of memory and ${this.budget.held} of the budget's ${this.budget.limit} hold data a checkpoint could not free; retry later or raise memoryLimit`);
  }

  /** The relief under way (callers share it), or a new one. */
  private relieveOnce(sealTails: boolean): Promise<void> {
    if (this.relieving !== null) return this.relieving;
    const run = this.relief.relieve(sealTails).finally(() => { this.relieving = null; });
    this.relieving = run;
    return run;
  }
}

function tooLarge(bytes: number, limit: number): SvcError {
  return new SvcError('MemoryLimit', `the write needs ${bytes} bytes of memory, more than the whole budget of ${limit}; split it or raise memoryLimit`);
}
