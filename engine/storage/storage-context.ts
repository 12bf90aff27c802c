// What the tables of one database share: the seal size, the memory budget their data is counted
// in, and the read leases that keep the checkpoint files their batches are read back from.
import { MemoryBudget } from '../memory/index.js';
import type { SealedBatch } from './sealed-batch.js';
import type { TableLayout } from './table-layout.js';

/** Keeps checkpoint files readable while a reader may hold batches stored in them. */
export interface ReadLeases {
  /** Takes a lease; the returned function releases it. */
  lease(): () => void;
}

/**
 * Writes batches that no table holds yet to disk ahead of the next checkpoint (the checkpointer),
 * so that they may leave memory: a DELETE's replacement batches, built before its apply swaps them
 * in, whatever their size.
 */
export interface BatchStager {
  /** Writes `batches` (rows of `layout`'s table) to a new file; each is stored there once this resolves. */
  stage(layout: TableLayout, batches: readonly SealedBatch[]): Promise<string>;
  /** `file` holds no batch any table took: it goes (once no reader may hold one of them). */
  unstage(file: string): void;
}

export interface StorageContext {
  /** Rows per sealed batch. */
  readonly batchRows: number;
  readonly budget: MemoryBudget;
  readonly leases: ReadLeases;
  /** Where big removals put their replacement batches ahead of a checkpoint; absent: they stay in memory. */
  readonly stager?: BatchStager;
}

const NO_LEASES: ReadLeases = { lease: () => () => undefined };

/** Tables without a database: nothing is ever evicted, nothing read back. */
export function unboundedContext(batchRows: number): StorageContext {
  return { batchRows, budget: MemoryBudget.unlimited(), leases: NO_LEASES };
}
