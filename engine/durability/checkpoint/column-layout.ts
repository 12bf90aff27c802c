// Where a column's Arrow buffers lie in its read-back memory (the buffer the budget or a scan's
// ring hands out), and Arrow Data over that memory: the validity bitmap (only when the column has
// nulls), then the values — 8 bytes a DOUBLE/INT64/TIMESTAMP, 4 a SYMBOL code, a bit a BOOLEAN —
// or, for STRING and BLOB, the n + 1 offsets then the bytes; each buffer 8-byte aligned. A raw
// column in a column file is exactly these bytes (column-codec.ts).
import { makeData } from 'apache-arrow';
import type { Data, DataType, Vector } from 'apache-arrow';
import type { ColumnType } from '../../types.js';

/** A column's buffers as views of exactly `rows` values (STRING/BLOB offsets rebased to 0). */
export interface ColumnParts {
  readonly validity: Uint8Array | null;
  /** DOUBLE/INT64/TIMESTAMP/SYMBOL values, BOOLEAN value bits; null for STRING/BLOB. */
  readonly values: Float64Array | BigInt64Array | Int32Array | Uint8Array | null;
  readonly offsets: Int32Array | null;
  readonly bytes: Uint8Array | null;
}

function pad8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** Where a column's buffers lie in its read-back memory. */
export interface ColumnLayout {
  /** Bytes of the validity bitmap at offset 0 (0 when the column has no nulls). */
  readonly validity: number;
  /** Offset and bytes of the values (STRING/BLOB: the offsets). */
  readonly values: number;
  readonly valueBytes: number;
  /** STRING/BLOB: offset and length of the bytes the offsets point into. */
  readonly data: number;
  readonly dataBytes: number;
  /** The whole column, bytes. */
  readonly bytes: number;
}

/** The layout of a column of `rows` rows, `nullCount` of them null; STRING/BLOB need the length of their bytes. */
export function columnLayout(type: ColumnType, rows: number, nullCount: number, dataBytes = 0): ColumnLayout {
  const validity = nullCount > 0 ? pad8(Math.ceil(rows / 8)) : 0;
  const isBinary = type === 'STRING' || type === 'BLOB';
  const valueBytes = isBinary ? 4 * (rows + 1) : type === 'BOOLEAN' ? Math.ceil(rows / 8) : type === 'SYMBOL' ? 4 * rows : 8 * rows;
  const data = validity + pad8(valueBytes);
  return { validity, values: validity, valueBytes, data, dataBytes: isBinary ? dataBytes : 0, bytes: data + (isBinary ? dataBytes : 0) };
}

/** The layout of a read-back column of `bytes` bytes in all (STRING/BLOB: the bytes length follows from it). */
export function layoutOfBytes(type: ColumnType, rows: number, nullCount: number, bytes: number): ColumnLayout {
  const layout = columnLayout(type, rows, nullCount);
  if (type !== 'STRING' && type !== 'BLOB') return layout;
  return columnLayout(type, rows, nullCount, bytes - layout.data);
}

/** Arrow Data over a read-back column's memory (views, no copy). */
export function columnData(arrowType: DataType, type: ColumnType, rows: number, nullCount: number, bytes: Uint8Array, dictionary: Vector | null): Data {
  const layout = layoutOfBytes(type, rows, nullCount, bytes.length);
  const { buffer, byteOffset } = bytes;
  const nullBitmap = nullCount > 0 ? bytes.subarray(0, layout.validity) : undefined;
  const base = { type: arrowType, length: rows, nullCount, nullBitmap };
  const at = byteOffset + layout.values;
  switch (type) {
    case 'DOUBLE': return makeData({ ...base, data: new Float64Array(buffer, at, rows) } as never);
    case 'INT64':
    case 'TIMESTAMP': return makeData({ ...base, data: new BigInt64Array(buffer, at, rows) } as never);
    case 'SYMBOL': return makeData({ ...base, data: new Int32Array(buffer, at, rows), dictionary } as never);
    case 'BOOLEAN': return makeData({ ...base, data: bytes.subarray(layout.values, layout.values + layout.valueBytes) } as never);
    case 'STRING':
    case 'BLOB':
      return makeData({ ...base, valueOffsets: new Int32Array(buffer, at, rows + 1), data: bytes.subarray(layout.data, layout.data + layout.dataBytes) } as never);
  }
}
