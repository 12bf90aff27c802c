// A query result as bytes, for the parts of a SELECT that another node runs (query-parts.ts):
// msgpack, with typed arrays as their raw little-endian bytes (msgpack bin, as the WAL records
// carry them), decoded into fresh typed arrays of their own — so the node that asked encodes
// exactly the values the node that ran the part computed, bit for bit (NaN payloads, -0 included).
import { Packr } from 'msgpackr';
import type { QueryResult, ResultColumn, ResultTable, ResultType } from '../query/index.js';

const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false });

type ArrayKind = 'f64' | 'i64' | 'str' | 'bin';

interface PackedColumn {
  readonly name: string;
  readonly type: ResultType;
  readonly kind: ArrayKind;
  readonly values: Uint8Array | readonly (string | Uint8Array | null)[];
  readonly nulls: Uint8Array | null;
}

interface PackedTable {
  readonly name: string;
  readonly rowCount: number;
  readonly timestamps: Uint8Array;
  readonly timestampNulls: Uint8Array | null;
  readonly columns: readonly PackedColumn[];
}

interface PackedResult {
  readonly kind: QueryResult['kind'];
  readonly scannedRowsCount: number;
  readonly tables: readonly PackedTable[];
}

export function encodeResult(result: QueryResult): Uint8Array {
  const packed: PackedResult = {
    kind: result.kind,
    scannedRowsCount: result.scannedRowsCount,
    tables: result.tables.map((t) => ({
      name: t.name,
      rowCount: t.rowCount,
      timestamps: bytesOf(t.timestamps),
      timestampNulls: t.timestampNulls,
      columns: t.columns.map(packColumn),
    })),
  };
  return packr.pack(packed);
}

export function decodeResult(bytes: Uint8Array): QueryResult {
  const packed = packr.unpack(bytes) as PackedResult;
  return {
    kind: packed.kind,
    scannedRowsCount: packed.scannedRowsCount,
    tables: packed.tables.map((t): ResultTable => ({
      name: t.name,
      rowCount: t.rowCount,
      timestamps: new BigInt64Array(aligned(t.timestamps)),
      timestampNulls: copyOf(t.timestampNulls),
      columns: t.columns.map(unpackColumn),
    })),
  };
}

function packColumn(c: ResultColumn): PackedColumn {
  const { name, type, values, nulls } = c;
  if (values instanceof Float64Array) return { name, type, kind: 'f64', values: bytesOf(values), nulls };
  if (values instanceof BigInt64Array) return { name, type, kind: 'i64', values: bytesOf(values), nulls };
  const isBinary = type === 'blob' || values.some((v) => v instanceof Uint8Array);
  return { name, type, kind: isBinary ? 'bin' : 'str', values, nulls };
}

function unpackColumn(c: PackedColumn): ResultColumn {
  const { name, type } = c;
  const nulls = copyOf(c.nulls);
  switch (c.kind) {
    case 'f64':
      return { name, type, values: new Float64Array(aligned(c.values as Uint8Array)), nulls };
    case 'i64':
      return { name, type, values: new BigInt64Array(aligned(c.values as Uint8Array)), nulls };
    case 'str':
      return { name, type, values: c.values as (string | null)[], nulls };
    case 'bin':
      return { name, type, values: (c.values as (Uint8Array | null)[]).map((v) => (v === null ? null : new Uint8Array(v))), nulls };
  }
}

function bytesOf(a: Float64Array | BigInt64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** The bytes in a buffer of their own (a typed array of 8-byte values needs an aligned offset). */
function aligned(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}

function copyOf(bytes: Uint8Array | null): Uint8Array | null {
  return bytes === null ? null : new Uint8Array(bytes);
}
