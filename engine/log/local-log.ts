// The log of a single node: WAL segments in the data directory (engine/durability/wal/) and the
// checkpoints that let them go. Opening it is recovery: the newest checkpoint, then every WAL
// record after it (a torn tail cut off), then a writer in a new segment. A commit is written and
// applied before it returns and resolves once durable for the database's mode (group commit:
// one fdatasync serves every writer waiting then); checkpoints run on the scheduler.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeWalBefore } from '../durability/checkpoint/checkpoint.js';
import { CheckpointScheduler } from '../durability/checkpoint/checkpoint-scheduler.js';
import { storageFailure } from '../durability/storage-failure.js';
import { replayWal } from '../durability/wal/wal-replay.js';
import { WalWriter } from '../durability/wal/wal-writer.js';
import type { WalRecord } from '../durability/wal/records.js';
import type { DiskGuard } from '../durability/disk-guard.js';
import { SvcError } from '../errors.js';
import type { ResolvedOptions } from '../open-options.js';
import type { DatabaseLog, DatabaseLogFigures, LogState } from './database-log.js';

export type LocalLogOptions = Pick<ResolvedOptions, 'dataDir' | 'durability' | 'walSegmentBytes' | 'checkpointWalBytes' | 'log'>;

/** What the local log holds once open. */
interface Opened {
  readonly wal: WalWriter;
  readonly checkpoints: CheckpointScheduler;
  readonly apply: (record: WalRecord) => void;
  readonly disk: DiskGuard;
}

export class LocalLog implements DatabaseLog {
  private held: Opened | null = null;
  readonly isCaughtUp = true;
  readonly isAppliedAtCommit = true;
  readonly placement = null;

  constructor(private readonly options: LocalLogOptions) {}

  async open(state: LogState): Promise<void> {
    const { dataDir, durability, walSegmentBytes, log } = this.options;
    const walDir = join(dataDir, 'wal');
    try {
      await mkdir(walDir, { recursive: true });
      const walStart = await state.checkpoints.load();
      const replay = await replayWal(walDir, walStart, state.apply, state.prepare);
      if (replay.tornAt !== null) log?.(`cut a torn record at the end of ${replay.tornAt.file} (offset ${replay.tornAt.offset})`);
      await removeWalBefore(dataDir, walStart);
      const wal = new WalWriter(walDir, Math.max(walStart, replay.lastSegment + 1), durability, walSegmentBytes, state.disk);
      const checkpoints = new CheckpointScheduler(dataDir, wal, (n, flushed) => state.checkpoints.take(n, flushed), this.options, state.counters);
      this.held = { wal, checkpoints, apply: state.apply, disk: state.disk };
    } catch (e) {
      throw storageFailure(e, `could not open data directory ${dataDir}`);
    }
  }

  /**
   * Writes the records and applies them before returning; resolves once they are durable. Throws
   * when they could not be written (StorageFull, StorageFailed): then nothing was applied.
   */
  commit(records: readonly WalRecord[]): Promise<void> {
    const { wal, checkpoints, apply, disk } = this.opened();
    const durable = wal.append(records).then(nothing);
    for (const r of records) apply(r);
    // While the disk is full only removals get here (WritePath.checkStorage): a checkpoint gives their space back.
    checkpoints.afterWrite(disk.isFull);
    return durable;
  }

  readBarrier(): null {
    return null;
  }

  get failure(): SvcError | null {
    return this.held?.wal.hasFailed === true ? new SvcError('StorageFailed', 'the database stopped accepting writes after a storage failure; restart it to replay the write-ahead log') : null;
  }

  async checkpoint(): Promise<boolean> {
    try {
      await this.opened().checkpoints.run();
    } catch (e) {
      throw storageFailure(e, 'the checkpoint failed');
    }
    return true;
  }

  checkpointThen(then: (seq: number) => Promise<void>): Promise<void> {
    return this.opened().checkpoints.run(then);
  }

  relieve(): Promise<void> {
    return this.opened().checkpoints.run();
  }

  figures(): DatabaseLogFigures {
    const { wal } = this.opened();
    return { walBytes: wal.bytesWritten, walFsyncs: wal.syncRounds, replication: null };
  }

  /** Lets the checkpoint under way finish, then takes one more (unless the WAL failed) and closes the WAL. */
  async close(): Promise<void> {
    const { wal, checkpoints } = this.opened();
    checkpoints.stop();
    try {
      await checkpoints.settle();
      if (!wal.hasFailed) await checkpoints.run();
    } catch (e) {
      throw storageFailure(e, 'the checkpoint on close failed');
    } finally {
      await wal.close();
    }
  }

  private opened(): Opened {
    if (this.held === null) throw new Error('the local log is not open');
    return this.held;
  }
}

function nothing(): void {}
