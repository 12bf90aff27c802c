// The rows of one insert as the storage layer takes them: `$timestamp` and one column per schema
// column, in schema order (absent columns already null). WAL records carry them; tables copy the
// rows they keep into their tails.
import type { ColumnValues } from './column-values.js';

export interface NormalizedBatch {
  readonly ts: BigInt64Array;
  readonly columns: ColumnValues[];
}
