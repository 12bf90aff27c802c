// What the tables of one database share: the seal size, the memory budget their data is counted
// in, and the read leases that keep the checkpoint files their batches are read back from.
import { MemoryBudget } from '../memory/index.js';

/** Keeps checkpoint files readable while a reader may hold batches stored in them. */
export interface ReadLeases {
  /** Takes a lease; the returned function releases it. */
  lease(): () => void;
}

export interface StorageContext {
  /** Rows per sealed batch. */
  readonly batchRows: number;
  readonly budget: MemoryBudget;
  readonly leases: ReadLeases;
}

const NO_LEASES: ReadLeases = { lease: () => () => undefined };

/** Tables without a database: nothing is ever evicted, nothing read back. */
export function unboundedContext(batchRows: number): StorageContext {
  return { batchRows, budget: MemoryBudget.unlimited(), leases: NO_LEASES };
}
