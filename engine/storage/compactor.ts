// Runs the compaction of a table's shards in the background: steps of one merge window each,
// as many as fit in a few milliseconds per turn of the event loop, then setImmediate for the
// rest, so inserts and queries never wait long behind it. A shard whose runs are not worth
// merging yet (compaction-policy.ts: small beside the big part of the shard they overlap) waits
// until a new run comes, or until it has been quiet: no new run for `idleMs`, or for 4 times the
// gap between its last two runs when runs come slower (a steady trickle is not quiet between
// runs). Then its runs are merged into `main` whatever their size, so a shard left alone ends up
// fully merged. The immediate and the timer are unref'd (they never keep a process alive) and
// stop() ends them at once: closing or checkpointing never waits for a compaction, and one cut
// short leaves the shard as it was (a job swaps its result in only when it is complete). Batches a
// step reads that were evicted are read back first, asynchronously, the step waiting for them.
import type { Shard } from './shard.js';

/** Work per turn of the event loop before yielding. */
const SLICE_MS = 4;

export class Compactor {
  /**
   * A shard with waiting runs and no new run for this long gets them merged into `main`
   * (ms; tests lengthen it to watch runs wait on a slow machine).
   */
  static idleMs = 250;
  /** The longest wait for quiet, however slowly runs came (ms; tests lengthen it too). */
  static maxIdleMs = 5000;

  private readonly queue = new Set<Shard>();
  /** Shards of `queue` whose runs go into `main` now (they were idle). */
  private readonly forced = new Set<Shard>();
  /** Shards whose runs wait, with the time (performance.now()) they are forced in. */
  private readonly waiting = new Map<Shard, number>();
  /** Per shard with runs: when its latest run came, and the gap before it (ms). */
  private readonly arrivals = new Map<Shard, { at: number; gap: number }>();
  private pending: NodeJS.Immediate | null = null;
  /** A step waits for its batches to be read back from disk. */
  private loading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (performance.now()). */
  private timerAt = 0;
  private isStopped = false;

  /** Queues a shard holding late runs (a new run arrived: any wait starts over). */
  schedule(shard: Shard): void {
    if (this.isStopped) return;
    const now = performance.now();
    const last = this.arrivals.get(shard);
    this.arrivals.set(shard, { at: now, gap: last === undefined ? 0 : now - last.at });
    this.waiting.delete(shard);
    this.queue.add(shard);
    this.wake();
  }

  /** Stops for good: no step runs after this returns. */
  stop(): void {
    this.isStopped = true;
    this.queue.clear();
    this.forced.clear();
    this.waiting.clear();
    this.arrivals.clear();
    if (this.pending !== null) clearImmediate(this.pending);
    if (this.timer !== null) clearTimeout(this.timer);
    this.pending = null;
    this.timer = null;
  }

  /** Whether shards still wait for compaction (for tests). */
  get isIdle(): boolean {
    return this.queue.size === 0 && this.waiting.size === 0;
  }

  private wake(): void {
    if (this.pending !== null || this.loading !== null || this.queue.size === 0) return;
    this.pending = setImmediate(() => this.run());
    this.pending.unref();
  }

  private run(): void {
    this.pending = null;
    if (this.queue.size === 0) return;
    const until = performance.now() + SLICE_MS;
    // At least one step per turn, then more while the slice lasts.
    do {
      const shard = this.queue.values().next().value as Shard;
      const warm = shard.hasRuns ? shard.warmStep(this.forced.has(shard)) : null;
      if (warm !== null && warm.ready !== null) {
        this.loading = warm.ready.then(
          () => { if (!this.isStopped) this.step(shard); },
          () => { this.queue.delete(shard); }, // Unreadable: left as it is; its readers see the error.
        ).finally(() => {
          for (const b of warm.batches) b.unpin(b.allColumns);
          this.loading = null;
          if (!this.isStopped) this.wake();
        });
        return;
      }
      try {
        this.step(shard);
      } finally {
        for (const b of warm?.batches ?? []) b.unpin(b.allColumns);
      }
    } while (this.queue.size > 0 && performance.now() < until);
    if (!this.isStopped) this.wake();
  }

  /** One step of `shard`'s compaction; the shard leaves the queue when no more are due now. */
  private step(shard: Shard): void {
    const isDue = shard.hasRuns && shard.compactStep(this.forced.has(shard));
    if (isDue) return;
    this.queue.delete(shard);
    this.forced.delete(shard);
    if (shard.hasRuns) this.wait(shard);
    else this.arrivals.delete(shard);
  }

  private wait(shard: Shard): void {
    const gap = this.arrivals.get(shard)?.gap ?? 0;
    const ms = Math.min(Compactor.maxIdleMs, Math.max(Compactor.idleMs, 4 * gap));
    const at = performance.now() + ms;
    this.waiting.set(shard, at);
    if (this.timer === null || at < this.timerAt) this.arm(ms);
  }

  private arm(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerAt = performance.now() + ms;
    this.timer = setTimeout(() => this.idle(), ms);
    this.timer.unref();
  }

  /** Forces the runs of shards idle long enough into `main`; waits again for the others. */
  private idle(): void {
    this.timer = null;
    const now = performance.now();
    let next = Infinity;
    for (const [shard, at] of this.waiting) {
      if (at > now) { next = Math.min(next, at); continue; }
      this.waiting.delete(shard);
      this.queue.add(shard);
      this.forced.add(shard);
    }
    if (next < Infinity) this.arm(Math.max(1, next - now));
    this.wake();
  }
}
