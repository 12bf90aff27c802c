// The append side of a log: records go to a RecordLog, and a write is acknowledged once `append`
// resolves. Two implementations take the same records: the local WAL (WalWriter: numbered segment
// files, group commit, single node) and a JetStream stream (engine/cluster/: one replicated stream
// per table group, a cluster of svc nodes). Both frame records the same way (frame.ts), and
// replay of either feeds the same apply (EntryStore.apply). The database sees either through the
// one log it is given at open (engine/log/database-log.ts).
import type { WalRecord } from './records.js';

/** Where an append landed: a number that grows with every append of one log. */
export type LogPosition = number;

export interface RecordLog {
  /**
   * Appends `records` as one unit (replay applies all of them or none); resolves once they are
   * durable for the log's mode, with their position. The records are encoded before it returns:
   * their arrays are not read afterwards. When they could not be written it throws, before it
   * returns, and nothing of them is in the log (the write path applies records as soon as
   * `append` has returned).
   */
  append(records: readonly WalRecord[]): Promise<LogPosition>;
  /** Resolves when everything appended so far is durable; rejects once the log has failed. */
  drain(): Promise<void>;
  /** True once an append failed: the log's state is then unknown and it takes no more writes. */
  readonly hasFailed: boolean;
  close(): Promise<void>;
}
