// The WAL writer: appends framed records to numbered segment files with group commit.
//
// A record is written (into the page cache) synchronously, inside `append`, in the order records
// arrive; only fdatasync is asynchronous, and each fdatasync acknowledges every record written
// before it started, so writers that arrive while one runs share the next (group commit).
// Writing in the caller's turn is what lets the disk and the CPU overlap: with asynchronous
// writes, a burst of inserts (one synchronous run of the caller's code) queued every record
// behind one write whose completion could not be seen until the burst ended, so CPU work and disk
// work took turns. For the same reason a second fdatasync may start while one is in flight, once
// enough has been written since: completions are only seen between bursts, but the disk need
// not wait for them. A synchronous write also means a record never outlives the caller's arrays:
// nothing is copied before it is written.
// Small records wait for the end of the event-loop turn before their fdatasync starts: writers
// acknowledged together continue together (each in its own microtask), and a sync started by the
// first one's next record left the others' records to a sync of their own — with 8 small inserts
// in flight, two fdatasyncs per 8 where one does. Once GROUP_WAIT_BYTES are waiting the sync
// starts at once instead, so the disk works on big inserts while the CPU builds the next ones.
//
// Two kinds of failure (DESIGN.md, "The disk is watched like memory"). A write that meets ENOSPC
// is cut back: the segment is truncated to where the record began, so the log ends in its last
// whole record and replay never meets a torn middle; that append throws StorageFull, nothing of
// it was logged or applied, and the log goes on taking writes once space is back (records
// written before it are whole and keep their place in the group commit). Any other failure of a
// write, and every fsync failure, stops the log until a restart replays it: after a failed
// fsync the kernel may have dropped the dirty pages and report a retried fsync as a success.
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writevSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Durability } from '../../types.js';
import { SvcError } from '../../errors.js';
import { isNoSpace } from '../disk-guard.js';
import type { SpaceWatch } from '../disk-guard.js';
import { FRAME_HEADER, frameHeader } from './frame.js';
import { encodeRecords } from './records.js';
import { SEGMENT_HEADER_BYTES, segmentHeader } from './segment-header.js';
import { segmentName } from './segments.js';
import type { WalRecord } from './records.js';
import type { LogPosition, RecordLog } from './record-log.js';

/**
 * The file calls whose failure a test must be able to cause (an fsync error cannot be produced on
 * demand otherwise). A mutable object only for that, like io-limits.ts; nothing in the engine
 * changes it.
 */
export const walIo = {
  fdatasync: promisify(fdatasync),
  fdatasyncSync,
};

/** A segment is closed and a new one started once it holds this much (a bigger record gets one alone). */
export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

/** At most this many fdatasyncs in flight; a second starts once this much was written after the first. */
const MAX_SYNCS = 2;
const SYNC_SPLIT_BYTES = 1 << 20;
/** Records written and not yet covered: below this, their fdatasync waits for the turn's end. */
const GROUP_WAIT_BYTES = 256 * 1024;

interface Unsynced {
  /** How many records had been written once this one was (a drain barrier: when it was pushed). */
  readonly seq: number;
  /** The segment file the record went to; -1 for a drain barrier. */
  readonly fd: number;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export class WalWriter implements RecordLog {
  private fd = -1;
  private fdSegment = -1;
  /** Files of earlier segments, closed once no fdatasync can still need them. */
  private retired: number[] = [];
  /** A segment file was created: the directory must be fsynced before its records count. */
  private isDirDirty = false;
  /** The file last made durable before a segment switch (a switch retried after ENOSPC need not sync it again). */
  private fdSynced = -1;
  private failure: unknown = null;
  /** Records written so far, and how many of them the latest fdatasync started will cover. */
  private seq = 0;
  private issuedSeq = 0;
  private bytesSinceIssue = 0;
  private syncsInFlight = 0;
  /** An fdatasync start is scheduled for the end of this event-loop turn. */
  private isSyncScheduled = false;
  /** fdatasync rounds started so far (one per group commit; PostgreSQL's pg_stat_wal.wal_sync). */
  syncRounds = 0;
  /** Bytes appended since the writer opened (EngineFigures.walBytes). */
  bytesWritten = 0;
  /** Writers whose records are written but not yet known durable, in seq order. */
  private unsynced: Unsynced[] = [];
  /** Bytes appended to segments since the last checkpoint rotation. */
  bytesSinceRotate = 0;
  /** Bytes in the current segment's file (its header included): where the next record begins. */
  private segmentFill = 0;

  constructor(
    private readonly dir: string,
    private segment: number,
    private readonly durability: Durability,
    private readonly segmentBytes = DEFAULT_SEGMENT_BYTES,
    /** Told what is written and when the disk is full or the log failed (null: no one watches). */
    private readonly space: SpaceWatch | null = null,
  ) {}

  get currentSegment(): number {
    return this.segment;
  }

  get hasFailed(): boolean {
    return this.failure !== null;
  }

  /**
   * Writes the records of one write as one frame (replayed all or none); resolves once they are
   * durable for the mode (at once for `os` and `none`), with the number of appends written so far
   * (this one included) as its position. Throws when the frame could not be written — StorageFull
   * (out of space: the log is cut back and takes writes again once there is room) or
   * StorageFailed (the log stopped) — and then nothing of it is in the log.
   */
  append(records: readonly WalRecord[]): Promise<LogPosition> {
    if (this.durability === 'none') return Promise.resolve(0);
    if (this.failure !== null) throw storageFailed(this.failure);
    const payload = encodeRecords(records);
    const header = frameHeader(payload);
    const chunks: Uint8Array[] = [header, ...payload];
    const bytes = header.readUInt32LE(0) + FRAME_HEADER;
    // Rotate by size before a write, never inside one: a record lives in one segment.
    if (this.segmentFill > 0 && this.segmentFill + bytes > this.segmentBytes) this.segment += 1;
    const fd = this.file(bytes);
    const start = this.segmentFill;
    if (start === 0) chunks.unshift(segmentHeader());
    try {
      writeAllSync(fd, chunks);
    } catch (e) {
      throw this.cutBack(fd, start, bytes, e);
    }
    const written = bytes + (start === 0 ? SEGMENT_HEADER_BYTES : 0);
    this.bytesSinceRotate += bytes;
    this.bytesWritten += bytes;
    this.segmentFill += written;
    this.space?.charge(written);
    this.seq += 1;
    const position = this.seq;
    if (this.durability === 'os') { this.issuedSeq = this.seq; return Promise.resolve(position); }
    this.bytesSinceIssue += bytes;
    return new Promise((resolve, reject) => {
      this.unsynced.push({ seq: position, fd, resolve: () => resolve(position), reject });
      this.maybeSync();
    });
  }

  /**
   * After a failed write of a frame of `bytes` that began at `start`: out of space, the segment is
   * truncated back to `start` (the log ends in its last whole record) and the write fails with
   * StorageFull; any other failure, or a truncate that fails, stops the log.
   */
  private cutBack(fd: number, start: number, bytes: number, e: unknown): SvcError {
    if (isNoSpace(e)) {
      try {
        ftruncateSync(fd, start);
        this.space?.noteNoSpace(bytes);
        return new SvcError('StorageFull', `the disk of ${this.dir} is full: a write-ahead log record of ${bytes} bytes did not fit and was not applied (the log was cut back to its last whole record); writes are refused until space is freed`, { cause: e });
      } catch (cut) {
        return this.fail(cut);
      }
    }
    return this.fail(e);
  }

  /** Starts a new segment: records appended from now on go there. Returns its number. */
  rotate(): number {
    this.segment += 1;
    this.bytesSinceRotate = 0;
    this.segmentFill = 0;
    return this.segment;
  }

  /** Resolves when every record appended so far is durable; rejects once the log has failed. */
  async drain(): Promise<void> {
    if (this.failure !== null) throw storageFailed(this.failure);
    if (this.unsynced.length === 0) return;
    await new Promise<void>((resolve, reject) => this.unsynced.push({ seq: this.seq, fd: -1, resolve, reject }));
  }

  async close(): Promise<void> {
    await this.drain().catch(() => undefined);
    if (this.fd >= 0) this.retired.push(this.fd);
    this.fd = -1;
    this.closeRetired();
  }

  /**
   * The current segment's file, created (and its predecessor retired) on first use. With fsync,
   * the predecessor is made durable before the new segment gets a byte, so a power cut can tear
   * only the last segment: replay may then tell a torn tail (cut off) from damage (an error).
   * No room for a new file is StorageFull (nothing was written; the next append tries again): the
   * append of `bytes` that needed it fails.
   */
  private file(bytes: number): number {
    if (this.fdSegment === this.segment && this.fd >= 0) return this.fd;
    if (this.fd >= 0 && this.durability === 'fsync' && this.fdSynced !== this.fd) {
      try {
        walIo.fdatasyncSync(this.fd);
      } catch (e) {
        throw this.fail(e);
      }
      this.fdSynced = this.fd;
    }
    let fd: number;
    try {
      fd = openSync(join(this.dir, segmentName(this.segment)), 'a');
    } catch (e) {
      if (!isNoSpace(e)) throw this.fail(e);
      this.space?.noteNoSpace(SEGMENT_HEADER_BYTES + bytes);
      throw new SvcError('StorageFull', `the disk of ${this.dir} is full: no room for a new write-ahead log segment; writes are refused until space is freed`, { cause: e });
    }
    try {
      this.segmentFill = fstatSync(fd).size;
    } catch (e) {
      closeSync(fd);
      throw this.fail(e);
    }
    if (this.fd >= 0) this.retired.push(this.fd);
    this.fd = fd;
    this.fdSegment = this.segment;
    this.isDirDirty = this.durability === 'fsync';
    this.closeRetired();
    return fd;
  }

  /** Schedules an fdatasync for what is written and not yet covered, if one may start now. */
  private maybeSync(): void {
    if (!this.maySync()) return;
    if (this.bytesSinceIssue >= GROUP_WAIT_BYTES) { this.startSync(); return; }
    if (this.isSyncScheduled) return;
    this.isSyncScheduled = true;
    setImmediate(() => {
      this.isSyncScheduled = false;
      if (this.maySync()) this.startSync();
    });
  }

  private maySync(): boolean {
    if (this.issuedSeq === this.seq || this.failure !== null) return false;
    return this.syncsInFlight === 0 || (this.syncsInFlight < MAX_SYNCS && this.bytesSinceIssue >= SYNC_SPLIT_BYTES);
  }

  private startSync(): void {
    const upTo = this.seq;
    const fds = new Set<number>();
    for (const p of this.unsynced) if (p.fd >= 0) fds.add(p.fd);
    const withDir = this.isDirDirty;
    this.isDirDirty = false;
    this.issuedSeq = upTo;
    this.bytesSinceIssue = 0;
    this.syncsInFlight += 1;
    this.syncRounds += 1;
    void this.sync([...fds], withDir, upTo);
  }

  /** One fdatasync (per file written) acknowledges every record written before it started. */
  private async sync(fds: number[], withDir: boolean, upTo: number): Promise<void> {
    try {
      for (const fd of fds) await walIo.fdatasync(fd);
      if (withDir) await syncDir(this.dir);
    } catch (e) {
      this.syncsInFlight -= 1;
      this.fail(e);
      return;
    }
    this.syncsInFlight -= 1;
    let done = 0;
    while (done < this.unsynced.length && this.unsynced[done].seq <= upTo) done++;
    for (const p of this.unsynced.splice(0, done)) p.resolve();
    this.closeRetired();
    this.maybeSync();
  }

  /** Closes retired files once no fdatasync in flight or to come can need them. */
  private closeRetired(): void {
    if (this.syncsInFlight > 0 || this.unsynced.some((p) => this.retired.includes(p.fd))) return;
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  /**
   * A failed write or fsync leaves the log's state unknown: stop accepting writes (until a restart
   * replays the log). Returns the error the failing append throws.
   */
  private fail(e: unknown): SvcError {
    if (this.failure === null) this.space?.noteFailed();
    this.failure ??= e;
    for (const p of this.unsynced.splice(0)) p.reject(storageFailed(e));
    return storageFailed(e);
  }
}

function writeAllSync(fd: number, chunks: Uint8Array[]): void {
  // writev may write less than asked (large groups): continue from where it stopped.
  let rest = chunks;
  while (rest.length > 0) {
    let skip = writevSync(fd, rest);
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
