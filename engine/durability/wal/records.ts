// The WAL record kinds, one tagged union, and their msgpackr codec. Typed arrays travel as raw
// little-endian bytes (msgpack `bin`), never as lists of numbers. The records of one write are
// one payload (encodeRecords): replay decodes all of them before applying any, so a write made of
// several records (a table created and filled, several tables' rows) is replayed whole or not at all.
import { Packr } from 'msgpackr';
import { ByteChunks } from './byte-chunks.js';
import type { NormalizedBatch } from '../../storage/batch-input.js';
import type { ColumnValues } from '../../storage/column-values.js';
import type { ColumnDef, TimeToLive } from '../../types.js';

export type WalRecord =
  | { readonly kind: 'BlobPut'; readonly alias: string; readonly data: Uint8Array; readonly mime: string; readonly expiry: number }
  | { readonly kind: 'Remove'; readonly alias: string }
  | { readonly kind: 'TagAttach'; readonly alias: string; readonly tag: string }
  | { readonly kind: 'TagDetach'; readonly alias: string; readonly tag: string }
  | { readonly kind: 'ExpirySet'; readonly alias: string; readonly expiry: number }
  /** `ttl` absent (records written before TTLs existed) or null: rows are kept forever. */
  | { readonly kind: 'TableCreate'; readonly name: string; readonly columns: readonly ColumnDef[]; readonly shardSize: bigint; readonly ttl?: TimeToLive | null }
  /** ALTER TABLE … SET TTL | DROP TTL (null). */
  | { readonly kind: 'TableSetTtl'; readonly name: string; readonly ttl: TimeToLive | null }
  /** DELETE: the rows of table `name` that `statement`, planned at `nowNs`, matches (storage/row-removal.ts). */
  | { readonly kind: 'RowsDelete'; readonly name: string; readonly statement: string; readonly nowNs: bigint; readonly id: string }
  /** TTL removal or retention by size: the shards of table `name` ending at or before `before` leave. */
  | { readonly kind: 'ShardsDrop'; readonly name: string; readonly before: bigint }
  /** Schema growth (ALTER TABLE … ADD COLUMN, ingest protocols): columns appended to a table. */
  | { readonly kind: 'TableAddColumns'; readonly name: string; readonly columns: readonly ColumnDef[] }
  | { readonly kind: 'TableInsert'; readonly name: string; readonly batch: NormalizedBatch }
  /**
   * CREATE MATERIALIZED VIEW (SPEC §15): view `name` over table `source`, keeping what the SELECT
   * text `select` answers; its rows' table has `columns` (bucket start as `$timestamp`, the GROUP
   * BY columns, one per aggregate). Its rows are computed by every node from its source, never logged.
   */
  | {
    readonly kind: 'ViewCreate'; readonly name: string; readonly source: string; readonly select: string;
    readonly columns: readonly ColumnDef[]; readonly shardSize: bigint; readonly ttl: TimeToLive | null;
  };

export type WalRecordKind = WalRecord['kind'];

const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false });

/**
 * Encodes a record as the chunks of one payload. A table insert is `[u32 meta length][meta]`
 * followed by the raw bytes of `$timestamp` and of each numeric column: those chunks are views of
 * the insert's own (engine-owned, never mutated) arrays, so bulk data is never copied before the
 * write.
 */
export function encodeRecord(record: WalRecord): Uint8Array[] {
  if (record.kind !== 'TableInsert') return [INLINE, packr.pack(record)];
  const { batch } = record;
  const chunks: Uint8Array[] = [bytes(batch.ts)];
  const columns = batch.columns.map((col) => {
    if (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP') {
      chunks.push(bytes(col.values));
      return { type: col.type, nulls: col.nulls };
    }
    return { type: col.type, values: col.values };
  });
  const meta = packr.pack({ kind: record.kind, name: record.name, rows: batch.ts.length, columns });
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32LE(meta.length, 0);
  return [head, meta, ...chunks];
}

/** First chunk of a record that is one msgpack value (no trailing binary columns). */
const INLINE = new Uint8Array([0, 0, 0, 0]);
/** First word of a payload holding several records: no record's meta is 4 GiB long. */
const GROUP = 0xffffffff;

/**
 * The records of one write as the chunks of one payload: a single record as encodeRecord gives
 * it, several as `[u32 GROUP][u32 count]` then `[u32 length][record]` each.
 */
export function encodeRecords(records: readonly WalRecord[]): Uint8Array[] {
  if (records.length === 1) return encodeRecord(records[0]);
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32LE(GROUP, 0);
  head.writeUInt32LE(records.length, 4);
  const out: Uint8Array[] = [head];
  for (const r of records) {
    const chunks = encodeRecord(r);
    const length = Buffer.allocUnsafe(4);
    length.writeUInt32LE(chunks.reduce((n, c) => n + c.length, 0), 0);
    out.push(length, ...chunks);
  }
  return out;
}

/**
 * Every record of one payload of encodeRecords, decoded before any is applied. The payload may be
 * in several chunks (a log entry's parts): read in place, each column copied once.
 */
export function decodeRecords(payload: Uint8Array | ByteChunks): WalRecord[] {
  const view = payload instanceof ByteChunks ? payload : new ByteChunks([payload]);
  if (view.length < 8 || view.u32(0) !== GROUP) return [decodeRecord(view)];
  const count = view.u32(4);
  const out: WalRecord[] = [];
  let at = 8;
  for (let k = 0; k < count; k++) {
    if (at + 4 > view.length) throw new Error(`record group ends inside record ${k} of ${count}`);
    const length = view.u32(at);
    if (at + 4 + length > view.length) throw new Error(`record ${k} of a group runs past its end`);
    out.push(decodeRecord(view.slice(at + 4, at + 4 + length)));
    at += 4 + length;
  }
  if (at !== view.length) throw new Error(`record group holds ${view.length - at} unexpected trailing bytes`);
  return out;
}

function decodeRecord(view: ByteChunks): WalRecord {
  const metaLength = view.u32(0);
  if (metaLength === 0) {
    const raw = packr.unpack(view.view(4, view.length)) as WalRecord;
    return raw.kind === 'BlobPut' ? { ...raw, data: new Uint8Array(raw.data) } : raw;
  }
  const meta = packr.unpack(view.view(4, 4 + metaLength)) as EncodedInsert;
  let at = 4 + metaLength;
  // Each column's bytes copied once, into a buffer of its own (aligned for its typed array).
  const take = (): ArrayBuffer => {
    if (at + meta.rows * 8 > view.length) throw new Error('insert record ends inside a column');
    const part = view.copy(at, at + meta.rows * 8);
    at += meta.rows * 8;
    return part;
  };
  const ts = new BigInt64Array(take());
  const columns = meta.columns.map((col): ColumnValues => {
    const nulls = col.nulls == null ? null : new Uint8Array(col.nulls);
    switch (col.type) {
      case 'DOUBLE':
        return { type: col.type, values: new Float64Array(take()), nulls };
      case 'INT64':
      case 'TIMESTAMP':
        return { type: col.type, values: new BigInt64Array(take()), nulls };
      case 'BLOB':
        return { type: col.type, values: (col.values as (Uint8Array | null)[]).map((v) => (v === null ? null : new Uint8Array(v))) };
      default:
        // STRING, SYMBOL and BOOLEAN lists travel as msgpack values.
        return { type: col.type, values: col.values } as ColumnValues;
    }
  });
  if (at !== view.length) throw new Error(`insert record holds ${view.length - at} unexpected trailing bytes`);
  return { kind: 'TableInsert', name: meta.name, batch: { ts, columns } };
}

interface EncodedInsert {
  readonly kind: 'TableInsert';
  readonly name: string;
  readonly rows: number;
  readonly columns: { type: ColumnValues['type']; nulls?: Uint8Array | null; values?: unknown[] }[];
}

function bytes(a: Float64Array | BigInt64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
