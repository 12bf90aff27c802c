// The WAL record kinds, one tagged union, and their msgpackr codec. Typed arrays travel as raw
// little-endian bytes (msgpack `bin`), never as lists of numbers.
import { Packr } from 'msgpackr';
import type { NormalizedBatch } from '../batch-input.js';
import type { ColumnValues } from '../column-values.js';
import type { ColumnDef } from '../types.js';

export type WalRecord =
  | { readonly kind: 'BlobPut'; readonly alias: string; readonly data: Uint8Array; readonly mime: string; readonly expiry: number }
  | { readonly kind: 'Remove'; readonly alias: string }
  | { readonly kind: 'TagAttach'; readonly alias: string; readonly tag: string }
  | { readonly kind: 'TagDetach'; readonly alias: string; readonly tag: string }
  | { readonly kind: 'ExpirySet'; readonly alias: string; readonly expiry: number }
  | { readonly kind: 'TableCreate'; readonly name: string; readonly columns: readonly ColumnDef[]; readonly shardSize: bigint }
  | { readonly kind: 'TableInsert'; readonly name: string; readonly batch: NormalizedBatch };

export type WalRecordKind = WalRecord['kind'];

const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false });

export function encodeRecord(record: WalRecord): Uint8Array {
  if (record.kind !== 'TableInsert') return packr.pack(record);
  const { batch } = record;
  return packr.pack({ kind: record.kind, name: record.name, ts: bytes(batch.ts), columns: batch.columns.map(encodeColumn) });
}

export function decodeRecord(payload: Uint8Array): WalRecord {
  const raw = packr.unpack(payload) as Record<string, unknown> & { kind: WalRecordKind };
  if (raw.kind !== 'TableInsert') {
    if (raw.kind === 'BlobPut') return { ...(raw as never as WalRecord & { kind: 'BlobPut' }), data: new Uint8Array(raw.data as Uint8Array) };
    return raw as unknown as WalRecord;
  }
  const columns = (raw.columns as EncodedColumn[]).map(decodeColumn);
  return { kind: 'TableInsert', name: raw.name as string, batch: { ts: int64s(raw.ts as Uint8Array), columns } };
}

type EncodedColumn = { type: ColumnValues['type']; values: Uint8Array | unknown[]; nulls: Uint8Array | null };

function encodeColumn(col: ColumnValues): EncodedColumn {
  if (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP') {
    return { type: col.type, values: bytes(col.values), nulls: col.nulls };
  }
  return { type: col.type, values: col.values as unknown[], nulls: null };
}

function decodeColumn(col: EncodedColumn): ColumnValues {
  const nulls = col.nulls === null ? null : new Uint8Array(col.nulls);
  switch (col.type) {
    case 'DOUBLE':
      return { type: col.type, values: new Float64Array(aligned(col.values as Uint8Array)), nulls };
    case 'INT64':
    case 'TIMESTAMP':
      return { type: col.type, values: int64s(col.values as Uint8Array), nulls };
    case 'BLOB':
      return { type: col.type, values: (col.values as (Uint8Array | null)[]).map((v) => (v === null ? null : new Uint8Array(v))) };
    default:
      return { type: col.type, values: col.values as (string | null)[] };
  }
}

function bytes(a: Float64Array | BigInt64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function int64s(b: Uint8Array): BigInt64Array {
  return new BigInt64Array(aligned(b));
}

/** A fresh 8-byte-aligned copy of `b`'s bytes (unpacked buffers may sit at any offset). */
function aligned(b: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy.buffer;
}
