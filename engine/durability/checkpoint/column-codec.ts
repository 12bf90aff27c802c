// One column of one batch as a checkpoint file of manifest version 6 holds it, and as it lies in
// memory once read back. In memory (the read-back buffer the budget or a scan's ring hands out)
// a column is its Arrow buffers one after the other, each 8-byte aligned: the validity bitmap
// (only when the column has nulls), then the values — 8 bytes a DOUBLE/INT64/TIMESTAMP, 4 a
// SYMBOL code, a bit a BOOLEAN — or, for STRING and BLOB, the n + 1 offsets then the bytes.
// On disk a column is either exactly those bytes ('raw', read straight into the buffer) or
// encoded by the codecs of engine/codecs/ and decoded into the buffer: validity and BOOLEAN as
// bitmaps, DOUBLE by ALP/ALP-RD, INT64 and TIMESTAMP by delta/FOR bit packing, SYMBOL codes
// bit-packed, STRING/BLOB lengths bit-packed and bytes through zstd. Values under nulls are not
// kept (the encoder repeats the value before them, so a null breaks no run or delta): they read
// back as 0, as the write path stores them.
//
// Encoded: its parts (validity when there are nulls, then the values' parts), each as
// ByteWriter.part writes it — every part starts 8-byte aligned, as the codecs need.
import { makeData } from 'apache-arrow';
import type { Data, DataType, Vector } from 'apache-arrow';
import {
  ByteReader, decodeBitmap, decodeBytes, decodeFloat64, decodeInt32, decodeInt64, encodeBitmapInto, encodeBytesInto, encoded, encodeFloat64Into,
  encodeInt32Into, encodeInt64Into, isFloat64Compressible,
} from '../../codecs/index.js';
import type { ByteWriter, SeriesOrder } from '../../codecs/index.js';
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

/** A column's buffers as views of exactly `rows` values (STRING/BLOB offsets rebased to 0). */
interface ColumnParts {
  readonly validity: Uint8Array | null;
  /** DOUBLE/INT64/TIMESTAMP/SYMBOL values, BOOLEAN value bits; null for STRING/BLOB. */
  readonly values: Float64Array | BigInt64Array | Int32Array | Uint8Array | null;
  readonly offsets: Int32Array | null;
  readonly bytes: Uint8Array | null;
}

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

function bitAt(bits: Uint8Array, i: number): number {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

function gatherBits(bits: Uint8Array, rowsAt: Int32Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(rowsAt.length / 8));
  for (let p = 0; p < rowsAt.length; p++) out[p >> 3] |= bitAt(bits, rowsAt[p]) << (p & 7);
  return out;
}

/** `parts` with row p of the result taken from row rowsAt[p] (series-major order). */
function gathered(parts: ColumnParts, type: ColumnType, rowsAt: Int32Array): ColumnParts {
  const rows = rowsAt.length;
  const validity = parts.validity === null ? null : gatherBits(parts.validity, rowsAt);
  if (parts.offsets !== null) {
    const offsets = new Int32Array(rows + 1);
    for (let p = 0; p < rows; p++) offsets[p + 1] = offsets[p] + parts.offsets[rowsAt[p] + 1] - parts.offsets[rowsAt[p]];
    const bytes = new Uint8Array(offsets[rows]);
    for (let p = 0; p < rows; p++) bytes.set(parts.bytes!.subarray(parts.offsets[rowsAt[p]], parts.offsets[rowsAt[p] + 1]), offsets[p]);
    return { validity, values: null, offsets, bytes };
  }
  if (type === 'BOOLEAN') return { validity, values: gatherBits(parts.values as Uint8Array, rowsAt), offsets: null, bytes: null };
  const v = parts.values!;
  const words = v.BYTES_PER_ELEMENT / 4;
  const from = new Int32Array(v.buffer, v.byteOffset, words * rows);
  const to = new Int32Array(words * rows);
  if (words === 2) {
    for (let p = 0; p < rows; p++) {
      to[2 * p] = from[2 * rowsAt[p]];
      to[2 * p + 1] = from[2 * rowsAt[p] + 1];
    }
  } else {
    for (let p = 0; p < rows; p++) to[p] = from[rowsAt[p]];
  }
  const values = type === 'DOUBLE' ? new Float64Array(to.buffer) : type === 'SYMBOL' ? to : new BigInt64Array(to.buffer);
  return { validity, values, offsets: null, bytes: null };
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

/** A batch in series-major order, as its read-back needs it: the rows at each position, and SYMBOL codes per series. */
export interface RowOrder {
  readonly order: SeriesOrder;
  /** rowsAt[p]: the time-order row of series-major position p. */
  readonly rowsAt: Int32Array;
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

/** A SYMBOL column of a series-major batch: each row's code from its series (-1: null). */
function symbolsOfSeries({ order }: RowOrder, symbol: number, rows: number, nullCount: number, into: Uint8Array): void {
  const layout = columnLayout('SYMBOL', rows, nullCount);
  const codes = order.codes[symbol];
  const out = new Int32Array(into.buffer, into.byteOffset + layout.values, rows);
  const validity = into.subarray(0, layout.validity);
  validity.fill(0);
  let nulls = 0;
  for (let r = 0; r < rows; r++) {
    const code = codes[order.ids[r]];
    if (code < 0) {
      out[r] = 0;
      nulls++;
    } else {
      out[r] = code;
      if (nullCount > 0) validity[r >> 3] |= 1 << (r & 7);
    }
  }
  if (nulls !== nullCount) throw new RangeError(`the series table gives ${nulls} nulls, the statistics ${nullCount}`);
}

/** A decoded column in series-major order (`sm`) put into `into` in time order: position p is row rowsAt[p]. */
function scatter(sm: Uint8Array, into: Uint8Array, type: ColumnType, rows: number, nullCount: number, rowsAt: Int32Array): void {
  const layout = layoutOfBytes(type, rows, nullCount, into.length);
  const scatterBits = (from: number, bytes: number) => {
    const src = sm.subarray(from, from + bytes);
    const dst = into.subarray(from, from + bytes);
    dst.fill(0);
    for (let p = 0; p < rows; p++) dst[rowsAt[p] >> 3] |= bitAt(src, p) << (rowsAt[p] & 7);
  };
  if (nullCount > 0) scatterBits(0, layout.validity);
  if (type === 'BOOLEAN') return scatterBits(layout.values, layout.valueBytes);
  if (type === 'STRING' || type === 'BLOB') {
    const from = new Int32Array(sm.buffer, sm.byteOffset + layout.values, rows + 1);
    const to = new Int32Array(into.buffer, into.byteOffset + layout.values, rows + 1);
    for (let p = 0; p < rows; p++) to[rowsAt[p] + 1] = from[p + 1] - from[p];
    to[0] = 0;
    for (let r = 0; r < rows; r++) to[r + 1] += to[r];
    const data = into.subarray(layout.data);
    const src = sm.subarray(layout.data);
    for (let p = 0; p < rows; p++) data.set(src.subarray(from[p], from[p + 1]), to[rowsAt[p]]);
    return;
  }
  const words = type === 'SYMBOL' ? 1 : 2;
  const from = new Int32Array(sm.buffer, sm.byteOffset + layout.values, words * rows);
  const to = new Int32Array(into.buffer, into.byteOffset + layout.values, words * rows);
  if (words === 2) {
    for (let p = 0; p < rows; p++) {
      const r = rowsAt[p];
      to[2 * r] = from[2 * p];
      to[2 * r + 1] = from[2 * p + 1];
    }
  } else {
    for (let p = 0; p < rows; p++) to[rowsAt[p]] = from[p];
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
