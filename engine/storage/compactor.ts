// Runs the compaction of a table's shards in the background: steps of one merge window each,
// as many as fit in a few milliseconds per turn of the event loop, then setImmediate for the
// rest, so inserts and queries never wait long behind it. The immediate is unref'd (it never
// keeps a process alive) and stop() ends it at once: closing or checkpointing never waits for
// a compaction, and one cut short leaves the shard as it was (a job swaps its result in only
// when it is complete).
import type { Shard } from './shard.js';

/** Work per turn of the event loop before yielding. */
const SLICE_MS = 4;

export class Compactor {
  private readonly queue = new Set<Shard>();
  private pending: NodeJS.Immediate | null = null;
  private isStopped = false;

  /** Queues a shard holding late runs. */
  schedule(shard: Shard): void {
    if (this.isStopped) return;
    this.queue.add(shard);
    if (this.pending === null) {
      this.pending = setImmediate(() => this.run());
      this.pending.unref();
    }
  }

  /** Stops for good: no step runs after this returns. */
  stop(): void {
    this.isStopped = true;
    this.queue.clear();
    if (this.pending !== null) clearImmediate(this.pending);
    this.pending = null;
  }

  /** Whether shards still wait for compaction (for tests). */
  get isIdle(): boolean {
    return this.queue.size === 0;
  }

  private run(): void {
    this.pending = null;
    if (this.queue.size === 0) return;
    const until = performance.now() + SLICE_MS;
    // At least one step per turn, then more while the slice lasts.
    do {
      const shard = this.queue.values().next().value as Shard;
      if (shard.hasRuns) shard.compactStep();
      if (!shard.hasRuns) this.queue.delete(shard);
    } while (this.queue.size > 0 && performance.now() < until);
    if (this.queue.size > 0 && !this.isStopped) {
      this.pending = setImmediate(() => this.run());
      this.pending.unref();
    }
  }
}
