// Shared engine types: the table schema, per-batch statistics and the read view that the query
// layer consumes. Kept free of storage internals so the executor depends only on this file.
import type { RecordBatch } from 'apache-arrow';

/** Column types of SPEC §2. `$timestamp` is implicit and always TIMESTAMP. */
export type ColumnType = 'DOUBLE' | 'INT64' | 'TIMESTAMP' | 'STRING' | 'BLOB' | 'SYMBOL' | 'BOOLEAN';
export const COLUMN_TYPES: readonly ColumnType[] = ['DOUBLE', 'INT64', 'TIMESTAMP', 'STRING', 'BLOB', 'SYMBOL', 'BOOLEAN'];

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
}

/** Durability of acknowledged writes (SPEC §9). */
export type Durability = 'fsync' | 'os' | 'none';

/**
 * Statistics of one column within one sealed batch, computed once when the batch is built.
 * Row indexes are positions inside the batch (which is sorted by timestamp), -1 when the column
 * has no non-null value. `min`/`max`/`sum` are numbers for DOUBLE, bigints for INT64/TIMESTAMP
 * (the sum is exact), 0/1 for BOOLEAN (false/true; no sum), null for STRING/BLOB/SYMBOL. NaN is
 * skipped by min/max but poisons sum.
 */
export interface ColumnStats {
  readonly count: number;
  readonly nullCount: number;
  readonly min: number | bigint | null;
  readonly max: number | bigint | null;
  /** First row holding `min` / `max` (earliest timestamp; ties → first inserted). */
  readonly minRow: number;
  readonly maxRow: number;
  readonly sum: number | bigint | null;
  /** First and last non-null rows. */
  readonly firstRow: number;
  readonly lastRow: number;
}

/**
 * One immutable, timestamp-sorted batch of a table. Column 0 of `batch` is `$timestamp`;
 * column i+1 is schema column i. `stats[0]` describes `$timestamp`, `stats[i+1]` column i.
 * Batches returned by a scan are in timestamp order and never overlap: for consecutive batches
 * a, b: a.maxTs <= b.minTs, and rows with equal timestamps keep insertion order.
 */
export interface BatchView {
  readonly batch: RecordBatch;
  readonly ts: BigInt64Array;
  readonly rowCount: number;
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly stats: readonly ColumnStats[];
}

/** Column data of one batch as plain typed arrays: what hot loops read. */
export type ColumnVector =
  | { readonly type: 'DOUBLE'; readonly values: Float64Array; readonly validity: Uint8Array | null }
  | { readonly type: 'INT64' | 'TIMESTAMP'; readonly values: BigInt64Array; readonly validity: Uint8Array | null }
  | { readonly type: 'STRING' | 'BLOB'; readonly offsets: Int32Array; readonly data: Uint8Array; readonly validity: Uint8Array | null }
  | { readonly type: 'SYMBOL'; readonly indices: Int32Array; readonly dictionary: readonly string[]; readonly validity: Uint8Array | null }
  /** Arrow Bool: bit i of `values` is row i's value. */
  | { readonly type: 'BOOLEAN'; readonly values: Uint8Array; readonly validity: Uint8Array | null };

/** Arrow validity bitmap test: bit i set = row i is non-null. A null bitmap means no nulls. */
export function isValid(validity: Uint8Array | null, i: number): boolean {
  return validity === null || (validity[i >> 3] & (1 << (i & 7))) !== 0;
}
