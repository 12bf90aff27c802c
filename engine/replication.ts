// The seam between the embedded engine and a cluster (engine/cluster/, loaded only with
// `--cluster nats://…`): a replicated database gets its records' order from a replicated log
// instead of its own WAL. `commit` hands the records to that log and resolves once the log has
// acknowledged them and this node has applied them (read-your-writes here); the state changes only
// through `apply` calls the replication makes as it follows the log, in the log's order, on every
// node alike. `readBarrier` resolves once this node has applied every write acknowledged (on any
// node) before it was called. Nothing here names NATS: single-node svc never loads the cluster.
import type { WalRecord } from './durability/wal/records.js';
import type { EntryType } from './catalog/entry-store.js';
import type { SvcError } from './errors.js';
import type { ColumnDef } from './types.js';
import type { PartPlacement, PartRequest, QueryResult, QuerySignal } from './query/index.js';

/** What the cluster needs of the local state to check a claim (an alias in use, and as what). */
export interface ReplicaView {
  /** The type of a live entry here, or null. */
  typeOf(alias: string): EntryType | null;
  /** The columns of a table here (`$timestamp` aside), or null when there is no such table. */
  columnsOf(table: string): readonly ColumnDef[] | null;
}

export interface Replication {
  commit(records: readonly WalRecord[]): Promise<void>;
  readBarrier(): Promise<void>;
  /**
   * Takes a checkpoint of this replica for the cluster (tagged with the log positions it covers);
   * false when this node is not one that takes them.
   */
  checkpoint(): Promise<boolean>;
  /** True while this node has caught up with every log it follows. */
  readonly isCaughtUp: boolean;
  /**
   * Where the parts of a SELECT run (engine/query/statements/run-placed-select.ts): null when this
   * node holds every table's rows, so every query runs here as on a single node.
   */
  readonly placement: PartPlacement | null;
  /** Set when following a log failed for good: the node then refuses reads and writes. */
  readonly failure: Error | null;
  /** How far this node has applied each log, and how its appends went (GET /metrics). */
  figures(): ReplicationFigures;
  close(): Promise<void>;
}

/** A replica's figures now, for each log it follows. */
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

/**
 * The replica's own checkpoints, in its data directory (engine/durability/checkpoint/): the
 * cluster tags them with the log positions they cover and shares them through its object store.
 */
export interface ReplicaCheckpoints {
  /** The data directory's checkpoints folder. */
  readonly dir: string;
  /**
   * Snapshots the state at once (before returning: the caller notes the log positions in the same
   * turn) and writes it as checkpoint `n`; resolves once durable.
   */
  take(n: number): Promise<void>;
  /** Loads the newest checkpoint of the folder into the (still empty) state. */
  load(): Promise<void>;
  /** Keeps every file of the folder until the returned function is called (an upload reads them). */
  lease(): () => void;
}

/**
 * The memory budget (SPEC §10) as a replica's apply meets it: the replica asks before applying an
 * entry and waits — its consumer paused, the stream untouched — while a checkpoint makes room.
 */
export interface ReplicaMemory {
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
  /** What makes room on this replica: a checkpoint of it, numbered and kept with the cluster's. */
  relieveWith(checkpoint: () => Promise<void>): void;
}

/**
 * The disk's floor as a replica's apply meets it (docs/disk.md): below it the replica applies no
 * entry — its consumer paused, the stream keeping the entries — rather than diverge from the
 * other nodes by skipping one, and it resumes by itself once space is back.
 */
export interface ReplicaDisk {
  /** Null while the data directory's disk is above its floor; else resolves once it is again. */
  whenSpace(): Promise<void> | null;
  /** What a request this node cannot serve meanwhile fails with (StorageFull: free bytes, floor, option). */
  refusal(): SvcError;
}

/**
 * Runs parts `names` of a SELECT another node was asked (after this node's read barrier), with
 * that node's `now`, limits and remaining time.
 */
export type PartRunner = (request: PartRequest, names: readonly string[], signal: QuerySignal) => Promise<QueryResult>;

/** What a replication is started with: the local state and the services of its database. */
export interface ReplicaState {
  /** Changes the local state. */
  apply(record: WalRecord): void;
  /** Reads it. */
  readonly view: ReplicaView;
  /** Writes and loads its checkpoints. */
  readonly checkpoints: ReplicaCheckpoints;
  /** Keeps its memory budget. */
  readonly memory: ReplicaMemory;
  /** Keeps its disk's floor. */
  readonly disk: ReplicaDisk;
  /** Runs parts of other nodes' queries. */
  readonly parts: PartRunner;
}

/** Starts the replication of a database. */
export type ReplicationFactory = (state: ReplicaState) => Promise<Replication>;
