// The log is an interface (DESIGN.md): a Database is given one log at open and asks it, never
// "am I a replica?". Two implementations: the local WAL with its checkpoints (local-log.ts, one
// node) and a cluster's JetStream streams (engine/cluster/, loaded only with `--cluster nats://…`),
// as nats-server hands its Raft one WAL interface whatever stores it. Either way `open` feeds the
// state through `apply` (a checkpoint, then what the log holds after it), `commit` makes a write's
// records durable and applied here, and checkpoints, closing, figures and readiness are the log's.
// Nothing here names NATS.
import type { EntryType } from '../catalog/entry-store.js';
import type { DiskGuard } from '../durability/disk-guard.js';
import type { WalRecord } from '../durability/wal/records.js';
import type { EngineCounters, EngineFigures } from '../figures.js';
import type { PartPlacement, PartRequest, QueryResult, QuerySignal } from '../query/index.js';
import type { ColumnDef } from '../types.js';
import type { WriteLog } from '../write/index.js';

export interface DatabaseLog extends WriteLog {
  /**
   * Feeds the (empty) state of `state` from the log — its newest checkpoint, then every record
   * after it — and keeps it: resolves once the database may take writes. Called once, first.
   */
  open(state: LogState): Promise<void>;
  /**
   * Takes a checkpoint now (Database.checkpoint()); false when this log takes none here (a
   * cluster node that does not hold every table's rows).
   */
  checkpoint(): Promise<boolean>;
  /**
   * Takes a checkpoint, then runs `then(seq)` before any other checkpoint starts (a backup copies
   * the WAL written since, which the next checkpoint would delete). Only a log whose checkpoints
   * and WAL are in the data directory has it (the local log); a cluster's backup is its streams.
   */
  checkpointThen?(then: (seq: number) => Promise<void>): Promise<void>;
  /** Memory pressure: a checkpoint after which the data it wrote may leave memory. */
  relieve(): Promise<void>;
  /** False while this node is still catching up with the log (readiness says 503). */
  readonly isCaughtUp: boolean;
  /**
   * Where the parts of a SELECT run (engine/query/statements/run-placed-select.ts): null when this
   * node holds every table's rows, so every query runs here as on a single node.
   */
  readonly placement: PartPlacement | null;
  figures(): DatabaseLogFigures;
  /** Finishes what is under way (the local log: a last checkpoint) and lets go of the log. */
  close(): Promise<void>;
}

/** The log's share of the engine's figures (a cluster node has no WAL: its figures are the streams'). */
export type DatabaseLogFigures = Pick<EngineFigures, 'walBytes' | 'walFsyncs' | 'replication'>;

/** What a log is opened with: the database's state and the services of the database it drives. */
export interface LogState {
  /** Changes the state: the one apply of live writes and of replay alike (EntryStore.apply). */
  apply(record: WalRecord): void;
  /** The work before a payload's records are applied that may wait (a DELETE reading rows back from disk). */
  prepare(records: readonly WalRecord[]): Promise<void>;
  /** Drops what prepare() did for records that will not be applied (a replica refused their entry). */
  unprepare(records: readonly WalRecord[]): void;
  /** Reads it. */
  readonly view: StateView;
  /** Writes and loads its checkpoints. */
  readonly checkpoints: LogCheckpoints;
  /** Keeps its memory budget. */
  readonly memory: LogMemory;
  /** The data directory's free space against its floor (docs/disk.md): told what the log writes, asked before it applies. */
  readonly disk: DiskGuard;
  /** Runs parts of other nodes' queries. */
  readonly parts: PartRunner;
  /** The engine's counters: checkpoints are timed there. */
  readonly counters: EngineCounters;
}

/** What a log needs of the local state to check an entry or a claim (an alias in use, and as what). */
export interface StateView {
  /** The type of a live entry here, or null. */
  typeOf(alias: string): EntryType | null;
  /** The columns of a table here (`$timestamp` aside), or null when there is no such table. */
  columnsOf(table: string): readonly ColumnDef[] | null;
  /** The source table of materialized view `alias`, or null when it is no view. */
  sourceOf(alias: string): string | null;
  /** The materialized views of table `table` (none: empty). */
  viewsOf(table: string): readonly string[];
}

/**
 * The database's checkpoints, in its data directory (engine/durability/checkpoint/). The local
 * log numbers them by WAL segment; a cluster tags them with the log positions they cover and
 * shares them through its object store.
 */
export interface LogCheckpoints {
  /** The data directory's checkpoints folder. */
  readonly dir: string;
  /**
   * Snapshots the state at once (before returning: the caller notes the log's position in the same
   * turn) and writes it as checkpoint `n` once `flushed` (what the log makes durable first, if
   * anything) has resolved; resolves once the checkpoint is durable.
   */
  take(n: number, flushed?: Promise<void>): Promise<void>;
  /** Loads the newest checkpoint of the folder into the (still empty) state; the WAL segment to replay from (0: none). */
  load(): Promise<number>;
  /** Keeps every file of the folder until the returned function is called (an upload reads them). */
  lease(): () => void;
}

/**
 * The memory budget (SPEC §10) as a log's apply meets it: a cluster node asks before applying an
 * entry and waits — its consumer paused, the stream untouched — while a checkpoint makes room.
 */
export interface LogMemory {
  /** The budget, in bytes. */
  readonly limit: number;
  /**
   * Null when `bytes` more fit now; else a promise that resolves once a checkpoint made room (ask
   * again, `hasWaited`: then it fits up to the limit itself), or rejects with MemoryLimit when none
   * could (write/memory-pressure.ts).
   */
  admit(bytes: number, hasWaited?: boolean): Promise<void> | null;
  /** After an entry was applied: past half the budget a checkpoint starts in the background. */
  afterApply(): void;
}

/**
 * Runs parts `names` of a SELECT another node was asked (after this node's read barrier), with
 * that node's `now`, limits and remaining time.
 */
export type PartRunner = (request: PartRequest, names: readonly string[], signal: QuerySignal) => Promise<QueryResult>;
