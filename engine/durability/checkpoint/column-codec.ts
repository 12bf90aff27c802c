// One column of one batch as a checkpoint file of manifest version 6 holds it. On disk a column
// is either exactly its read-back bytes (column-layout.ts: 'raw', read straight into its buffer) or
// encoded by the codecs of engine/codecs/ and decoded into the buffer: validity and BOOLEAN as
// bitmaps, DOUBLE by ALP/ALP-RD, INT64 and TIMESTAMP by delta/FOR bit packing, SYMBOL codes
// bit-packed, STRING/BLOB lengths bit-packed and bytes through zstd. Values under nulls are not
// kept (the encoder repeats the value before them, so a null breaks no run or delta): they read
// back as 0, as the write path stores them.
//
// Encoded: its parts (validity when there are nulls, then the values' parts), each as
// ByteWriter.part writes it — every part starts 8-byte aligned, as the codecs need.
import type { Data } from 'apache-arrow';
import {
  ByteReader, decodeBitmap, decodeBytes, decodeFloat64, decodeInt32, decodeInt64, encodeBitmapInto, encodeBytesInto, encoded, encodeFloat64Into,
  encodeInt32Into, encodeInt64Into, isFloat64Compressible,
} from '../../codecs/index.js';
import type { ByteWriter } from '../../codecs/index.js';
import { columnLayout, layoutOfBytes } from './column-layout.js';
import type { ColumnParts } from './column-layout.js';
import { gathered, scatter, symbolsOfSeries } from './series-layout.js';
import type { RowOrder } from './series-layout.js';
import type { ColumnType } from '../../types.js';

/**
 * How a column is stored: its in-memory bytes, the encoding of its type, or — a SYMBOL column of
 * a batch in series-major order — nothing: its codes are the batch's series table.
 */
export type ColumnCodec = 'raw' | 'float64' | 'int64' | 'symbol' | 'boolean' | 'bytes' | 'series';

/**
 * A column is encoded only when that saves at least this share of its bytes: decoding costs CPU
 * a raw read does not (a raw column is read straight into its buffer).
 */
const MIN_SAVING = 0.15;

function partsOf(data: Data, type: ColumnType, rows: number): ColumnParts {
  const validity = data.nullCount > 0 ? (data.nullBitmap as Uint8Array).subarray(0, Math.ceil(rows / 8)) : null;
  if (type === 'STRING' || type === 'BLOB') {
    const offsets = (data.valueOffsets as Int32Array).subarray(0, rows + 1);
    const first = offsets[0];
    return { validity, values: null, offsets: first === 0 ? offsets : offsets.map((o) => o - first), bytes: (data.values as Uint8Array).subarray(first, offsets[rows]) };
  }
  const values = data.values as Float64Array | BigInt64Array | Int32Array | Uint8Array;
  return { validity, values: type === 'BOOLEAN' ? values.subarray(0, Math.ceil(rows / 8)) : values.subarray(0, rows), offsets: null, bytes: null };
}

const ZEROS = new Uint8Array(8);

/**
 * The column as its read-back bytes (the 'raw' form): views of the batch's own buffers and zero
 * padding, not a copy — the batch stays pinned until they are written.
 */
function rawChunks(parts: ColumnParts, type: ColumnType, rows: number): Uint8Array[] {
  const { validity, values, offsets, bytes } = parts;
  const layout = columnLayout(type, rows, validity === null ? 0 : 1, bytes?.length ?? 0);
  const out: Uint8Array[] = [];
  const pad = (n: number) => { if (n > 0) out.push(ZEROS.subarray(0, n)); };
  if (validity !== null) {
    out.push(validity);
    pad(layout.validity - validity.length);
  }
  const v = offsets ?? values!;
  out.push(new Uint8Array(v.buffer, v.byteOffset, layout.valueBytes));
  pad(layout.data - layout.values - layout.valueBytes);
  if (bytes !== null) out.push(bytes);
  return out;
}

/** 8-byte values with each null slot holding the value before it (so a null does not break a run or a delta). */
function filled8(values: Float64Array | BigInt64Array, validity: Uint8Array | null, rows: number): Uint32Array {
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * rows);
  if (validity === null) return words;
  const out = new Uint32Array(2 * rows);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < rows; i++) {
    if ((validity[i >> 3] >> (i & 7)) & 1) {
      lo = words[2 * i];
      hi = words[2 * i + 1];
    }
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
  }
  return out;
}

function filled4(values: Int32Array, validity: Uint8Array | null, rows: number): Int32Array {
  if (validity === null) return values.subarray(0, rows);
  const out = new Int32Array(rows);
  let last = 0;
  for (let i = 0; i < rows; i++) {
    if ((validity[i >> 3] >> (i & 7)) & 1) last = values[i];
    out[i] = last;
  }
  return out;
}

/** Appends the encoded parts of a column to `out` (validity first when it has nulls). */
function encodeParts({ validity, values, offsets, bytes }: ColumnParts, type: ColumnType, rows: number, out: ByteWriter): void {
  if (validity !== null) out.part((w) => encodeBitmapInto(validity, rows, w));
  switch (type) {
    case 'DOUBLE': {
      const words = filled8(values as Float64Array, validity, rows);
      out.part((w) => encodeFloat64Into(new Float64Array(words.buffer, words.byteOffset, rows), w));
      break;
    }
    case 'INT64':
    case 'TIMESTAMP': {
      const words = filled8(values as BigInt64Array, validity, rows);
      out.part((w) => encodeInt64Into(new BigInt64Array(words.buffer, words.byteOffset, rows), w));
      break;
    }
    case 'SYMBOL':
      out.part((w) => encodeInt32Into(filled4(values as Int32Array, validity, rows), w, [0, 1]));
      break;
    case 'BOOLEAN':
      out.part((w) => encodeBitmapInto(values as Uint8Array, rows, w));
      break;
    case 'STRING':
    case 'BLOB': {
      const lengths = new Int32Array(rows);
      for (let i = 0; i < rows; i++) lengths[i] = offsets![i + 1] - offsets![i];
      out.part((w) => encodeInt32Into(lengths, w));
      out.part((w) => encodeBytesInto(bytes!, w));
      break;
    }
  }
}

const CODECS: Record<ColumnType, ColumnCodec> = {
  DOUBLE: 'float64', INT64: 'int64', TIMESTAMP: 'int64', SYMBOL: 'symbol', BOOLEAN: 'boolean', STRING: 'bytes', BLOB: 'bytes',
};

/** A column as a checkpoint writes it: how, its bytes on disk (in pieces), and the bytes it takes once read back. */
export interface EncodedColumn {
  readonly codec: ColumnCodec;
  readonly chunks: readonly Uint8Array[];
  readonly size: number;
  readonly decodedBytes: number;
}

/**
 * Column `data` (of `rows` rows) encoded for its type when `compress` and that saves at least
 * MIN_SAVING of its bytes, else raw. `rowsAt`: encode the rows in that order (a batch in
 * series-major order); a raw column stays in time order (it is read straight into its buffer).
 * @example
 * const { codec, chunks } = encodeColumn(batch.column(1), 'DOUBLE', batch.rowCount, true, null);
 */
export function encodeColumn(data: Data, type: ColumnType, rows: number, compress: boolean, rowsAt: Int32Array | null): EncodedColumn {
  const parts = partsOf(data, type, rows);
  const rawSize = columnLayout(type, rows, data.nullCount, parts.bytes?.length ?? 0).bytes;
  if (compress && rows > 0 && (type !== 'DOUBLE' || isFloat64Compressible(parts.values as Float64Array))) {
    const bytes = encoded((out) => encodeParts(rowsAt === null ? parts : gathered(parts, type, rowsAt), type, rows, out));
    if (bytes.length <= rawSize * (1 - MIN_SAVING)) return { codec: CODECS[type], chunks: [bytes], size: bytes.length, decodedBytes: rawSize };
  }
  return { codec: 'raw', chunks: rawChunks(parts, type, rows), size: rawSize, decodedBytes: rawSize };
}

/**
 * Decodes a column that encodeColumn wrote as `codec` (bytes starting 8-byte aligned) into `into`,
 * its read-back memory (layoutOfBytes(…, into.length) says where each buffer goes). A column of a
 * batch in series-major order is decoded into `scratch` (at least into.length bytes) and put back
 * in time order; `symbol` is the index of a 'series' column among the batch's SYMBOL columns.
 */
export function decodeColumn(
  codec: ColumnCodec, encoded: Uint8Array, type: ColumnType, rows: number, nullCount: number, into: Uint8Array,
  order: RowOrder | null = null, scratch: Uint8Array | null = null, symbol = -1,
): void {
  if (codec === 'raw') {
    if (encoded !== into) into.set(encoded);
    return;
  }
  if (codec === 'series') {
    if (order === null || type !== 'SYMBOL' || symbol < 0 || symbol >= order.order.codes.length) throw new RangeError('a series column without its batch order');
    return symbolsOfSeries(order, symbol, rows, nullCount, into);
  }
  if (order !== null) {
    const sm = scratch!.subarray(0, into.length);
    decodeColumn(codec, encoded, type, rows, nullCount, sm);
    return scatter(sm, into, type, rows, nullCount, order.rowsAt);
  }
  if (codec !== CODECS[type]) throw new RangeError(`codec ${codec} cannot hold a ${type} column`);
  const layout = layoutOfBytes(type, rows, nullCount, into.length);
  const input = new ByteReader(encoded);
  const next = () => input.part();
  if (nullCount > 0) decodeBitmap(next(), into.subarray(0, layout.validity));
  const { buffer, byteOffset } = into;
  const at = byteOffset + layout.values;
  switch (type) {
    case 'DOUBLE': decodeFloat64(next(), new Float64Array(buffer, at, rows)); break;
    case 'INT64':
    case 'TIMESTAMP': decodeInt64(next(), new BigInt64Array(buffer, at, rows)); break;
    case 'SYMBOL': decodeInt32(next(), new Int32Array(buffer, at, rows)); break;
    case 'BOOLEAN': decodeBitmap(next(), into.subarray(layout.values, layout.values + layout.valueBytes)); break;
    case 'STRING':
    case 'BLOB': {
      const offsets = new Int32Array(buffer, at, rows + 1);
      decodeInt32(next(), offsets.subarray(1));
      offsets[0] = 0;
      for (let i = 1; i <= rows; i++) offsets[i] += offsets[i - 1];
      if (offsets[rows] !== layout.dataBytes) throw new RangeError(`string lengths add up to ${offsets[rows]}, not ${layout.dataBytes}`);
      decodeBytes(next(), into.subarray(layout.data, layout.data + layout.dataBytes));
      break;
    }
  }
  if (!input.isDone) throw new RangeError('bytes left after the column');
  if (nullCount > 0 && (type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP' || type === 'SYMBOL')) {
    zeroNulls(into.subarray(0, layout.validity), new Int32Array(buffer, at, type === 'SYMBOL' ? rows : 2 * rows), type === 'SYMBOL' ? 1 : 2);
  }
}

/** Zeroes the values of null rows (`words` 32-bit words a value). */
function zeroNulls(validity: Uint8Array, values: Int32Array, words: number): void {
  for (let byte = 0; byte < validity.length; byte++) {
    const bits = validity[byte];
    if (bits === 0xff) continue;
    for (let k = 0; k < 8; k++) {
      const row = byte * 8 + k;
      if (((bits >> k) & 1) === 0 && row * words < values.length) values.fill(0, row * words, (row + 1) * words);
    }
  }
}

