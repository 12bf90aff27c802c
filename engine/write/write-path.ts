// The one owner of every write: validate once → log → apply → acknowledge when durable, whatever
// produced the write (the embedded API, the query language, an ingest protocol) and whichever log
// the database was given (engine/log/: the local WAL, or a cluster's streams). The records of one
// write are logged as one payload and applied together, so a write is replayed whole or not at
// all. On the local WAL, validation, the append and the apply happen in one synchronous step, so
// the catalog a write was checked against is the one it changes; the append writes the records
// before it returns and only the fdatasync is awaited, so a writer overlaps its next CPU work
// with the disk, and a write that fails changes nothing in memory. While the disk is below its
// floor (durability/disk-guard.ts) a write that adds data is refused first, before anything is
// logged; removals go on (while-disk-full.ts).
import type { EntryStore } from '../catalog/entry-store.js';
import { nowSeconds } from '../catalog/expiry.js';
import type { DiskGuard } from '../durability/disk-guard.js';
import type { WalRecord } from '../durability/wal/records.js';
import { SvcError } from '../errors.js';
import type { MemoryPressure } from './memory-pressure.js';
import { opBytes, validateOps } from './validate-ops.js';
import { isAllowedWhileFull } from './while-disk-full.js';
import type { TableRows, WriteOp } from './write-ops.js';
import type { EngineCounters } from '../figures.js';

/**
 * The log as the write path sees it (the database's log, engine/log/database-log.ts: the local
 * WAL or a cluster's streams). `commit` takes the records of one write as one unit and resolves
 * once they are durable and applied here. The local WAL writes and applies them before it
 * returns; a replicated log applies them when they come back from the log, in its order, and
 * rejects with StaleWrite when the state they were validated against had moved on.
 */
export interface WriteLog {
  commit(records: readonly WalRecord[]): Promise<void>;
  /** Resolves once this node has applied every write acknowledged anywhere before the call; null: nothing to wait for. */
  readBarrier(): Promise<void> | null;
  /** Set once the log failed for good: every write is then refused with it. */
  readonly failure: Error | null;
  /**
   * True when a commit is applied as it is logged (the local WAL); false for a log that applies
   * only what comes back from it (a cluster's), which applies nothing while the disk is full.
   */
  readonly isAppliedAtCommit: boolean;
}

/** A write validated against a state the log had moved past: validate it again (cluster only). */
export class StaleWrite extends Error {
  override readonly name = 'StaleWrite';
}

const MAX_STALE_ATTEMPTS = 30;

export class WritePath {
  constructor(
    private readonly store: EntryStore,
    private readonly log: WriteLog,
    private readonly counters: EngineCounters,
    /** Null: no memory budget to keep (a catalog of tests without a database). */
    private readonly pressure: MemoryPressure | null = null,
    /** Null: no disk floor to keep. */
    private readonly disk: Pick<DiskGuard, 'isFull' | 'refusal'> | null = null,
  ) {}

  /**
   * Applies `ops` as one atomic write, durable when the promise resolves. Resolves, per op,
   * whether it changed anything; rejects with the first op's error, nothing applied.
   * @example
   * await writes.write([
   *   { kind: 'createTable', name: 'cpu', columns: [{ name: 'usage', type: 'DOUBLE' }], ifNotExists: true },
   *   { kind: 'insert', table: 'cpu', rows: { ts: new BigInt64Array([1n]), columns: { usage: { type: 'DOUBLE', values: new Float64Array([0.5]), nulls: null } } } },
   * ]);
   */
  async write(ops: readonly WriteOp[]): Promise<boolean[]> {
    this.checkStorage(ops);
    if (this.pressure !== null) {
      const bytes = ops.reduce((n, op) => n + opBytes(op), 0);
      let wait = this.pressure.admit(bytes);
      // The caller may reuse its arrays once the call returns: a write that waits copies them.
      if (wait !== null) ops = ops.map(detached);
      while (wait !== null) {
        await wait;
        wait = this.pressure.admit(bytes, true);
      }
      this.checkStorage(ops);
    }
    // A DELETE's removal is computed ahead (rows read back from disk, replacement batches built),
    // so the synchronous step below only swaps batches; its outcomes are kept by batch, so rows
    // written meanwhile are still decided there. A log that applies only what comes back from it
    // (a cluster's) prepares the removal where it applies the entry (its follower's admit step).
    const removals = this.log.isAppliedAtCommit ? removalsOf(ops) : [];
    if (removals.length > 0) await this.store.prepare(removals);
    try {
      return await this.committed(ops);
    } finally {
      if (removals.length > 0) this.store.unprepare(removals);
    }
  }

  /**
   * Refuses a write the storage cannot take now, before anything is logged: any write once the log
   * stopped; while the disk is below its floor, one that adds data — or, on a log that applies only
   * what comes back from it (a cluster node's), any write, because the node cannot apply the log
   * (its own entries included) until space is back.
   */
  private checkStorage(ops: readonly WriteOp[]): void {
    const { failure } = this.log;
    if (failure !== null) throw failure;
    if (this.disk?.isFull !== true) return;
    const isReplica = !this.log.isAppliedAtCommit;
    if (isReplica || !isAllowedWhileFull(ops)) throw this.disk.refusal(isReplica);
  }

  private async committed(ops: readonly WriteOp[]): Promise<boolean[]> {
    // In a cluster this node's state may be behind the log when a write is validated: another
    // node's create or schema change may land first. The log then refuses the entry (StaleWrite,
    // the same decision on every node), and the write is validated again once caught up.
    for (let attempt = 1; ; attempt++) {
      // Validation and the commit in one synchronous step: the local WAL applies the records
      // before it returns, so the catalog a write was checked against is the one it changes.
      const { records, changes } = validateOps(this.store, ops, nowSeconds());
      if (records.length === 0) return changes;
      const committed = this.log.commit(records);
      this.pressure?.afterWrite();
      try {
        await committed;
      } catch (e) {
        if (!(e instanceof StaleWrite)) throw e;
        if (attempt >= MAX_STALE_ATTEMPTS) throw new SvcError('ClusterUnavailable', `the write met concurrent changes to the same tables ${attempt} times: ${e.message}`);
        await this.log.readBarrier();
        await new Promise((r) => setTimeout(r, Math.min(500, 10 * attempt)));
        continue;
      }
      for (const r of records) if (r.kind === 'TableInsert') this.counters.rowsIngested += r.batch.ts.length;
      return changes;
    }
  }
}

/** The DELETE records `ops` will log, for the store to prepare (validation makes the same ones). */
function removalsOf(ops: readonly WriteOp[]): WalRecord[] {
  return ops.flatMap((op) => (op.kind === 'deleteRows' ? [{ kind: 'RowsDelete' as const, name: op.table, statement: op.statement, nowNs: op.nowNs, id: op.id }] : []));
}

/** `op` with copies of the caller's arrays (blob data is already the database's own copy). */
function detached(op: WriteOp): WriteOp {
  if (op.kind !== 'insert') return op;
  const columns: Record<string, TableRows['columns'][string]> = {};
  for (const [name, col] of Object.entries(op.rows.columns)) {
    columns[name] = 'nulls' in col
      ? { ...col, values: col.values.slice(), nulls: col.nulls?.slice() ?? null } as typeof col
      : { ...col, values: col.values.slice() } as typeof col;
  }
  return { ...op, rows: { ts: op.rows.ts.slice(), columns } };
}
