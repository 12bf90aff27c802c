// DuckDB as the peer, in this process and in memory: tables of `ts TIMESTAMP_NS` + DOUBLE
// columns filled through the appender with chunked appendDataChunk, and queries whose answers
// come back as named columns comparable with svc's. Two ways to fill a chunk: `bulk` copies each
// column slice into the chunk's vector with one memcpy (@duckdb/node-bindings copy_data_to_vector,
// the fastest path there is); `setItem` is the documented per-value vector API, then flush.
import { DOUBLE, DuckDBDataChunk, DuckDBInstance, TIMESTAMP_NS, timestampNanosValue } from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import bindings from '@duckdb/node-bindings';
import type { Answer, Value } from '../answer.js';
import type { InputBatch } from '../data.js';

export interface DuckPeer {
  readonly connection: DuckDBConnection;
  readonly threads: string;
  close(): void;
}

export type AppendMethod = 'bulk' | 'setItem';

/** A fresh in-memory DuckDB (default settings: as many threads as cores). */
export async function openDuck(): Promise<DuckPeer> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const threads = String((await connection.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0]);
  return {
    connection,
    threads,
    close: () => { connection.closeSync(); instance.closeSync(); },
  };
}

/** Creates `name(ts TIMESTAMP_NS, <columns> DOUBLE)`. */
export async function createDuckTable(connection: DuckDBConnection, name: string, columns: readonly string[]): Promise<void> {
  await connection.run(`CREATE OR REPLACE TABLE ${name} (ts TIMESTAMP_NS, ${columns.map((c) => `${c} DOUBLE`).join(', ')})`);
}

/**
 * Appends every batch through one appender, in chunks of DuckDB's vector size, then closes it.
 * Columns are DOUBLE unless `types` says otherwise (an 8-byte type such as BIGINT, for bulk copies).
 */
export async function appendBatches(
  connection: DuckDBConnection, table: string, columns: readonly string[], batches: readonly InputBatch[], method: AppendMethod, types: readonly DuckDBType[] = columns.map(() => DOUBLE),
): Promise<void> {
  const appender = await connection.createAppender(table);
  const chunkTypes = [TIMESTAMP_NS, ...types];
  const chunkRows = bindings.vector_size();
  const chunk = DuckDBDataChunk.create(chunkTypes);
  for (const batch of batches) {
    const arrays = [batch.$timestamp, ...columns.map((c) => batch[c])];
    const rows = arrays[0].length;
    for (let at = 0; at < rows; at += chunkRows) {
      const n = Math.min(chunkRows, rows - at);
      if (method === 'bulk') appendBulk(appender, chunk, arrays, at, n);
      else appendPerValue(appender, chunkTypes, arrays, at, n);
    }
  }
  appender.flushSync();
  appender.closeSync();
}

function appendBulk(appender: DuckDBAppender, chunk: DuckDBDataChunk, arrays: readonly (BigInt64Array | Float64Array)[], at: number, n: number): void {
  chunk.reset();
  bindings.data_chunk_set_size(chunk.chunk, n);
  for (let c = 0; c < arrays.length; c++) {
    const a = arrays[c];
    bindings.copy_data_to_vector(bindings.data_chunk_get_vector(chunk.chunk, c), 0, a.buffer as ArrayBuffer, a.byteOffset + at * 8, n * 8);
  }
  appender.appendDataChunk(chunk);
}

function appendPerValue(appender: DuckDBAppender, types: Parameters<typeof DuckDBDataChunk.create>[0], arrays: readonly (BigInt64Array | Float64Array)[], at: number, n: number): void {
  const chunk = DuckDBDataChunk.create(types, n);
  const ts = arrays[0] as BigInt64Array;
  const tsVector = chunk.getColumnVector(0);
  for (let i = 0; i < n; i++) tsVector.setItem(i, timestampNanosValue(ts[at + i]));
  tsVector.flush();
  for (let c = 1; c < arrays.length; c++) {
    const values = arrays[c] as Float64Array;
    const vector = chunk.getColumnVector(c);
    for (let i = 0; i < n; i++) vector.setItem(i, values[at + i]);
    vector.flush();
  }
  appender.appendDataChunk(chunk);
}

/** Runs `sql` and reads the whole result into JS (the timed part of a DuckDB query case). */
export function duckQuery(connection: DuckDBConnection, sql: string): Promise<unknown> {
  return connection.runAndReadAll(sql);
}

/** Runs `sql` and returns its columns by name, timestamps as int64 nanoseconds. */
export async function duckAnswer(connection: DuckDBConnection, sql: string): Promise<Answer> {
  const reader = await connection.runAndReadAll(sql);
  const names = reader.columnNames();
  const columns = reader.getColumns();
  const out: Answer = {};
  names.forEach((name, i) => { out[name] = columns[i].map(toValue); });
  return out;
}

function toValue(v: DuckDBValue): Value {
  if (v === null || typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'object' && 'nanos' in v && typeof v.nanos === 'bigint') return v.nanos;
  if (typeof v === 'object' && 'micros' in v && typeof v.micros === 'bigint') return v.micros * 1000n;
  throw new Error(`unexpected DuckDB value ${String(v)}`);
}
