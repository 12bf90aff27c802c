// Parquet files into typed column batches: hyparquet (a maintained pure-JavaScript reader) reads
// the footer and decodes each page — every encoding and codec it knows: PLAIN, dictionaries,
// RLE, the DELTA encodings, BYTE_STREAM_SPLIT; Snappy, gzip, … — and the values land here, page
// by page, in typed arrays with a null mask, one batch per row group. Its row assembly (a JS
// array per column, nulls spliced in value by value) is skipped, and v1 pages of PLAIN values
// or dictionary indexes are cut here into typed arrays (flatPage): the JS arrays hyparquet fills
// a value at a time made a plain `parquetRead` several times slower on files where every column
// is OPTIONAL, as DuckDB, pyarrow and svc write them. Flat columns only (no lists, maps, structs).
// Types: INT64/INT32 (and the integer logical types) → INT64; TIMESTAMP of any unit, DATE and
// INT96 → TIMESTAMP (nanoseconds); DOUBLE, FLOAT, DECIMAL → DOUBLE; BOOLEAN; strings (STRING,
// UTF8, ENUM, JSON) → STRING, or SYMBOL when the footer's `svc:columns` (an svc export) says
// so; other byte arrays → BLOB.
import { parquetMetadata, parquetSchema } from 'hyparquet';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { parquetHeader } from 'hyparquet/src/column.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { getTreePath, isFlatColumn } from 'hyparquet/src/schema.js';
import * as snappy from 'snappy';
import type { ColumnDecoder, Compressors, DataPageHeader, PageHeader, DecodedArray, FileMetaData, SchemaElement } from 'hyparquet/src/types.js';
import { SvcError } from '../../errors.js';
import type { ColumnType } from '../../types.js';
import { bits64 } from '../../storage/column-values.js';
import type { ColumnValues } from '../../storage/column-values.js';
import type { FileColumn } from './file-column.js';

export interface ParquetFile {
  readonly columns: readonly FileColumn[];
  readonly rows: number;
  /** The row groups, each as columns of `columns`' types (read one at a time). */
  groups(): AsyncGenerator<ColumnValues[]>;
}

const NS_PER_DAY = 86_400_000_000_000n;
/** Snappy v2 pages through the native snappy package too, not hyparquet's JS one. */
const COMPRESSORS: Compressors = { SNAPPY: (input) => snappy.uncompressSync(input, { asBuffer: true }) as Buffer };
const JULIAN_EPOCH_DAY = 2_440_588n;
const utf8 = new TextDecoder();

/** The file in `bytes`, or InvalidArgument saying why it is not one svc reads. */
export function readParquet(bytes: Uint8Array): ParquetFile {
  let metadata: FileMetaData;
  try {
    // A buffer of the file alone is read as it is; a view into a larger one is copied out.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    metadata = parquetMetadata(whole as ArrayBuffer);
  } catch (e) {
    throw new SvcError('InvalidArgument', `the body is not a Parquet file: ${(e as Error).message}`);
  }
  const tree = parquetSchema(metadata);
  const svcTypes = svcColumnTypes(metadata);
  const columns = tree.children.map((child): FileColumn => {
    if (!isFlatColumn([tree, child])) throw new SvcError('InvalidArgument', `Parquet column '${child.element.name}' is nested (a list, map or struct); svc imports flat columns only`);
    return { name: child.element.name, type: svcTypes.get(child.element.name) ?? columnType(child.element) };
  });
  const view = bytes;
  return {
    columns,
    rows: Number(metadata.num_rows),
    async *groups() {
      for (const group of metadata.row_groups) {
        const rows = Number(group.num_rows);
        // Every column chunk at once: their Snappy pages decompress on the thread pool together.
        yield await Promise.all(group.columns.map((chunk, k) => {
          const meta = chunk.meta_data;
          if (meta === undefined) throw new SvcError('InvalidArgument', 'a Parquet column chunk without metadata (in another file) is not supported');
          const path = getTreePath(tree, meta.path_in_schema);
          const decoder: ColumnDecoder = {
            pathInSchema: meta.path_in_schema,
            element: path[path.length - 1].element,
            schemaPath: path,
            type: meta.type,
            codec: meta.codec,
            compressors: COMPRESSORS,
            parsers: undefined as never,
          } as unknown as ColumnDecoder;
          const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
          const end = start + Number(meta.total_compressed_size);
          return readChunk(view.subarray(start, end), decoder, columns[k], rows);
        }));
      }
    },
  };
}

/** The column types an svc export recorded (key-value metadata `svc:columns`). */
function svcColumnTypes(metadata: FileMetaData): Map<string, ColumnType> {
  const kv = metadata.key_value_metadata?.find((e) => e.key === 'svc:columns');
  const types = new Map<string, ColumnType>();
  if (kv?.value === undefined) return types;
  try {
    for (const c of JSON.parse(kv.value) as { name: string; type: ColumnType }[]) if (c.type === 'SYMBOL') types.set(c.name, 'SYMBOL');
  } catch {
    // not ours after all: the Parquet types decide
  }
  return types;
}

function columnType(e: SchemaElement): ColumnType {
  const logical = e.logical_type?.type;
  if (e.type === 'INT96' || logical === 'TIMESTAMP' || logical === 'DATE' || e.converted_type === 'DATE'
    || e.converted_type === 'TIMESTAMP_MILLIS' || e.converted_type === 'TIMESTAMP_MICROS') return 'TIMESTAMP';
  if (logical === 'DECIMAL' || e.converted_type === 'DECIMAL') return 'DOUBLE';
  switch (e.type) {
    case 'BOOLEAN': return 'BOOLEAN';
    case 'INT32':
    case 'INT64': return 'INT64';
    case 'FLOAT':
    case 'DOUBLE': return 'DOUBLE';
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      return logical === 'STRING' || logical === 'ENUM' || logical === 'JSON' || e.converted_type === 'UTF8' || e.converted_type === 'ENUM' || e.converted_type === 'JSON' ? 'STRING' : 'BLOB';
    default:
      throw new SvcError('InvalidArgument', `Parquet column '${e.name}' has the type ${String(e.type)}, which svc does not import`);
  }
}

/**
 * One column chunk (`bytes`: its pages) as `rows` values of the column's svc type. Every page's
 * decompression starts first — Snappy pages on libuv's thread pool (DuckDB's and pyarrow's
 * default codec; decompressing them was 40 % of an import on one thread) — then the pages are
 * decoded in order as they arrive.
 */
async function readChunk(bytes: Uint8Array, decoder: ColumnDecoder, column: FileColumn, rows: number): Promise<ColumnValues> {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const pages: { header: PageHeader; body: Uint8Array; raw: Promise<Uint8Array> | null }[] = [];
  while (reader.offset < bytes.byteLength) {
    const header = parquetHeader(reader);
    const body = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    // v2 pages keep their levels uncompressed: readDataPageV2 decompresses the rest itself.
    const raw = header.type === 'DATA_PAGE' || header.type === 'DICTIONARY_PAGE' ? decompress(body, Number(header.uncompressed_page_size), decoder.codec) : null;
    pages.push({ header, body, raw });
  }
  const out = new ColumnOut(column, decoder.element, rows);
  let dictionary: DecodedArray | undefined;
  for (const { header, body, raw } of pages) {
    if (out.filled >= rows) break;
    if (header.type === 'DICTIONARY_PAGE') {
      const page = await raw!;
      const plain = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
      dictionary = readPlain(plain, decoder.type, header.dictionary_page_header!.num_values, decoder.element.type_length);
      continue;
    }
    let page: Page;
    if (header.type === 'DATA_PAGE') {
      const daph = header.data_page_header!;
      const bytesOfPage = await raw!;
      page = flatPage(bytesOfPage, daph, decoder) ?? { ...readDataPage(bytesOfPage, daph, decoder), encoding: daph.encoding, count: daph.num_values };
    } else if (header.type === 'DATA_PAGE_V2') {
      const daph = header.data_page_header_v2!;
      const { definitionLevels, dataPage } = readDataPageV2(body, header, decoder);
      page = { definitionLevels, dataPage, encoding: daph.encoding, count: daph.num_values };
    } else continue;
    const values = page.encoding.endsWith('_DICTIONARY') && dictionary !== undefined ? { indices: page.dataPage, dictionary } : { plain: page.dataPage };
    out.page(page.count, page.definitionLevels, values);
  }
  return out.values();
}

/** A page's bytes decompressed: Snappy on the thread pool, other codecs by hyparquet here. */
function decompress(body: Uint8Array, size: number, codec: ColumnDecoder['codec']): Promise<Uint8Array> {
  if (codec === 'SNAPPY') return snappy.uncompress(body, { asBuffer: true }) as Promise<Buffer>;
  return Promise.resolve(decompressPage(body, size, codec, COMPRESSORS));
}

/** A data page decoded: its definition levels (none or empty: no null; 0 = null) and present values. */
interface Page {
  readonly definitionLevels: ArrayLike<number> | undefined;
  readonly dataPage: DecodedArray;
  readonly encoding: string;
  readonly count: number;
}

/**
 * A v1 data page of a flat column whose values are PLAIN or dictionary indexes, decoded into
 * typed arrays: hyparquet's readDataPage puts the definition levels and the indexes into JS
 * arrays, a value at a time, which was most of an import's time. Null for other pages (hyparquet
 * decodes those).
 */
function flatPage(raw: Uint8Array, daph: DataPageHeader, decoder: ColumnDecoder): Page | null {
  const isDictionary = daph.encoding === 'PLAIN_DICTIONARY' || daph.encoding === 'RLE_DICTIONARY';
  if (daph.encoding !== 'PLAIN' && !isDictionary) return null;
  const reader = { view: new DataView(raw.buffer, raw.byteOffset, raw.byteLength), offset: 0 };
  let levels: Uint8Array | undefined;
  let present = daph.num_values;
  if (decoder.element.repetition_type === 'OPTIONAL' && !isAllPresent(reader, daph.num_values)) {
    levels = new Uint8Array(daph.num_values);
    readRleBitPackedHybrid(reader, 1, levels);
    present = 0;
    for (let i = 0; i < levels.length; i++) present += levels[i];
    if (present === daph.num_values) levels = undefined;
  }
  let dataPage: DecodedArray;
  if (!isDictionary) dataPage = readPlain(reader, decoder.type, present, decoder.element.type_length);
  else {
    const width = reader.view.getUint8(reader.offset++);
    dataPage = new Int32Array(present);
    if (width > 0) readRleBitPackedHybrid(reader, width, dataPage, raw.byteLength - reader.offset);
  }
  return { definitionLevels: levels, dataPage, encoding: daph.encoding, count: daph.num_values };
}

/**
 * True (and the reader moved past the levels) when a page's definition levels are one RLE run of
 * 1s over every row — a page without nulls, as writers encode it — so nothing needs decoding.
 */
function isAllPresent(reader: { view: DataView; offset: number }, rows: number): boolean {
  const { view, offset } = reader;
  if (offset + 6 > view.byteLength) return false;
  const length = view.getUint32(offset, true);
  let header = 0;
  let shift = 0;
  let at = offset + 4;
  for (let b = 0x80; b & 0x80 && at < offset + 4 + length; shift += 7) {
    b = view.getUint8(at++);
    header += (b & 0x7f) * 2 ** shift;
  }
  if (header % 2 !== 0 || header / 2 !== rows || at + 1 !== offset + 4 + length || view.getUint8(at) !== 1) return false;
  reader.offset = offset + 4 + length;
  return true;
}

/** The values of one column chunk, filled page by page. */
class ColumnOut {
  filled = 0;
  private readonly nulls: Uint8Array;
  private readonly numbers: Float64Array | BigInt64Array | null;
  private readonly list: (string | Uint8Array | boolean | null)[] | null;
  private readonly toNs: ((v: unknown) => bigint) | null;
  private words: (string | Uint8Array)[] | null = null;
  private wordsOf: DecodedArray | null = null;

  constructor(private readonly column: FileColumn, private readonly element: SchemaElement, rows: number) {
    this.nulls = new Uint8Array(rows);
    const t = column.type;
    this.numbers = t === 'DOUBLE' ? new Float64Array(rows) : t === 'INT64' || t === 'TIMESTAMP' ? new BigInt64Array(rows) : null;
    this.list = this.numbers === null ? new Array(rows).fill(null) : null;
    this.toNs = t === 'TIMESTAMP' ? nanosOf(element) : null;
  }

  /** A page of `count` rows: definition levels (empty: no null) and its present values. */
  page(count: number, levels: ArrayLike<number> | undefined, values: { plain: DecodedArray } | { indices: DecodedArray; dictionary: DecodedArray }): void {
    const at = this.filled;
    // A flat OPTIONAL column's levels are 1 (a value) or 0 (null); none when the page has no null.
    const hasNulls = levels !== undefined && levels.length > 0;
    if ('plain' in values && this.bulk(at, count, values.plain, hasNulls ? levels : undefined)) {
      this.filled += count;
      return;
    }
    let k = 0;
    for (let i = 0; i < count; i++) {
      if (hasNulls && levels[i] === 0) {
        this.nulls[at + i] = 1;
        continue;
      }
      this.put(at + i, 'plain' in values ? values.plain[k] : this.word(values.dictionary, values.indices[k] as number));
      k++;
    }
    this.filled += count;
  }

  /**
   * Copies a page whose values already have the column's array type (doubles, int64, times in
   * nanoseconds) in one go, or spread over the rows its levels say have one; false for others.
   */
  private bulk(at: number, count: number, plain: DecodedArray, levels: ArrayLike<number> | undefined): boolean {
    const out = this.numbers;
    const isSame = (out instanceof Float64Array && plain instanceof Float64Array)
      || (out instanceof BigInt64Array && plain instanceof BigInt64Array && (this.column.type === 'INT64' || this.toNs === NANOS));
    if (!isSame) return false;
    if (levels === undefined) {
      out.set(plain.subarray(0, count) as never, at);
      return true;
    }
    // 64-bit values moved as float64 bits (column-values.ts bits64): no BigInt per value.
    const to = bits64(out);
    const from = bits64(plain as Float64Array | BigInt64Array);
    for (let i = 0, k = 0; i < count; i++) {
      if (levels[i] === 0) this.nulls[at + i] = 1;
      else to[at + i] = from[k++];
    }
    return true;
  }

  /** Dictionary entry `index`, each decoded once per dictionary. */
  private word(dictionary: DecodedArray, index: number): unknown {
    if (this.column.type !== 'STRING' && this.column.type !== 'SYMBOL') return dictionary[index];
    if (this.wordsOf !== dictionary) {
      this.wordsOf = dictionary;
      this.words = Array.from(dictionary as Uint8Array[], (b) => utf8.decode(b));
    }
    return this.words![index];
  }

  private put(i: number, v: unknown): void {
    switch (this.column.type) {
      case 'DOUBLE':
        (this.numbers as Float64Array)[i] = typeof v === 'bigint' ? Number(v) : this.element.logical_type?.type === 'DECIMAL' ? decimal(v, this.element.scale ?? 0) : (v as number);
        return;
      case 'INT64':
        (this.numbers as BigInt64Array)[i] = typeof v === 'bigint' ? v : BigInt(v as number);
        return;
      case 'TIMESTAMP':
        (this.numbers as BigInt64Array)[i] = this.toNs!(v);
        return;
      case 'STRING':
      case 'SYMBOL':
        this.list![i] = typeof v === 'string' ? v : utf8.decode(v as Uint8Array);
        return;
      case 'BOOLEAN':
        this.list![i] = v === true || v === 1;
        return;
      case 'BLOB':
        this.list![i] = (v as Uint8Array).slice();
    }
  }

  values(): ColumnValues {
    if (this.filled !== this.nulls.length) throw new SvcError('InvalidArgument', `Parquet column '${this.column.name}' holds ${this.filled} values in a row group of ${this.nulls.length} rows`);
    const hasNull = this.nulls.includes(1);
    const t = this.column.type;
    if (t === 'DOUBLE') return { type: t, values: this.numbers as Float64Array, nulls: hasNull ? this.nulls : null };
    if (t === 'INT64' || t === 'TIMESTAMP') return { type: t, values: this.numbers as BigInt64Array, nulls: hasNull ? this.nulls : null };
    return { type: t, values: this.list } as ColumnValues;
  }
}

/** Times already in nanoseconds. */
const NANOS = (v: unknown): bigint => v as bigint;

/** Nanoseconds of a time value of `e`'s unit (TIMESTAMP of any unit, DATE days, INT96). */
function nanosOf(e: SchemaElement): (v: unknown) => bigint {
  if (e.type === 'INT96') return (v) => (((v as bigint) >> 64n) - JULIAN_EPOCH_DAY) * NS_PER_DAY + ((v as bigint) & 0xffffffffffffffffn);
  const lt = e.logical_type;
  if (lt?.type === 'DATE' || e.converted_type === 'DATE') return (v) => BigInt(v as number) * NS_PER_DAY;
  const unit = lt?.type === 'TIMESTAMP' ? lt.unit : e.converted_type === 'TIMESTAMP_MILLIS' ? 'MILLIS' : 'MICROS';
  const factor = unit === 'NANOS' ? 1n : unit === 'MICROS' ? 1_000n : 1_000_000n;
  return factor === 1n ? NANOS : (v) => BigInt(v as bigint | number) * factor;
}

function decimal(v: unknown, scale: number): number {
  if (v instanceof Uint8Array) {
    let x = 0n;
    for (const b of v) x = (x << 8n) | BigInt(b);
    if (v.length > 0 && v[0] >= 0x80) x -= 1n << BigInt(v.length * 8);
    return Number(x) / 10 ** scale;
  }
  return Number(v) / 10 ** scale;
}

