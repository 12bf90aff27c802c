// A query result as the page holds it: per source table, a time axis in milliseconds (Float64Array,
// NaN where null) and columns with a cell formatter for the table and, for numeric columns,
// plain numbers for the chart. Read from Arrow IPC (one stream per result table, back to back)
// straight from the buffers, or from the query_exp JSON for comparison.
import { RecordBatchReader, Type } from 'apache-arrow';
import type { Data, Vector } from 'apache-arrow';

export interface ResultColumn {
  readonly name: string;
  readonly type: string;
  /** Values for the chart (NaN = null), or null for a column that is not numeric. */
  readonly numbers: Float64Array | null;
  cell(row: number): string;
}

export interface ResultTable {
  readonly name: string;
  readonly rowCount: number;
  /** Row time in ms since the epoch, NaN when the row has none; null when no row has one. */
  readonly time: Float64Array | null;
  readonly columns: readonly ResultColumn[];
}

export interface QueryOutcome {
  readonly tables: readonly ResultTable[];
  readonly scannedRows: number | null;
  readonly bytes: number;
}

/** int64 (as two int32 words, little-endian) → number; exact below 2^53. */
function int64ToNumbers(words: Int32Array, length: number, scale: number, valid: (i: number) => boolean): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    if (!valid(i)) { out[i] = NaN; continue; }
    out[i] = (words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0)) / scale;
  }
  return out;
}

function validity(data: Data): (i: number) => boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return () => true;
  const offset = data.offset;
  return (i) => ((bitmap[(i + offset) >> 3]! >> ((i + offset) & 7)) & 1) === 1;
}

function words(data: Data): Int32Array {
  const v = data.values as unknown as ArrayBufferView;
  return new Int32Array(v.buffer, v.byteOffset + data.offset * 8, data.length * 2);
}

/**
 * An exact int64-nanosecond time as ISO 8601: milliseconds as query_exp's `js` format writes them,
 * plus the sub-millisecond digits only when there are any (the chart's float ms would lose them).
 */
function isoNs(ns: bigint): string {
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const rest = ns - ms * 1_000_000n;
  const iso = new Date(Number(ms)).toISOString();
  return rest === 0n ? iso : `${iso.slice(0, -1)}${String(rest).padStart(6, '0').replace(/0+$/, '')}Z`;
}

function arrowColumn(name: string, vector: Vector): ResultColumn {
  const data = vector.data[0]!;
  const n = vector.length;
  const valid = validity(data);
  switch (vector.type.typeId) {
    case Type.Float: {
      const values = data.values as Float64Array;
      const numbers = data.nullCount === 0 ? values.subarray(0, n) : Float64Array.from({ length: n }, (_, i) => (valid(i) ? values[i]! : NaN));
      return { name, type: 'double', numbers, cell: (i) => (valid(i) ? String(values[i]) : 'null') };
    }
    case Type.Int: {
      if ((vector.type as { bitWidth?: number }).bitWidth !== 64) {
        const small = data.values as Int32Array;
        const numbers = Float64Array.from({ length: n }, (_, i) => (valid(i) ? small[i]! : NaN));
        return { name, type: 'int', numbers, cell: (i) => (valid(i) ? String(small[i]) : 'null') };
      }
      const w = words(data);
      const numbers = int64ToNumbers(w, n, 1, valid);
      const big = data.values as unknown as BigInt64Array;
      return { name, type: 'int64', numbers, cell: (i) => (valid(i) ? String(big[i]) : 'null') };
    }
    case Type.Bool: {
      // BOOLEAN columns: true/false in the grid, 1/0 on the chart (a step series).
      const bits = data.values as Uint8Array;
      const bit = (i: number) => ((bits[(i + data.offset) >> 3]! >> ((i + data.offset) & 7)) & 1) === 1;
      const numbers = Float64Array.from({ length: n }, (_, i) => (valid(i) ? (bit(i) ? 1 : 0) : NaN));
      return { name, type: 'boolean', numbers, cell: (i) => (valid(i) ? String(bit(i)) : 'null') };
    }
    case Type.Timestamp: {
      const ns = data.values as unknown as BigInt64Array;
      return { name, type: 'timestamp', numbers: null, cell: (i) => (valid(i) ? isoNs(ns[i]!) : 'null') };
    }
    default: {
      const hex = vector.type.typeId === Type.Binary;
      return {
        name,
        type: hex ? 'blob' : vector.type.typeId === Type.Dictionary ? 'symbol' : 'string',
        numbers: null,
        cell: (i) => {
          const v: unknown = vector.get(i);
          if (v === null || v === undefined) return 'null';
          if (v instanceof Uint8Array) return btoa(String.fromCharCode(...v.subarray(0, 48))) + (v.length > 48 ? '…' : '');
          return String(v);
        },
      };
    }
  }
}

/** Reads the IPC streams of one answer: a table per stream, the `timestamp` field as time axis. */
export function readArrow(bytes: Uint8Array, scannedRows: number | null): QueryOutcome {
  const tables: ResultTable[] = [];
  for (const reader of RecordBatchReader.readAll(bytes)) {
    const batches = [...reader];
    const schema = reader.schema;
    const name = schema.metadata.get('table') ?? '';
    for (const batch of batches) {
      if (batch.numRows === 0 && schema.fields.length <= 1) continue;
      let time: Float64Array | null = null;
      const columns: ResultColumn[] = [];
      schema.fields.forEach((field, i) => {
        const vector = batch.getChildAt(i)!;
        if (i === 0 && field.name === 'timestamp' && field.typeId === Type.Timestamp) {
          const data = vector.data[0]!;
          const ok = validity(data);
          const ns = data.values as unknown as BigInt64Array;
          if (data.nullCount < vector.length) time = int64ToNumbers(words(data), vector.length, 1e6, ok);
          columns.push({ name: 'timestamp', type: 'timestamp', numbers: null, cell: (r) => (ok(r) && time !== null ? isoNs(ns[r]!) : 'null') });
          return;
        }
        columns.push(arrowColumn(field.name, vector));
      });
      tables.push({ name, rowCount: batch.numRows, time, columns });
    }
  }
  return { tables, scannedRows, bytes: bytes.length };
}

interface QueryExpJson {
  scanned_rows_count: number;
  tables: { table_name: string; columns_names: string[]; results: unknown[][] }[];
}

/** Reads the query_exp JSON answer (date_format=js): row-major, first column `timestamp`. */
export function readJson(text: string): QueryOutcome {
  const body = JSON.parse(text) as QueryExpJson;
  const tables = body.tables.map((t): ResultTable => {
    const n = t.results.length;
    let hasTime = false;
    const time = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const v = t.results[r]![0];
      time[r] = typeof v === 'string' ? Date.parse(v) : NaN;
      if (typeof v === 'string') hasTime = true;
    }
    const columns = t.columns_names.map((name, c): ResultColumn => {
      let numeric = n > 0;
      let isBoolean = n > 0;
      for (let r = 0; r < n && (numeric || isBoolean); r++) {
        const v = t.results[r]![c];
        if (v !== null && typeof v !== 'number') numeric = false;
        if (v !== null && typeof v !== 'boolean') isBoolean = false;
      }
      // Numbers chart as they are; booleans as 1/0.
      const asNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : NaN);
      const numbers = (numeric || isBoolean) && c > 0 ? Float64Array.from({ length: n }, (_, r) => asNumber(t.results[r]![c])) : null;
      return {
        name,
        type: isBoolean && !numeric ? 'boolean' : numbers !== null ? 'number' : 'string',
        numbers,
        cell: (r) => {
          const v = t.results[r]![c];
          return v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        },
      };
    });
    return { name: t.table_name, rowCount: n, time: hasTime ? time : null, columns };
  });
  return { tables, scannedRows: body.scanned_rows_count, bytes: text.length };
}
