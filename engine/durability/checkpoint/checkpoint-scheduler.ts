// When the local log's checkpoints run: one at a time, each after the one before, on demand
// (close, db.checkpoint(), memory pressure) and in the background once the WAL written since the
// last one passes `checkpointWalBytes`. A checkpoint rotates the WAL and snapshots the state in one
// synchronous step, writes the snapshot once the WAL before it is durable, then deletes the WAL
// segments it covers.
import type { Durability } from '../../types.js';
import type { WalWriter } from '../wal/wal-writer.js';
import type { EngineCounters } from '../../figures.js';
import { removeWalBefore } from './checkpoint.js';

export interface CheckpointPolicy {
  readonly durability: Durability;
  readonly checkpointWalBytes: number;
  readonly log?: (message: string) => void;
}

/**
 * Snapshots the state at once as checkpoint `n` and writes it once `flushed` has resolved
 * (LogCheckpoints.take, engine/log/database-log.ts).
 */
export type TakeCheckpoint = (n: number, flushed: Promise<void>) => Promise<void>;

export class CheckpointScheduler {
  private running: Promise<void> | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly wal: WalWriter,
    private readonly take: TakeCheckpoint,
    private readonly policy: CheckpointPolicy,
    private readonly counters: EngineCounters,
  ) {}

  /** Takes a checkpoint after any running one; resolves once it is durable and its WAL deleted. */
  run(): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.counters.timeCheckpoint(async () => {
      const walStart = this.wal.rotate();
      await this.take(walStart, this.wal.drain());
      await removeWalBefore(this.dataDir, walStart);
    }));
    this.running = next;
    void next.finally(() => { if (this.running === next) this.running = null; }).catch(() => undefined);
    return next;
  }

  /** Resolves once no checkpoint runs (whether the running one succeeded is its caller's concern). */
  async settle(): Promise<void> {
    while (this.running !== null) await this.running.catch(() => undefined);
  }

  /** After a write: starts a checkpoint in the background once enough WAL has piled up. */
  afterWrite(): void {
    if (this.policy.durability === 'none' || this.running !== null || this.wal.bytesSinceRotate <= this.policy.checkpointWalBytes) return;
    this.run().catch((e) => this.policy.log?.(`checkpoint failed: ${(e as Error).message}`));
  }
}
