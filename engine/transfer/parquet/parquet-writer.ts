// The Parquet file of an export, written by hand on the few encodings it needs (format:
// parquet.thrift and the Parquet encodings document): every column OPTIONAL, one data page (v1)
// per column per chunk of at most PAGE_ROWS rows, definition levels RLE/bit-packed, values PLAIN
// — doubles and int64 straight from the chunk's typed arrays, no copy when the page has no null —
// SYMBOL columns dictionary-encoded (a PLAIN dictionary page per column chunk, RLE_DICTIONARY
// indices bit-packed), pages Snappy-compressed (the native snappy package; its asynchronous
// form, on the thread pool, ran no faster on 2 cores and added ~250 MiB of RSS to a 20 M-row
// export) or not. Row groups of ROW_GROUP_ROWS rows are the
// only thing held before writing. Types: `$timestamp` and TIMESTAMP columns INT64
// TIMESTAMP(NANOS, UTC), INT64 and counts INT64, DOUBLE, BOOLEAN, STRING and SYMBOL BYTE_ARRAY
// STRING, BLOB BYTE_ARRAY. The footer's key-value metadata `svc:columns` keeps svc's column types
// (SYMBOL vs STRING), which svc's import reads back.
// Why not a library: hyparquet-writer converts value by value and parquet-wasm copies the data
// into WebAssembly memory through Arrow IPC; docs/export-import.md has the measurements.
import * as snappy from 'snappy';
import type { ResultColumn } from '../../query/result.js';
import type { ExportChunk, ExportSchema, ExportType } from '../export-schema.js';
import type { FormatWriter } from '../formats/format-writer.js';
import { binary, bool, encodeStruct, i32, i64, i8, list, struct } from './thrift-compact.js';
import type { ThriftStruct } from './thrift-compact.js';

export type ParquetCompression = 'snappy' | 'none';

export interface ParquetOptions {
  readonly compression?: ParquetCompression;
  /** Rows per row group (default ROW_GROUP_ROWS). */
  readonly rowGroupRows?: number;
}

const MAGIC = Buffer.from('PAR1');
/** Rows per row group: DuckDB writes 122,880; larger groups mean fewer, longer column chunks. */
export const ROW_GROUP_ROWS = 1024 * 1024;
const PAGE_ROWS = 64 * 1024;

// parquet.thrift enums
const TYPE = { BOOLEAN: 0, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;
const OPTIONAL = 1;
const UTF8 = 0;
const ENC = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const;
const CODEC = { none: 0, snappy: 1 } as const;
const PAGE = { DATA: 0, DICTIONARY: 2 } as const;

/** A data page gathered for the row group: its header's fields and its stored bytes. */
interface Page {
  readonly rows: number;
  readonly encoding: number;
  readonly uncompressed: number;
  readonly body: readonly Uint8Array[];
}

/** One column's part of the row group being gathered. */
interface ColumnChunkState {
  pages: Page[];
  /** SYMBOL: the row group's dictionary (value → index) and its values in index order. */
  readonly dictionary: Map<string, number> | null;
  readonly words: string[];
  values: number;
  nulls: number;
  uncompressed: number;
  compressed: number;
  /**
   * The chunk's codec, decided by its first data page: Snappy only where it pays (a codec is per
   * column chunk in Parquet). Random doubles do not shrink under Snappy (ratio 1.00 measured) but
   * cost ~3 ms per MB to try, so their chunks are stored uncompressed; timestamps shrink ~25 %.
   */
  codec: ParquetCompression | null;
}

/** A first page that Snappy makes no smaller than this share of its size leaves its chunk uncompressed. */
const SNAPPY_PAYS = 0.95;

export function parquetWriter(schema: ExportSchema, options: ParquetOptions = {}): FormatWriter {
  const compression = options.compression ?? 'snappy';
  const groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
  const columns = schema.columns;
  const physical = columns.map((c) => physicalType(c.type));
  let offset = 0;
  let rows = 0;
  let totalRows = 0;
  const rowGroups: ThriftStruct[] = [];
  let state = columns.map((c) => newState(c.type));

  const flushGroup = (): Uint8Array[] => {
    if (rows === 0) return [];
    const out: Uint8Array[] = [];
    const chunks: ThriftStruct[] = [];
    let groupBytes = 0;
    const groupRows = rows;
    const groupState = state;
    rows = 0;
    state = columns.map((c) => newState(c.type));
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k];
      const s = groupState[k];
      const start = offset;
      let dictionaryOffset: number | undefined;
      if (s.dictionary !== null) {
        dictionaryOffset = offset;
        const page = dictionaryPage(s.words, s.codec ?? compression);
        s.uncompressed += page.uncompressed;
        s.compressed += page.page.length;
        out.push(page.page);
        offset += page.page.length;
      }
      const dataOffset = offset;
      for (const { body, ...page } of s.pages) {
        const header = encodeStruct({
          1: i32(PAGE.DATA),
          2: i32(page.uncompressed),
          3: i32(sum(body)),
          5: struct({ 1: i32(page.rows), 2: i32(page.encoding), 3: i32(ENC.RLE), 4: i32(ENC.RLE) }),
        });
        s.uncompressed += header.length + page.uncompressed;
        s.compressed += header.length + sum(body);
        for (const piece of [header, ...body]) { out.push(piece); offset += piece.length; }
      }
      groupBytes += s.uncompressed;
      chunks.push({
        2: i64(start),
        3: struct({
          1: i32(physical[k]),
          2: list('i32', s.dictionary !== null ? [ENC.PLAIN, ENC.RLE, ENC.RLE_DICTIONARY] : [ENC.PLAIN, ENC.RLE]),
          3: list('binary', [c.name]),
          4: i32(CODEC[s.codec ?? compression]),
          5: i64(s.values),
          6: i64(s.uncompressed),
          7: i64(s.compressed),
          9: i64(dataOffset),
          11: dictionaryOffset === undefined ? undefined : i64(dictionaryOffset),
          12: struct({ 3: i64(s.nulls) }),
        }),
      });
    }
    rowGroups.push({ 1: list('struct', chunks), 2: i64(groupBytes), 3: i64(groupRows) });
    totalRows += groupRows;
    return out;
  };

  return {
    begin: () => {
      offset = MAGIC.length;
      return [MAGIC];
    },
    write: (chunk: ExportChunk) => {
      const out: Uint8Array[] = [];
      for (let lo = 0; lo < chunk.rowCount;) {
        const hi = Math.min(chunk.rowCount, lo + PAGE_ROWS, lo + groupRows - rows);
        chunk.columns.forEach((col, k) => addPage(state[k], col, lo, hi, compression));
        rows += hi - lo;
        lo = hi;
        if (rows >= groupRows) out.push(...flushGroup());
      }
      return out;
    },
    end: () => {
      const out = flushGroup();
      const footer = encodeStruct({
        1: i32(1),
        2: list('struct', [{ 4: binary('schema'), 5: i32(columns.length) }, ...columns.map(schemaElement)]),
        3: i64(totalRows),
        4: list('struct', rowGroups),
        5: list('struct', [{ 1: binary('svc:columns'), 2: binary(JSON.stringify(columns.map((c) => ({ name: c.name, type: svcType(c.type) })))) }]),
        6: binary('svc'),
      });
      const length = Buffer.alloc(4);
      length.writeUInt32LE(footer.length, 0);
      out.push(footer, length, MAGIC);
      return out;
    },
  };
}

/** The svc column type an exported column has (svc's import reads it back from `svc:columns`). */
function svcType(type: ExportType): string {
  return type === 'count' ? 'INT64' : type.toUpperCase();
}

function physicalType(type: ExportType): number {
  switch (type) {
    case 'double': return TYPE.DOUBLE;
    case 'boolean': return TYPE.BOOLEAN;
    case 'int64':
    case 'count':
    case 'timestamp': return TYPE.INT64;
    case 'string':
    case 'symbol':
    case 'blob': return TYPE.BYTE_ARRAY;
  }
}

function schemaElement(c: { readonly name: string; readonly type: ExportType }): ThriftStruct {
  const base: ThriftStruct = { 1: i32(physicalType(c.type)), 3: i32(OPTIONAL), 4: binary(c.name) };
  if (c.type === 'timestamp') {
    // LogicalType.TIMESTAMP(isAdjustedToUTC = true, unit = NANOS)
    return { ...base, 10: struct({ 8: struct({ 1: bool(true), 2: struct({ 3: struct({}) }) }) }) };
  }
  if (c.type === 'int64' || c.type === 'count') return { ...base, 10: struct({ 10: struct({ 1: i8(64), 2: bool(true) }) }) };
  if (c.type === 'string' || c.type === 'symbol') return { ...base, 6: i32(UTF8), 10: struct({ 1: struct({}) }) };
  return base;
}

function newState(type: ExportType): ColumnChunkState {
  return { pages: [], dictionary: type === 'symbol' ? new Map() : null, words: [], values: 0, nulls: 0, uncompressed: 0, compressed: 0, codec: null };
}

/** Rows lo..hi of `col` as one data page of the column chunk `s`. */
function addPage(s: ColumnChunkState, col: ResultColumn, lo: number, hi: number, compression: ParquetCompression): void {
  const n = hi - lo;
  const present = presentRows(col, lo, hi);
  const count = present === null ? n : present.length;
  const levels = definitionLevels(col, lo, hi, present);
  const values = s.dictionary !== null
    ? dictionaryIndices(s, col.values as (string | null)[], lo, hi, present)
    : plainValues(col, lo, hi, present);
  const body = [levels, ...values];
  const uncompressed = sum(body);
  let stored = body;
  if (compression === 'snappy' && s.codec !== 'none') {
    const packed = snappy.compressSync(concat(body, uncompressed));
    if (s.codec === null) s.codec = packed.length < uncompressed * SNAPPY_PAYS ? 'snappy' : 'none';
    if (s.codec === 'snappy') stored = [packed];
  }
  s.pages.push({ rows: n, encoding: s.dictionary !== null ? ENC.RLE_DICTIONARY : ENC.PLAIN, uncompressed, body: stored });
  s.values += n;
  s.nulls += n - count;
}

/** The dictionary page of a SYMBOL column chunk (header and body): its values PLAIN. */
function dictionaryPage(words: readonly string[], compression: ParquetCompression): { page: Uint8Array; uncompressed: number } {
  const body = plainByteArrays(words.map((w) => Buffer.from(w, 'utf8')));
  const stored = compression === 'snappy' ? snappy.compressSync(body) : body;
  const header = encodeStruct({
    1: i32(PAGE.DICTIONARY),
    2: i32(body.length),
    3: i32(stored.length),
    7: struct({ 1: i32(words.length), 2: i32(ENC.PLAIN) }),
  });
  return { page: Buffer.concat([header, stored]), uncompressed: header.length + body.length };
}

/** Indexes (in lo..hi) of the non-null rows, or null when every row has a value. */
function presentRows(col: ResultColumn, lo: number, hi: number): Int32Array | null {
  const { nulls } = col;
  const list = Array.isArray(col.values) ? col.values as readonly unknown[] : null;
  let missing = 0;
  for (let i = lo; i < hi; i++) if ((nulls !== null && nulls[i] !== 0) || (list !== null && list[i] === null)) missing++;
  if (missing === 0) return null;
  const present = new Int32Array(hi - lo - missing);
  let k = 0;
  for (let i = lo; i < hi; i++) if (!((nulls !== null && nulls[i] !== 0) || (list !== null && list[i] === null))) present[k++] = i;
  return present;
}

/**
 * The page's definition levels (1 = a value, 0 = null; bit width 1) with their 4-byte length:
 * one RLE run when every row has a value, else bit-packed groups of 8.
 */
function definitionLevels(col: ResultColumn, lo: number, hi: number, present: Int32Array | null): Uint8Array {
  const n = hi - lo;
  if (present === null) {
    const run = varint(n * 2);
    const out = new Uint8Array(4 + run.length + 1);
    new DataView(out.buffer).setUint32(0, run.length + 1, true);
    out.set(run, 4);
    out[4 + run.length] = 1;
    return out;
  }
  const groups = Math.ceil(n / 8);
  const head = varint(groups * 2 + 1);
  const out = new Uint8Array(4 + head.length + groups);
  new DataView(out.buffer).setUint32(0, head.length + groups, true);
  out.set(head, 4);
  const bits = 4 + head.length;
  for (const i of present) out[bits + ((i - lo) >> 3)] |= 1 << ((i - lo) & 7);
  return out;
}

/** The PLAIN encoding of the present values of rows lo..hi, as pieces (views where possible). */
function plainValues(col: ResultColumn, lo: number, hi: number, present: Int32Array | null): Uint8Array[] {
  const v = col.values;
  if (v instanceof Float64Array || v instanceof BigInt64Array) {
    if (col.type === 'boolean') return [plainBooleans(v as Float64Array, lo, hi, present)];
    if (present === null) return [new Uint8Array(v.buffer, v.byteOffset + lo * 8, (hi - lo) * 8)];
    const out = new Float64Array(present.length);
    const from = v instanceof Float64Array ? v : new Float64Array(v.buffer, v.byteOffset, v.length);
    for (let k = 0; k < present.length; k++) out[k] = from[present[k]];
    return [new Uint8Array(out.buffer)];
  }
  const items = v as readonly (string | Uint8Array | null)[];
  const bytes: Uint8Array[] = [];
  const take = (i: number): void => {
    const x = items[i]!;
    bytes.push(typeof x === 'string' ? Buffer.from(x, 'utf8') : x);
  };
  if (present === null) for (let i = lo; i < hi; i++) take(i);
  else for (const i of present) take(i);
  return [plainByteArrays(bytes)];
}

function plainBooleans(values: Float64Array, lo: number, hi: number, present: Int32Array | null): Uint8Array {
  const count = present === null ? hi - lo : present.length;
  const out = new Uint8Array(Math.ceil(count / 8));
  for (let k = 0; k < count; k++) if (values[present === null ? lo + k : present[k]] !== 0) out[k >> 3] |= 1 << (k & 7);
  return out;
}

/** BYTE_ARRAY PLAIN: each value as a 4-byte little-endian length and its bytes. */
function plainByteArrays(items: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const b of items) size += 4 + b.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const b of items) {
    out.writeUInt32LE(b.length, at);
    out.set(b, at + 4);
    at += 4 + b.length;
  }
  return out;
}

/** RLE_DICTIONARY: the bit width, then the present values' dictionary indexes bit-packed. */
function dictionaryIndices(s: ColumnChunkState, values: readonly (string | null)[], lo: number, hi: number, present: Int32Array | null): Uint8Array[] {
  const dict = s.dictionary!;
  const count = present === null ? hi - lo : present.length;
  const codes = new Uint32Array(Math.ceil(count / 8) * 8);
  for (let k = 0; k < count; k++) {
    const v = values[present === null ? lo + k : present[k]]!;
    let code = dict.get(v);
    if (code === undefined) {
      code = s.words.length;
      dict.set(v, code);
      s.words.push(v);
    }
    codes[k] = code;
  }
  const width = Math.max(1, 32 - Math.clz32(Math.max(0, s.words.length - 1)));
  const groups = codes.length / 8;
  const head = varint(groups * 2 + 1);
  const out = new Uint8Array(1 + head.length + groups * width);
  out[0] = width;
  out.set(head, 1);
  let at = 1 + head.length;
  // Values packed least significant bit first, 8 values in `width` bytes.
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < codes.length; k++) {
    acc += codes[k] * 2 ** bits;
    bits += width;
    while (bits >= 8) {
      out[at++] = acc & 0xff;
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  }
  return [out];
}

function varint(n: number): Uint8Array {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Uint8Array.from(out);
}

function sum(pieces: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
}

/** The pieces as one array (the piece itself when there is one). */
function concat(pieces: readonly Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) { out.set(p, at); at += p.length; }
  return out;
}
