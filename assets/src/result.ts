// A query result as the page holds it: per source table, a time axis in milliseconds and columns
// that know their nulls, their exact text (what the CSV holds and a cell's hover shows) and, for
// text columns, a code per row (the chart's series per value). Read from Arrow IPC (one stream per
// result table, back to back) straight from the buffers, or from the query_exp JSON for comparison.
import { RecordBatchReader, Type } from 'apache-arrow';
import type { Data, Vector } from 'apache-arrow';

/** How a column is shown and charted: numbers and booleans are series, times and text are not. */
export type ValueKind = 'number' | 'boolean' | 'time' | 'text';

/** Distinct values of a text column: `codes[row]` indexes `labels` (-1: null). */
export interface ColumnKeys {
  readonly codes: Int32Array;
  readonly labels: readonly string[];
}

export interface ResultColumn {
  readonly name: string;
  /** The server's type name (double, int64, timestamp, symbol, string, blob, boolean, …). */
  readonly type: string;
  readonly kind: ValueKind;
  /**
   * number/boolean: the values (booleans as 1/0); time: milliseconds since the epoch; NaN where
   * the row is null (a double's own NaN is NaN too: the chart treats both as a gap). Text: null.
   */
  readonly numbers: Float64Array | null;
  isNull(row: number): boolean;
  /** The exact value as text, '' for null; times in UTC (ISO 8601, nanoseconds when present). */
  exact(row: number): string;
  /** Times: the nanosecond digits below the millisecond ('' when none), for other clocks' text. */
  subMs?(row: number): string;
  /** Codes and labels of a text column (computed once, on first use); null for other kinds. */
  keys(): ColumnKeys | null;
}

export interface ResultTable {
  readonly name: string;
  readonly rowCount: number;
  /** Row time in ms since the epoch, NaN when the row has none; null when no row has one. */
  readonly time: Float64Array | null;
  /** The columns to show: the row time first (`timestamp`, or `$timestamp` when it is selected). */
  readonly columns: readonly ResultColumn[];
}

export interface QueryOutcome {
  readonly tables: readonly ResultTable[];
  readonly scannedRows: number | null;
  readonly bytes: number;
}

const NO_NULLS = (): boolean => false;

/** int64 (as two int32 words, little-endian) → number; exact below 2^53. */
function int64ToNumbers(words: Int32Array, length: number, scale: number, isNull: (i: number) => boolean): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = isNull(i) ? NaN : (words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0)) / scale;
  return out;
}

function nullTest(data: Data): (i: number) => boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return NO_NULLS;
  const offset = data.offset;
  return (i) => ((bitmap[(i + offset) >> 3]! >> ((i + offset) & 7)) & 1) === 0;
}

function words(data: Data): Int32Array {
  const v = data.values as unknown as ArrayBufferView;
  return new Int32Array(v.buffer, v.byteOffset + data.offset * 8, data.length * 2);
}

/** Digits of a nanosecond time below the millisecond ('' when it is a whole millisecond). */
function subMsDigits(ns: bigint): string {
  const rest = ((ns % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return rest === 0n ? '' : String(rest).padStart(6, '0').replace(/0+$/, '');
}

/** A time as query_exp's `js` format writes it, plus sub-millisecond digits when present. */
export function isoUtc(ms: number, subMs: string): string {
  if (Number.isNaN(ms)) return '';
  const iso = new Date(ms).toISOString();
  return subMs === '' ? iso : `${iso.slice(0, -1)}${subMs}Z`;
}

function timeColumn(name: string, data: Data, length: number): ResultColumn {
  const isNull = nullTest(data);
  const ns = data.values as unknown as BigInt64Array;
  const numbers = int64ToNumbers(words(data), length, 1e6, isNull);
  const subMs = (i: number): string => (isNull(i) ? '' : subMsDigits(ns[data.offset + i]!));
  return { name, type: 'timestamp', kind: 'time', numbers, isNull, exact: (i) => isoUtc(numbers[i]!, subMs(i)), subMs, keys: () => null };
}

/** Codes for text read row by row (`text(i)` null for a null row). */
export function keysOf(length: number, text: (i: number) => string | null): ColumnKeys {
  const codes = new Int32Array(length);
  const labels: string[] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < length; i++) {
    const t = text(i);
    if (t === null) { codes[i] = -1; continue; }
    let code = index.get(t);
    if (code === undefined) { code = labels.length; labels.push(t); index.set(t, code); }
    codes[i] = code;
  }
  return { codes, labels };
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) { value = make(); made = true; }
    return value as T;
  };
}

function arrowColumn(name: string, vector: Vector): ResultColumn {
  const data = vector.data[0]!;
  const n = vector.length;
  const isNull = nullTest(data);
  const noKeys = () => null;
  switch (vector.type.typeId) {
    case Type.Float: {
      const values = (data.values as Float64Array).subarray(data.offset, data.offset + n);
      let numbers = values;
      if (data.nullCount > 0) {
        numbers = new Float64Array(values);
        for (let i = 0; i < n; i++) if (isNull(i)) numbers[i] = NaN;
      }
      return { name, type: 'double', kind: 'number', numbers, isNull, exact: (i) => (isNull(i) ? '' : String(values[i])), keys: noKeys };
    }
    case Type.Int: {
      if ((vector.type as { bitWidth?: number }).bitWidth !== 64) {
        const small = data.values as Int32Array;
        const numbers = Float64Array.from({ length: n }, (_, i) => (isNull(i) ? NaN : small[data.offset + i]!));
        return { name, type: 'int', kind: 'number', numbers, isNull, exact: (i) => (isNull(i) ? '' : String(small[data.offset + i])), keys: noKeys };
      }
      const big = data.values as unknown as BigInt64Array;
      return {
        name, type: 'int64', kind: 'number', numbers: int64ToNumbers(words(data), n, 1, isNull), isNull,
        exact: (i) => (isNull(i) ? '' : String(big[data.offset + i])), keys: noKeys,
      };
    }
    case Type.Bool: {
      // BOOLEAN columns: true/false in the grid, 1/0 on the chart (a step series).
      const bits = data.values as Uint8Array;
      const bit = (i: number) => ((bits[(i + data.offset) >> 3]! >> ((i + data.offset) & 7)) & 1) === 1;
      const numbers = Float64Array.from({ length: n }, (_, i) => (isNull(i) ? NaN : bit(i) ? 1 : 0));
      return { name, type: 'boolean', kind: 'boolean', numbers, isNull, exact: (i) => (isNull(i) ? '' : String(bit(i))), keys: noKeys };
    }
    case Type.Timestamp:
      return timeColumn(name, data, n);
    case Type.Dictionary: {
      // SYMBOL: Int32 codes into a small dictionary, read once; the codes are the series keys.
      const indices = (data.values as Int32Array).subarray(data.offset, data.offset + n);
      const dictionary = data.dictionary!;
      const labels = Array.from({ length: dictionary.length }, (_, i) => String(dictionary.get(i) ?? ''));
      const keys = once(() => {
        if (data.nullCount === 0) return { codes: indices, labels };
        const codes = new Int32Array(indices);
        for (let i = 0; i < n; i++) if (isNull(i)) codes[i] = -1;
        return { codes, labels };
      });
      return { name, type: 'symbol', kind: 'text', numbers: null, isNull, exact: (i) => (isNull(i) ? '' : labels[indices[i]!]!), keys };
    }
    case Type.Binary:
      return {
        name, type: 'blob', kind: 'text', numbers: null, isNull, keys: noKeys,
        exact: (i) => {
          const v = vector.get(i) as Uint8Array | null;
          return v === null ? '' : btoa(String.fromCharCode(...v.subarray(0, 48))) + (v.length > 48 ? '…' : '');
        },
      };
    case Type.Null:
      return { name, type: 'none', kind: 'text', numbers: null, isNull: () => true, exact: () => '', keys: () => keysOf(n, () => null) };
    default: {
      const text = (i: number): string | null => (isNull(i) ? null : String(vector.get(i)));
      return { name, type: 'string', kind: 'text', numbers: null, isNull, exact: (i) => text(i) ?? '', keys: once(() => keysOf(n, text)) };
    }
  }
}

/** True when two time columns hold the same instant on every row (nulls alike). */
function sameTimes(a: ResultColumn, b: ResultColumn, rows: number): boolean {
  const x = a.numbers!;
  const y = b.numbers!;
  for (let i = 0; i < rows; i++) {
    if (!(x[i] === y[i] || (Number.isNaN(x[i]!) && Number.isNaN(y[i]!)))) return false;
    if (a.subMs?.(i) !== b.subMs?.(i)) return false;
  }
  return true;
}

/**
 * The columns to show: query_exp always puts the row time first (`timestamp`); a selected
 * `$timestamp` holding the same times would show the same instant twice, so only it stays.
 */
function withoutRepeatedTime(columns: ResultColumn[], rows: number): ResultColumn[] {
  const first = columns[0];
  const selected = columns.find((c, i) => i > 0 && c.name === '$timestamp' && c.kind === 'time');
  if (first === undefined || first.kind !== 'time' || selected === undefined || !sameTimes(first, selected, rows)) return columns;
  return columns.slice(1);
}

/** Reads the IPC streams of one answer: a table per stream, the `timestamp` field as time axis. */
export function readArrow(bytes: Uint8Array, scannedRows: number | null): QueryOutcome {
  const tables: ResultTable[] = [];
  for (const reader of RecordBatchReader.readAll(bytes)) {
    const batches = [...reader];
    const schema = reader.schema;
    const name = schema.metadata.get('table') ?? '';
    for (const batch of batches) {
      if (batch.numRows === 0) continue;
      let time: Float64Array | null = null;
      const columns: ResultColumn[] = schema.fields.map((field, i) => {
        const vector = batch.getChildAt(i)!;
        if (i === 0 && field.name === 'timestamp' && field.typeId === Type.Timestamp) {
          const column = timeColumn('timestamp', vector.data[0]!, vector.length);
          if (vector.nullCount < vector.length) time = column.numbers;
          return column;
        }
        return arrowColumn(field.name, vector);
      });
      tables.push({ name, rowCount: batch.numRows, time, columns: withoutRepeatedTime(columns, batch.numRows) });
    }
  }
  return { tables, scannedRows, bytes: bytes.length };
}

interface QueryExpJson {
  scanned_rows_count: number;
  tables: { table_name: string; columns_names: string[]; results: unknown[][] }[];
}

const ISO_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)(\d*)Z$/;

function jsonColumn(name: string, rows: readonly unknown[][], c: number): ResultColumn {
  const n = rows.length;
  const value = (r: number): unknown => rows[r]![c];
  const isNull = (r: number): boolean => value(r) === null;
  let kind: ValueKind | null = null;
  for (let r = 0; r < n; r++) {
    const v = value(r);
    if (v === null) continue;
    const k: ValueKind = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : typeof v === 'string' && ISO_TIME.test(v) ? 'time' : 'text';
    if (kind === null) kind = k;
    else if (kind !== k) { kind = 'text'; break; }
  }
  const text = (r: number): string => {
    const v = value(r);
    return v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  if (kind === 'number' || kind === 'boolean') {
    const numbers = Float64Array.from({ length: n }, (_, r) => { const v = value(r); return v === null ? NaN : Number(v); });
    return { name, type: kind === 'boolean' ? 'boolean' : 'number', kind, numbers, isNull, exact: text, keys: () => null };
  }
  if (kind === 'time') {
    // js dates carry milliseconds only: Date.parse reads them whole (sub-ms digits, if any, come from subMs).
    const numbers = Float64Array.from({ length: n }, (_, r) => { const v = value(r); return v === null ? NaN : Date.parse(String(v)); });
    const subMs = (r: number): string => ISO_TIME.exec(String(value(r)))?.[2] ?? '';
    return { name, type: 'timestamp', kind, numbers, isNull, exact: (r) => isoUtc(numbers[r]!, subMs(r)), subMs, keys: () => null };
  }
  return { name, type: 'string', kind: 'text', numbers: null, isNull, exact: text, keys: once(() => keysOf(n, (r) => (isNull(r) ? null : text(r)))) };
}

/** Reads the query_exp JSON answer (date_format=js): row-major, first column `timestamp`. */
export function readJson(text: string): QueryOutcome {
  const body = JSON.parse(text) as QueryExpJson;
  const tables = body.tables.filter((t) => t.results.length > 0).map((t): ResultTable => {
    const columns = t.columns_names.map((name, c) => jsonColumn(name, t.results, c));
    const first = columns[0];
    const time = first?.kind === 'time' ? first.numbers : null;
    return { name: t.table_name, rowCount: t.results.length, time, columns: withoutRepeatedTime(columns, t.results.length) };
  });
  return { tables, scannedRows: body.scanned_rows_count, bytes: text.length };
}
