// The Arrow schema of a table: `$timestamp` (non-null, ns) first, then the table's columns.
import { Binary, Bool, Dictionary, Field, Float64, Int32, Int64, Schema, TimestampNanosecond, Utf8 } from 'apache-arrow';
import type { DataType } from 'apache-arrow';
import type { ColumnDef, ColumnType } from '../types.js';

export const TIMESTAMP_COLUMN = '$timestamp';

export function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'DOUBLE': return new Float64();
    case 'INT64': return new Int64();
    case 'TIMESTAMP': return new TimestampNanosecond();
    case 'STRING': return new Utf8();
    case 'BLOB': return new Binary();
    case 'SYMBOL': return new Dictionary(new Utf8(), new Int32());
    case 'BOOLEAN': return new Bool();
  }
}

export function arrowSchema(columns: readonly ColumnDef[]): Schema {
  return new Schema([
    new Field(TIMESTAMP_COLUMN, new TimestampNanosecond(), false),
    ...columns.map((c) => new Field(c.name, arrowType(c.type), true)),
  ]);
}
