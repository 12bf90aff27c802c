// What the engine did since it opened, as one plain object (Database.figures()): the server's
// GET /metrics and readiness read it. Counters only grow; the engine parts that do the work bump
// them (the write path, the WAL writer, the checkpoint scheduler, queries). The memory budget's
// figures (memory/memory-budget.ts) and the disk's (durability/disk-guard.ts) are what they are now.
import type { WorkerFigures } from './workers/index.js';
import type { MemoryFigures } from './memory/index.js';

export interface EngineFigures {
  /** Rows of acknowledged writes (inserts, line protocol, remote write), replay not counted. */
  readonly rowsIngested: number;
  /** Bytes appended to the WAL, and fdatasync rounds (one serves every writer waiting then). */
  readonly walBytes: number;
  readonly walFsyncs: number;
  /** Checkpoints written, their total and latest duration in seconds (null before the first). */
  readonly checkpoints: number;
  readonly checkpointSeconds: number;
  readonly lastCheckpointSeconds: number | null;
  readonly checkpointFailures: number;
  /** Queries run (failed ones included), their total duration in seconds, and the failures. */
  readonly queries: number;
  readonly querySeconds: number;
  readonly queryFailures: number;
  /** The memory budget: limit, used, held, cached, evictions and read-backs. */
  readonly memory: MemoryFigures;
  /** The data directory's disk: state (ok, full, failed), free bytes, the floor, writes refused. */
  readonly disk: DiskFigures;
  /** In a cluster: each log's position here and the appends' retries; null on a single node. */
  readonly replication: ReplicationFigures | null;
  /** Materialized views: each one's pending ranges and lag, and the lag of recent refreshes. */
  readonly views: ViewFigures;
  /** The worker threads (docs/workers.md): how many, jobs in flight and done, replacements. */
  readonly workers: WorkerFigures;
}

/** The mutable counters behind EngineFigures, shared by the parts that bump them. */
export class EngineCounters {
  rowsIngested = 0;
  checkpoints = 0;
  checkpointSeconds = 0;
  lastCheckpointSeconds: number | null = null;
  checkpointFailures = 0;
  queries = 0;
  querySeconds = 0;
  queryFailures = 0;

  /** Times `work` as a query. */
  async timeQuery<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } catch (e) {
      this.queryFailures++;
      throw e;
    } finally {
      this.queries++;
      this.querySeconds += (performance.now() - started) / 1000;
    }
  }

  /** Times `work` as a checkpoint. */
  async timeCheckpoint(work: () => Promise<void>): Promise<void> {
    const started = performance.now();
    try {
      await work();
    } catch (e) {
      this.checkpointFailures++;
      throw e;
    }
    const seconds = (performance.now() - started) / 1000;
    this.checkpoints++;
    this.checkpointSeconds += seconds;
    this.lastCheckpointSeconds = seconds;
  }
}

/** A materialized view's refresh state now (SPEC §15). */
export interface ViewState {
  readonly name: string;
  /** Time ranges still to compute, and how long the oldest has waited (ms; 0: up to date). */
  readonly pendingRanges: number;
  readonly lagMs: number;
}

/** The materialized views: each one's state, and how far behind recent refreshes were (engine/views/). */
export interface ViewFigures {
  readonly views: readonly ViewState[];
  /** Ranges settled since the database opened. */
  readonly refreshes: number;
  /** Lag of the recent refreshes (ms) — from a write's apply to the refresh that computed it: median, 99th percentile, worst (0 before the first). */
  readonly lagP50Ms: number;
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
}

/** A cluster node's figures now, for each log it follows (engine/cluster/). */
export interface ReplicationFigures {
  readonly logs: readonly LogFigures[];
}

export interface LogFigures {
  readonly name: string;
  /** The highest sequence applied here. */
  readonly appliedSeq: number;
  /** Messages the consumer had not delivered yet (null until its first delivery or count). */
  readonly pending: number | null;
  /** Parts of this node's appends published again after an attempt went unanswered or was refused. */
  readonly publishRetries: number;
  /** Of those, the ones answered "duplicate" without a sequence (the first attempt not stored yet). */
  readonly unstoredDuplicates: number;
}

export type DiskState = 'ok' | 'full' | 'failed';

/** The disk now, as `db.figures().disk`, readiness and `/metrics` report it. */
export interface DiskFigures {
  /** `ok`; `full`: below the floor or out of space (writes that add data refused); `failed`: a log write or fsync failed (writes refused until a restart). */
  readonly state: DiskState;
  /** Free bytes of the data directory's file system (statfs, for unprivileged users) less what svc wrote since the last poll. */
  readonly free: number;
  /** Size of that file system, in bytes. */
  readonly total: number;
  /** The floor: below it writes that add data are refused. */
  readonly floor: number;
  /** Requests refused for want of space since the database opened: writes (on a cluster node, reads too). */
  readonly refusals: number;
  /** ENOSPC (or EDQUOT) errors a log append or a checkpoint met. */
  readonly noSpaceErrors: number;
}
