// The plain result of a query: what the engine hands to the embedded API and to the server.
// Arrow never leaks out of the engine: every column is a typed array or a JS array.
//
// Shape decisions (SPEC §6, §7):
// - A SELECT gives one ResultTable per source table that produced at least one row, named after
//   that table (`FROM a, b` → tables `a` and `b`, in the order written; a table named twice counts
//   once). Tables without rows are left out, so an empty result has `tables: []`.
// - `timestamps` is the row time of SPEC §6: the row's `$timestamp` for plain rows; the bucket
//   start under GROUP BY duration; the selected point for a lone first/last/min/max/abs_min/
//   abs_max without grouping; otherwise the start of the row's range (null without a range).
// - `columns` are exactly the selected columns, in order (`SELECT *` lists `$timestamp`, then
//   `$table` when the query has several source tables, then the schema's columns).
// - `scannedRowsCount` (SPEC §7): for each source table and range, the rows in that range times
//   the number of distinct columns the query references (`*` and `count(*)` reference every
//   column, `$timestamp` counts when named or implied by `*`, `$table` is not a column). WHERE,
//   LIMIT, statistics and other shortcuts never change it.
// - Typed arrays of one table may be views into one shared ArrayBuffer (a small result is
//   allocated at once): read them through their own byteOffset and byteLength, never `.buffer`
//   alone.
// - CREATE, DROP and INSERT give kind 'ok' and no tables; a standalone find(...) gives kind
//   'find' and `aliases` (ascending); SHOW gives one table with columns `name` and `type`.

/** Column types as `api/query` names them (SPEC §4). */
export type ResultType = 'double' | 'int64' | 'timestamp' | 'string' | 'blob' | 'symbol' | 'boolean' | 'count' | 'none';

/**
 * One output column. `values` by type: double → Float64Array; boolean → Float64Array of 0 (false) and 1 (true); int64, timestamp, count →
 * BigInt64Array; string, symbol → (string | null)[]; blob → (Uint8Array | null)[]. `nulls[i]`
 * is 1 when row i is null (null when the column has no nulls). Type 'none' means every value is
 * null; its `values` keep the array of the expression's own type and should be ignored.
 */
export interface ResultColumn {
  readonly name: string;
  readonly type: ResultType;
  readonly values: Float64Array | BigInt64Array | (string | null)[] | (Uint8Array | null)[];
  readonly nulls: Uint8Array | null;
}

export interface ResultTable {
  /** The source table the rows come from. */
  readonly name: string;
  readonly rowCount: number;
  /** Row times in nanoseconds since the epoch (see the header). */
  readonly timestamps: BigInt64Array;
  /** `timestampNulls[i]` = 1 when row i has no time (aggregates without a range); null if none. */
  readonly timestampNulls: Uint8Array | null;
  readonly columns: readonly ResultColumn[];
}

export interface QueryResult {
  /** 'rows': SELECT and SHOW; 'find': a standalone find(...); 'ok': CREATE, DROP, INSERT. */
  readonly kind: 'rows' | 'find' | 'ok';
  readonly tables: readonly ResultTable[];
  readonly scannedRowsCount: number;
  /** The matching aliases of a standalone find(...), ascending. */
  readonly aliases?: readonly string[];
}
