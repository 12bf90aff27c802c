// The Arrow form of a table: its schema (`$timestamp` (non-null, ns) first, then the table's
// columns), and the all-null column a batch reads for a column added after it was written.
import { Binary, Bool, Dictionary, Field, Float64, Int32, Int64, makeData, Schema, TimestampNanosecond, Utf8 } from 'apache-arrow';
import type { Data, DataType, Vector } from 'apache-arrow';
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

/** An all-null column of `n` rows (a column added to the table after a batch was written). */
export function nullColumnData(type: DataType, columnType: ColumnType, n: number, dictionary: Vector | null): Data {
  const nullBitmap = new Uint8Array(((n + 63) >> 6) << 3);
  const base = { type, length: n, nullCount: n, nullBitmap };
  switch (columnType) {
    case 'DOUBLE': return makeData({ ...base, data: new Float64Array(n) } as never);
    case 'INT64':
    case 'TIMESTAMP': return makeData({ ...base, data: new BigInt64Array(n) } as never);
    case 'STRING':
    case 'BLOB': return makeData({ ...base, valueOffsets: new Int32Array(n + 1), data: new Uint8Array(0) } as never);
    case 'SYMBOL': return makeData({ ...base, data: new Int32Array(n), dictionary: dictionary! } as never);
    case 'BOOLEAN': return makeData({ ...base, data: new Uint8Array(nullBitmap.length) } as never);
  }
}
