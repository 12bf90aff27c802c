// The options of Database.open, their defaults and their validation: every limit is checked
// before anything touches the disk, and a bad value is an InvalidArgument that states the limit
// (a batchRows of 0 used to loop forever, a NaN threshold to checkpoint never).
import { DEFAULT_SEGMENT_BYTES } from './durability/wal/wal-writer.js';
import { SvcError } from './errors.js';
import { defaultMemoryLimit } from './memory/index.js';
import { resolveLimits } from './query/index.js';
import type { QueryLimits } from './query/index.js';
import { DEFAULT_BATCH_ROWS } from './storage/table.js';
import type { Durability } from './types.js';

export interface OpenOptions {
  /** Directory holding the WAL, checkpoints and the lock file; created if missing. */
  readonly dataDir: string;
  /** When a write is acknowledged: after fsync (default), after write(2), or at once (no WAL). */
  readonly durability?: Durability;
  /** Rows per sealed batch (1 … 16,777,216; default 65,536). */
  readonly batchRows?: number;
  /** Take a checkpoint once this many WAL bytes were written since the last one (default 1 GiB). */
  readonly checkpointWalBytes?: number;
  /** A WAL segment file is closed and a new one started at this size (default 64 MiB, at least 1 KiB). */
  readonly walSegmentBytes?: number;
  /**
   * How often expired entries are swept and shards past a table's TTL or the retention size
   * removed, in ms (0 = never; reads still hide expired entries and rows past a TTL).
   */
  readonly sweepIntervalMs?: number;
  /**
   * Bytes of table data on disk past which the oldest shards across tables are removed (SPEC §14,
   * `--retention-size`); 0 (default) keeps everything.
   */
  readonly retentionSize?: number;
  /** Where the database reports what it did on its own (sweeps, torn WAL tails). */
  readonly log?: (message: string) => void;
  /** Default resource limits of every query (engine/query/limits.ts); a query's options override them. */
  readonly queryLimits?: Partial<QueryLimits>;
  /**
   * Bytes that table column data, tails, runs and blob contents may take in memory (at least
   * 1 MiB; default 60 % of the smaller of the machine's memory and its cgroup limit). Data in
   * checkpoint files beyond it is read back when needed; see docs/memory.md.
   */
  readonly memoryLimit?: number;
  /**
   * Free bytes the data directory's file system must keep: below them writes that add data fail
   * with StorageFull until space is back (removals go on). 0 = only a real "disk full" stops
   * them. Default: the smaller of 1 GiB and 5 % of the disk. See docs/disk.md.
   */
  readonly minFreeDisk?: number;
  /**
   * Encode the columns of checkpoint files with codecs chosen per column (default true); false
   * writes them as they lie in memory (docs/storage.md). Files written either way always open.
   */
  readonly compression?: boolean;
  /**
   * Worker threads for scans and ingest parsing (1 … 1024; default 1: everything on the main
   * thread). N ≥ 2 starts N workers beside the main thread, which keeps the write path, the WAL
   * and the catalog (docs/workers.md). svc_rest's `--parallelism-count` defaults to the cores.
   */
  readonly parallelism?: number;
  /**
   * Rows a scan must read (values, not statistics) before it is split across the worker threads
   * (default 2,097,152; at least 1): below it the trips to the workers cost more than they save
   * (a hot `sum WHERE` over 1 M rows ran at 0.66× of one thread on 2 cores, over 10 M at 1.6-1.8×).
   */
  readonly parallelScanRows?: number;
}

/** OpenOptions with every default filled in. */
export type ResolvedOptions = Required<Omit<OpenOptions, 'log' | 'queryLimits' | 'minFreeDisk'>> & Pick<OpenOptions, 'log' | 'minFreeDisk'> & { readonly queryLimits: QueryLimits };

/**
 * A checkpoint costs about the disk of the batches added since the last one, and 1 GiB of WAL
 * (PostgreSQL's max_wal_size default) keeps replay on open to about two seconds.
 */
const DEFAULT_CHECKPOINT_WAL_BYTES = 1024 * 1024 * 1024;
const MAX_BATCH_ROWS = 1 << 24;
const MIN_MEMORY_LIMIT = 1024 * 1024;
const MIN_SEGMENT_BYTES = 1024;
const MAX_PARALLELISM = 1024;
const DEFAULT_PARALLEL_SCAN_ROWS = 1 << 21;
const DURABILITIES: readonly Durability[] = ['fsync', 'os', 'none'];

export function resolveOpenOptions(options: OpenOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('the options must be an object with a dataDir');
  const { dataDir, log } = options;
  if (typeof dataDir !== 'string' || dataDir.length === 0) throw invalid('dataDir must be a non-empty path');
  const durability = options.durability ?? 'fsync';
  if (!DURABILITIES.includes(durability)) throw invalid(`durability must be fsync, os or none, got ${String(durability)}`);
  if (log !== undefined && typeof log !== 'function') throw invalid('log must be a function');
  return {
    dataDir,
    durability,
    batchRows: integer('batchRows', options.batchRows ?? DEFAULT_BATCH_ROWS, 1, MAX_BATCH_ROWS),
    checkpointWalBytes: integer('checkpointWalBytes', options.checkpointWalBytes ?? DEFAULT_CHECKPOINT_WAL_BYTES, 1, Number.MAX_SAFE_INTEGER),
    walSegmentBytes: integer('walSegmentBytes', options.walSegmentBytes ?? DEFAULT_SEGMENT_BYTES, MIN_SEGMENT_BYTES, 2 ** 31 - 1),
    sweepIntervalMs: integer('sweepIntervalMs', options.sweepIntervalMs ?? 1000, 0, 2 ** 31 - 1),
    retentionSize: integer('retentionSize', options.retentionSize ?? 0, 0, Number.MAX_SAFE_INTEGER),
    memoryLimit: integer('memoryLimit', options.memoryLimit ?? defaultMemoryLimit(), MIN_MEMORY_LIMIT, Number.MAX_SAFE_INTEGER),
    minFreeDisk: options.minFreeDisk === undefined ? undefined : integer('minFreeDisk', options.minFreeDisk, 0, Number.MAX_SAFE_INTEGER),
    compression: boolean('compression', options.compression ?? true),
    parallelism: integer('parallelism', options.parallelism ?? 1, 1, MAX_PARALLELISM),
    parallelScanRows: integer('parallelScanRows', options.parallelScanRows ?? DEFAULT_PARALLEL_SCAN_ROWS, 1, Number.MAX_SAFE_INTEGER),
    log,
    queryLimits: resolveLimits(options.queryLimits),
  };
}

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function boolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false, got ${String(value)}`);
  return value;
}

function invalid(message: string): SvcError {
  return new SvcError('InvalidArgument', message);
}
