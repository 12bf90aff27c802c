// When checkpoints run: one at a time, each after the one before, on demand (close, db.checkpoint())
// and in the background once the WAL written since the last one passes `checkpointWalBytes`.
// A checkpoint rotates the WAL and snapshots the state in one synchronous step, writes the
// snapshot, then deletes the WAL segments it covers.
import type { EntryStore } from '../../catalog/entry-store.js';
import type { Durability } from '../../types.js';
import type { WalWriter } from '../wal/wal-writer.js';
import type { EngineCounters } from '../../figures.js';
import { removeWalBefore, takeSnapshot } from './checkpoint.js';
import type { Checkpointer } from './checkpoint.js';

export interface CheckpointPolicy {
  readonly durability: Durability;
  readonly checkpointWalBytes: number;
  readonly log?: (message: string) => void;
}

export class CheckpointScheduler {
  private running: Promise<void> | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly wal: WalWriter,
    private readonly store: EntryStore,
    private readonly checkpointer: Checkpointer,
    private readonly policy: CheckpointPolicy,
    private readonly counters: EngineCounters,
  ) {}

  get isRunning(): boolean {
    return this.running !== null;
  }

  /**
   * Takes a checkpoint after any running one; resolves once it is durable and its WAL deleted.
   * `then` runs after it, before any other checkpoint starts (a backup copies the WAL written
   * since, which the next checkpoint would delete), with the checkpoint's number.
   */
  run(then?: (seq: number) => Promise<void>): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    let seq = 0;
    const next = previous.catch(() => undefined).then(() => this.counters.timeCheckpoint(async () => {
      const walStart = this.wal.rotate();
      seq = walStart;
      const snapshot = takeSnapshot(this.store, walStart);
      await this.wal.drain();
      await this.checkpointer.write(walStart, snapshot);
      await removeWalBefore(this.dataDir, walStart);
    }).then(() => then?.(seq)));
    this.running = next;
    void next.finally(() => { if (this.running === next) this.running = null; }).catch(() => undefined);
    return next;
  }

  /** Resolves once no checkpoint runs (whether the running one succeeded is its caller's concern). */
  async settle(): Promise<void> {
    while (this.running !== null) await this.running.catch(() => undefined);
  }

  /**
   * A checkpoint for memory pressure: it makes the batches and blobs held in memory evictable.
   * `sealTails`: the tails are sealed first, so their rows become batches it writes too.
   */
  relieve(sealTails: boolean): Promise<void> {
    if (sealTails) for (const e of this.store.entries.values()) if (e.type === 'ts') e.table.sealTails();
    return this.run();
  }

  /** After a write: starts a checkpoint in the background once enough WAL has piled up. */
  afterWrite(): void {
    if (this.policy.durability === 'none' || this.running !== null || this.wal.bytesSinceRotate <= this.policy.checkpointWalBytes) return;
    this.run().catch((e) => this.policy.log?.(`checkpoint failed: ${(e as Error).message}`));
  }
}
