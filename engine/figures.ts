// What the engine did since it opened, as one plain object (Database.figures()): the server's
// GET /metrics and readiness read it. Counters only grow; the engine parts that do the work bump
// them (the write path, the WAL writer, the checkpoint scheduler, queries). The memory budget's
// figures (memory/memory-budget.ts) and the disk's (durability/disk-guard.ts) are what they are now.
import type { DiskFigures } from './durability/disk-guard.js';
import type { MemoryFigures } from './memory/index.js';
import type { ReplicationFigures } from './replication.js';

export interface EngineFigures {
  /** Rows applied by writes (inserts, line protocol, remote write), replay not counted. */
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
