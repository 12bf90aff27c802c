// The WAL writer: appends framed records to numbered segment files with group commit. Records
// queue while a write is in flight; the next flush writes all of them with one writev, and (in
// `fsync` mode) one fdatasync then resolves every writer whose records it covers.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Durability } from '../types.js';
import { SvcError } from '../errors.js';
import { FRAME_HEADER, frameHeader } from './frame.js';
import { encodeRecord } from './records.js';
import { segmentName } from './segments.js';
import type { WalRecord } from './records.js';

interface Pending {
  readonly segment: number;
  readonly chunks: Uint8Array[];
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export class WalWriter {
  private queue: Pending[] = [];
  private isFlushing = false;
  private handle: FileHandle | null = null;
  private handleSegment = -1;
  private failure: unknown = null;
  /** Records written but not yet fsynced, and the running sync stage, if any. */
  private written: Pending[] = [];
  private syncing: Promise<void> | null = null;
  /** Bytes appended to segments since the last checkpoint rotation. */
  bytesSinceRotate = 0;

  constructor(private readonly dir: string, private segment: number, private readonly durability: Durability) {}

  get currentSegment(): number {
    return this.segment;
  }

  get hasFailed(): boolean {
    return this.failure !== null;
  }

  /** Appends records; resolves once they are written (and fsynced in `fsync` mode). */
  append(records: readonly WalRecord[]): Promise<void> {
    if (this.durability === 'none') return Promise.resolve();
    if (this.failure !== null) return Promise.reject(storageFailed(this.failure));
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (const r of records) {
      const payload = encodeRecord(r);
      const header = frameHeader(payload);
      chunks.push(header, ...payload);
      bytes += header.readUInt32LE(0) + FRAME_HEADER;
    }
    this.bytesSinceRotate += bytes;
    return new Promise((resolve, reject) => {
      this.queue.push({ segment: this.segment, chunks, bytes, resolve, reject });
      if (!this.isFlushing) void this.flush();
    });
  }

  /** Starts a new segment: records appended from now on go there. Returns its number. */
  rotate(): number {
    this.segment += 1;
    this.bytesSinceRotate = 0;
    return this.segment;
  }

  /** Resolves when every record appended so far is durable. */
  async drain(): Promise<void> {
    if (this.durability === 'none') return;
    await this.append([]);
  }

  async close(): Promise<void> {
    await this.drain().catch(() => undefined);
    await this.syncing;
    await this.handle?.close();
    this.handle = null;
  }

  /**
   * The write stage: takes every queued record of one segment and writes them with one writev.
   * A written group is acknowledged (resolved, or handed to the sync stage) only after the next
   * write has been issued: resolving wakes writers whose CPU work would otherwise run before the
   * next writev starts, leaving the disk idle. Writes and fsyncs overlap the same way.
   */
  private async flush(): Promise<void> {
    this.isFlushing = true;
    let written: { group: Pending[]; fh: FileHandle } | null = null;
    while (this.queue.length > 0) {
      // One group = the leading run of waiters for the same segment.
      const segment = this.queue[0].segment;
      let count = 0;
      while (count < this.queue.length && this.queue[count].segment === segment) count++;
      const group = this.queue.splice(0, count);
      try {
        const isCurrent = this.handleSegment === segment && this.handle !== null;
        if (!isCurrent && written !== null) { this.acknowledge(written.group, written.fh); written = null; }
        const fh = isCurrent ? this.handle! : await this.fileFor(segment);
        const chunks = group.flatMap((p) => p.chunks);
        const writing = chunks.length > 0 ? writeAll(fh, chunks) : Promise.resolve();
        if (written !== null) this.acknowledge(written.group, written.fh);
        written = null;
        await writing;
        written = { group, fh };
      } catch (e) {
        this.fail(e, group);
      }
    }
    if (written !== null) this.acknowledge(written.group, written.fh);
    this.isFlushing = false;
  }

  /** A written group is done in `os` mode, and waits for the next fdatasync in `fsync` mode. */
  private acknowledge(group: Pending[], fh: FileHandle): void {
    if (this.durability !== 'fsync') {
      for (const p of group) p.resolve();
      return;
    }
    this.written.push(...group);
    this.syncing ??= this.syncStage(fh);
  }

  /** The sync stage: one fdatasync acknowledges every record written before it started. */
  private async syncStage(fh: FileHandle): Promise<void> {
    while (this.written.length > 0) {
      const group = this.written.splice(0);
      try {
        await fh.datasync();
        for (const p of group) p.resolve();
      } catch (e) {
        this.fail(e, group);
      }
    }
    this.syncing = null;
  }

  /** A failed write or fsync leaves the log's state unknown: stop accepting writes. */
  private fail(e: unknown, group: Pending[]): void {
    this.failure = e;
    for (const p of [...group, ...this.written.splice(0), ...this.queue.splice(0)]) p.reject(storageFailed(e));
  }

  private async fileFor(segment: number): Promise<FileHandle> {
    if (this.handleSegment === segment && this.handle !== null) return this.handle;
    if (this.handle !== null) {
      // The sync stage may still be fsyncing the old segment: let it finish before closing it.
      await this.syncing;
      if (this.durability === 'fsync') await this.handle.datasync();
      await this.handle.close();
    }
    this.handle = await open(join(this.dir, segmentName(segment)), 'a');
    this.handleSegment = segment;
    if (this.durability === 'fsync') await syncDir(this.dir);
    return this.handle;
  }
}

async function writeAll(fh: FileHandle, chunks: Uint8Array[]): Promise<void> {
  // writev may write less than asked (rare, large groups): continue from where it stopped.
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest);
    let skip = bytesWritten;
    let i = 0;
    while (i < rest.length && skip >= rest[i].length) { skip -= rest[i].length; i++; }
    rest = rest.slice(i);
    if (rest.length > 0 && skip > 0) rest[0] = rest[0].subarray(skip);
  }
}

export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try { await fh.sync(); } finally { await fh.close(); }
}

function storageFailed(e: unknown): SvcError {
  return new SvcError('StorageFailed', `the write-ahead log could not be written: ${(e as Error)?.message ?? e}`, { cause: e });
}
