// A replicated database (Database.openReplicated, the seam a cluster node uses) with no cluster
// behind it: the test is its log, handing records to `state.apply` and calling its checkpoints.
import { Database } from '../../engine/database.js';
import type { DatabaseLog, LogState } from '../../engine/log/database-log.js';

export async function stubReplica(dataDir: string): Promise<{ db: Database; state: LogState }> {
  let state: LogState | null = null;
  const log: DatabaseLog = {
    open: async (s) => { state = s; },
    commit: async () => undefined,
    readBarrier: async () => undefined,
    checkpoint: async () => false,
    relieve: async () => undefined,
    isCaughtUp: true,
    isAppliedAtCommit: false,
    placement: null,
    failure: null,
    figures: () => ({ walBytes: 0, walFsyncs: 0, replication: { logs: [] } }),
    close: async () => undefined,
  };
  const db = await Database.openReplicated({ dataDir }, log);
  return { db, state: state! };
}

/** The INT64 column `k` of `table` as the database answers SELECT k (in its order). */
export async function keysIn(db: Database, table: string): Promise<number[]> {
  const r = await db.query(`SELECT k FROM ${table}`);
  if (r.kind !== 'rows') throw new Error(`SELECT k FROM ${table} answered ${r.kind}`);
  return [...(r.tables[0].columns[0].values as BigInt64Array)].map(Number);
}
