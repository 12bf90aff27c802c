// A column of an imported file as svc will hold it: the readers (CSV, Parquet) say which columns
// a file has and of what type; import-table.ts turns them into the table's columns.
import type { ColumnType } from '../../types.js';

export interface FileColumn {
  readonly name: string;
  readonly type: ColumnType;
}
