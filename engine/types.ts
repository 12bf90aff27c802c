// Shared engine types: the table schema, per-batch statistics and plain column vectors. Kept free
// of storage internals.

/** Column types of SPEC §2. `$timestamp` is implicit and always TIMESTAMP. */
export type ColumnType = 'DOUBLE' | 'INT64' | 'TIMESTAMP' | 'STRING' | 'BLOB' | 'SYMBOL' | 'BOOLEAN';
export const COLUMN_TYPES: readonly ColumnType[] = ['DOUBLE', 'INT64', 'TIMESTAMP', 'STRING', 'BLOB', 'SYMBOL', 'BOOLEAN'];

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * A table's time to live (SPEC §14): rows older than `now − ttl` are gone. Calendar months (as in
 * a duration: `1mon`, `1y` = 12) and fixed nanoseconds, both ≥ 0 and not both 0.
 */
export interface TimeToLive {
  readonly months: number;
  readonly nanos: bigint;
}

/** Durability of acknowledged writes (SPEC §9). */
export type Durability = 'fsync' | 'os' | 'none';

/**
 * Statistics of one column within one sealed batch, computed once when the batch is built.
 * Row indexes are positions inside the batch (which is sorted by timestamp), -1 when the column
 * has no non-null value. `min`/`max`/`sum` are numbers for DOUBLE, bigints for INT64/TIMESTAMP
 * (the sum is exact), 0/1 for BOOLEAN (false/true; no sum), null for STRING/BLOB/SYMBOL. NaN is
 * skipped by min/max but poisons sum. The times of the rows they name and the first/last values
 * (of number columns) are kept too, so min/max/first/last answer from statistics without reading
 * the batch back from disk.
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
  /** `$timestamp` of rows minRow, maxRow, firstRow and lastRow (null where the row is -1). */
  readonly minTime: bigint | null;
  readonly maxTime: bigint | null;
  readonly firstTime: bigint | null;
  readonly lastTime: bigint | null;
  /** Values of rows firstRow and lastRow for DOUBLE, INT64 and TIMESTAMP; null otherwise. */
  readonly first: number | bigint | null;
  readonly last: number | bigint | null;
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
