// The disk watched like memory (DESIGN.md): the free space of the data directory's file system is
// a figure beside the memory budget, held against a floor (`--min-free-disk`, `minFreeDisk`).
// Below the floor the database is `full`: the write path refuses writes that add data before
// anything is logged (write/while-disk-full.ts), and the state ends by itself once a poll sees
// space again — no restart. An ENOSPC that still happens (another process filled the disk between
// two polls, or the floor is 0) enters the same state. Any other failure of a log write or fsync
// is `failed`: that one only a restart ends (PostgreSQL's rule: a retried fsync can report
// success over lost data), so it is sticky here.
//
// Polls are one statfs each, every few seconds while there is room and every half second while
// full. Between polls the WAL and checkpoint writers charge what they write, so a writer faster
// than the polls cannot run through the floor: the estimate (last poll less bytes written since)
// crossing the floor enters `full` at once and asks for a poll, which corrects an estimate made
// too low by files deleted meanwhile. (VictoriaMetrics' -storage.minFreeDiskSpaceBytes: read-only
// below it, writable again by itself.)
import { statfs } from 'node:fs/promises';
import { SvcError } from '../errors.js';
import type { DiskFigures, DiskState } from '../figures.js';

/** What the writers of the data directory (WAL, checkpoints) tell the guard: narrow on purpose. */
export interface SpaceWatch {
  /** `bytes` more were written to the disk. */
  charge(bytes: number): void;
  /** A write of `bytes` met ENOSPC; nothing of it was kept. */
  noteNoSpace(bytes: number): void;
  /** A log write or fsync failed otherwise: the log's state is unknown until a restart. */
  noteFailed(): void;
}

/** The part of statfs(2) the guard reads. */
export type StatFs = (dir: string) => Promise<{ readonly bavail: number; readonly bsize: number; readonly blocks: number }>;

export interface DiskGuardOptions {
  /** Where the guard reports its state changes. */
  readonly log?: (message: string) => void;
  /** Test seam: the file system's figures (default fs.promises.statfs). */
  readonly statfs?: StatFs;
  /** False: no timer, polls only when `poll()` is called (tests). */
  readonly isPolling?: boolean;
}

const GIB = 1024 ** 3;
/** The default floor: 1 GiB, or this share of the disk when that is smaller. */
const DEFAULT_FLOOR_SHARE = 0.05;
const POLL_OK_MS = 2_000;
const POLL_FULL_MS = 500;

/** True for the errors that mean "no room": recoverable once space returns. */
export function isNoSpace(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The floor when none is configured: the smaller of 1 GiB and 5 % of a disk of `total` bytes. */
export function defaultFloor(total: number): number {
  return Math.min(GIB, Math.floor(total * DEFAULT_FLOOR_SHARE));
}

export class DiskGuard implements SpaceWatch {
  private stateNow: DiskState = 'ok';
  /** Free bytes at the last poll, and bytes charged since it started. */
  private measured = 0;
  private charged = 0;
  private totalBytes = 0;
  /** After an ENOSPC: the bytes the failed write needed (space is back once that much is free too). */
  private needed = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private isClosed = false;
  /** Settled once space is back: what paused appliers wait for (null while not full). */
  private space: { readonly promise: Promise<void>; readonly resolve: () => void } | null = null;
  private refused = 0;
  private noSpace = 0;
  private readonly statfs: StatFs;
  private readonly log: ((message: string) => void) | undefined;
  private readonly isPolling: boolean;

  private constructor(readonly dir: string, private floorBytes: number, options: DiskGuardOptions) {
    this.statfs = options.statfs ?? statfs;
    this.log = options.log;
    this.isPolling = options.isPolling ?? true;
  }

  /**
   * Watches the file system of `dir` against `minFreeDisk` bytes (undefined: the smaller of
   * 1 GiB and 5 % of the disk), after a first poll.
   * @example
   * const disk = await DiskGuard.open('./data', 512 * 1024 * 1024);
   * if (disk.isFull) throw disk.refusal();
   */
  static async open(dir: string, minFreeDisk: number | undefined, options: DiskGuardOptions = {}): Promise<DiskGuard> {
    const guard = new DiskGuard(dir, minFreeDisk ?? 0, options);
    await guard.measure();
    if (minFreeDisk === undefined) guard.floorBytes = defaultFloor(guard.totalBytes);
    guard.update();
    guard.schedule();
    return guard;
  }

  get state(): DiskState {
    return this.stateNow;
  }

  /** True while writes that add data are refused for want of space (not after a failure). */
  get isFull(): boolean {
    return this.stateNow === 'full';
  }

  get floor(): number {
    return this.floorBytes;
  }

  /** Free bytes now, as far as the guard knows (the last poll less what was written since). */
  get free(): number {
    return Math.max(0, this.measured - this.charged);
  }

  figures(): DiskFigures {
    return { state: this.stateNow, free: this.free, total: this.totalBytes, floor: this.floorBytes, refusals: this.refused, noSpaceErrors: this.noSpace };
  }

  /**
   * The error a request refused for space fails with (counted): free bytes, the floor, the option.
   * `isReplica`: a cluster node, which applies none of its logs meanwhile and so refuses every
   * request that must see them, removals and reads included.
   */
  refusal(isReplica = false): SvcError {
    this.refused++;
    const why = this.needed > 0
      ? `the disk of ${this.dir} is full (a write of ${this.needed} bytes met "no space left on device"; ${this.free} bytes free, floor ${this.floorBytes} bytes, --min-free-disk / minFreeDisk)`
      : `free disk space of ${this.dir} is ${this.free} bytes, below the floor of ${this.floorBytes} bytes (--min-free-disk / minFreeDisk)`;
    const rule = isReplica
      ? 'this cluster node applies none of the cluster\'s logs until space is freed, so it refuses every request that must see them, reads and writes; ask another node'
      : 'writes that add data are refused until space is freed; reads, removals and DROP TABLE go on';
    return new SvcError('StorageFull', `${why}: ${rule}`);
  }

  /**
   * Null while there is room; else a promise that resolves once space is back (a replica's
   * consumer waits on it instead of applying).
   */
  whenSpace(): Promise<void> | null {
    if (this.stateNow !== 'full') return null;
    if (this.space === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => { resolve = r; });
      this.space = { promise, resolve };
    }
    return this.space.promise;
  }

  charge(bytes: number): void {
    this.charged += bytes;
    if (this.stateNow === 'ok' && this.free < this.floorBytes) {
      this.update();
      // The estimate may be low (files deleted since the last poll): measure now.
      void this.poll();
    }
  }

  noteNoSpace(bytes: number): void {
    this.noSpace++;
    this.needed = Math.max(this.needed, bytes);
    // Whatever the last poll said, nothing is free now (until the next poll measures it).
    this.charged = Math.max(this.charged, this.measured);
    this.update();
    void this.poll();
  }

  noteFailed(): void {
    if (this.stateNow === 'failed') return;
    this.stateNow = 'failed';
    this.releaseWaiters();
    this.log?.(`a write-ahead log write or fsync failed: writes are refused until a restart replays the log`);
  }

  /** Measures the file system now and updates the state (the timer does this by itself). */
  async poll(): Promise<void> {
    if (this.polling !== null) return this.polling;
    this.polling = this.measure()
      .then(() => this.update(), (e: unknown) => this.log?.(`statfs of ${this.dir} failed: ${(e as Error).message}`))
      .finally(() => {
        this.polling = null;
        this.schedule();
      });
    return this.polling;
  }

  close(): void {
    this.isClosed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One statfs: bytes charged before it started are in its figure now. */
  private async measure(): Promise<void> {
    const chargedBefore = this.charged;
    const s = await this.statfs(this.dir);
    this.totalBytes = s.blocks * s.bsize;
    this.measured = s.bavail * s.bsize;
    this.charged -= chargedBefore;
  }

  /** The state the figures say: full below the floor (or below what a failed write needed). */
  private update(): void {
    if (this.stateNow === 'failed') return;
    const free = this.free;
    const isShort = free < this.floorBytes || (this.needed > 0 && free < this.needed);
    if (isShort && this.stateNow === 'ok') {
      this.stateNow = 'full';
      this.log?.(`${this.needed > 0 ? `the disk of ${this.dir} is full (no space left for a write of ${this.needed} bytes)` : `free disk space of ${this.dir} is ${free} bytes, below the floor of ${this.floorBytes} bytes (--min-free-disk)`}: writes that add data are refused until space is freed`);
      this.schedule();
    } else if (!isShort && this.stateNow === 'full') {
      this.stateNow = 'ok';
      this.needed = 0;
      this.log?.(`free disk space of ${this.dir} is back to ${free} bytes (floor ${this.floorBytes} bytes): writes are accepted again`);
      this.releaseWaiters();
      this.schedule();
    }
  }

  private releaseWaiters(): void {
    this.space?.resolve();
    this.space = null;
  }

  /** The next poll: soon while full, every few seconds otherwise. */
  private schedule(): void {
    if (!this.isPolling || this.isClosed || this.polling !== null) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, this.stateNow === 'full' ? POLL_FULL_MS : POLL_OK_MS);
    this.timer.unref();
  }
}
