// When the local log's checkpoints run: one at a time, each after the one before, on demand
// (close, db.checkpoint(), memory pressure) and in the background once the WAL written since the
// last one passes `checkpointWalBytes`. A checkpoint rotates the WAL and snapshots the state in one
// synchronous step, writes the snapshot once the WAL before it is durable, then deletes the WAL
// segments it covers. One that fails (a full disk, typically) is tried again after a pause that
// doubles up to RETRY_MAX_MS: its WAL is still there, and the next threshold may be far off.
// While the disk is below its floor a removal asks for one at once: the space of removed data
// comes back only when the WAL that holds it is deleted.
import type { Durability } from '../../types.js';
import type { WalWriter } from '../wal/wal-writer.js';
import type { EngineCounters } from '../../figures.js';
import { removeWalBefore } from './checkpoint.js';

export interface CheckpointPolicy {
  readonly durability: Durability;
  readonly checkpointWalBytes: number;
  readonly log?: (message: string) => void;
}

/** The first retry after a failed checkpoint, and the longest pause between retries. */
const RETRY_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/**
 * Snapshots the state at once as checkpoint `n` and writes it once `flushed` has resolved
 * (LogCheckpoints.take, engine/log/database-log.ts).
 */
export type TakeCheckpoint = (n: number, flushed: Promise<void>) => Promise<void>;

export class CheckpointScheduler {
  private running: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = RETRY_MS;
  private isStopped = false;
  /** A checkpoint to give space back waits for the running one: later removals share it. */
  private isReclaimQueued = false;

  constructor(
    private readonly dataDir: string,
    private readonly wal: WalWriter,
    private readonly take: TakeCheckpoint,
    private readonly policy: CheckpointPolicy,
    private readonly counters: EngineCounters,
  ) {}

  /**
   * Takes a checkpoint after any running one; resolves once it is durable and its WAL deleted.
   * `then` runs after it, before any other checkpoint starts (a backup copies the WAL written
   * since, which the next checkpoint would delete), with the checkpoint's number.
   */
  run(then?: (seq: number) => Promise<void>): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    let seq = 0;
    const checkpoint = previous.catch(() => undefined).then(() => this.counters.timeCheckpoint(async () => {
      const walStart = this.wal.rotate();
      seq = walStart;
      await this.take(walStart, this.wal.drain());
      await removeWalBefore(this.dataDir, walStart);
    }));
    const next = then === undefined ? checkpoint : checkpoint.then(() => then(seq));
    this.running = next;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // The checkpoint's own failure is retried; a failure of `then` (a backup's copy) is its caller's.
    checkpoint.then(() => { this.retryMs = RETRY_MS; }, () => this.retryLater());
    void next.finally(() => { if (this.running === next) this.running = null; }).catch(() => undefined);
    return next;
  }

  /** No more checkpoints of its own (the database closes; its last one is run by hand). */
  stop(): void {
    this.isStopped = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private retryLater(): void {
    if (this.isStopped || this.wal.hasFailed || this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running === null && !this.isStopped) this.run().catch((e) => this.policy.log?.(`checkpoint retry failed: ${(e as Error).message}`));
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  /** Resolves once no checkpoint runs (whether the running one succeeded is its caller's concern). */
  async settle(): Promise<void> {
    while (this.running !== null) await this.running.catch(() => undefined);
  }

  /**
   * After a write: starts a checkpoint in the background once enough WAL has piled up — or, when
   * `isSpaceWanted` (the disk is full and the write removed data), once the running one is done.
   */
  afterWrite(isSpaceWanted = false): void {
    if (isSpaceWanted) {
      this.reclaim();
      return;
    }
    if (this.policy.durability === 'none' || this.running !== null || this.wal.bytesSinceRotate <= this.policy.checkpointWalBytes) return;
    this.run().catch((e) => this.policy.log?.(`checkpoint failed: ${(e as Error).message}`));
  }

  private reclaim(): void {
    if (this.isStopped || this.isReclaimQueued) return;
    this.isReclaimQueued = true;
    void (this.running ?? Promise.resolve()).catch(() => undefined).then(() => {
      this.isReclaimQueued = false;
      if (this.isStopped) return undefined;
      return this.run().catch((e) => this.policy.log?.(`checkpoint to give disk space back failed: ${(e as Error).message}`));
    });
  }
}
