// The Arrow IPC stream answer (SPEC §7, `Accept: application/vnd.apache.arrow.stream`).
//
// Layout decision: one complete IPC stream (schema, one record batch, end-of-stream marker) per
// result table, written back to back. Tables of one result may have different columns (FROM a, b
// over different schemas), an IPC stream has exactly one schema, and the table's name belongs in
// that schema's metadata (`table`) — so each table gets its own stream. A one-table result (the
// usual case) is a plain single stream that pandas / Polars / pyarrow (`ipc.open_stream`) read
// directly; for several tables, apache-arrow's `RecordBatchReader.readAll` yields one reader per
// table and pyarrow reads the next stream from the same input after each EOS.
// Each stream: `timestamp` (Timestamp ns UTC, nullable) first, then the selected columns.
// A result without tables (no rows; CREATE/DROP/INSERT) is one stream with only the `timestamp`
// field and no batch. A standalone find(...) is one stream with a Utf8 column `alias`.
//
// Chunks: the writer's pieces are collected and packed by the engine's ipc-pieces.ts (body
// buffers, views of the result's own typed arrays, are not copied). Tables are converted one at a time.
import { Field, makeData, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Utf8 } from 'apache-arrow';
import type { QueryResult, ResultTable } from '../../engine/index.js';
import { packPieces, PieceSink, resultColumn, rowTimeColumn } from '../../engine/index.js';

export const ARROW_STREAM_MIME = 'application/vnd.apache.arrow.stream';

export function* encodeArrowStream(result: QueryResult): Generator<Uint8Array, void, undefined> {
  if (result.kind === 'find') {
    const batch = findBatch(result.aliases ?? []);
    yield* streamBytes(batch.schema, [batch]);
    return;
  }
  const tables = result.kind === 'ok' ? [] : result.tables;
  if (tables.length === 0) {
    yield* streamBytes(new Schema([rowTimeColumn(new BigInt64Array(0), null, 0).field]), []);
    return;
  }
  for (const table of tables) {
    const batch = tableBatch(table);
    yield* streamBytes(batch.schema, [batch]);
  }
}

function tableBatch(table: ResultTable): RecordBatch {
  const n = table.rowCount;
  const columns = [rowTimeColumn(table.timestamps, table.timestampNulls, n), ...table.columns.map((c) => resultColumn(c, n))];
  const schema = new Schema(columns.map((c) => c.field), new Map([['table', table.name]]));
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: columns.map((c) => c.data) }));
}

function findBatch(aliases: readonly string[]): RecordBatch {
  const schema = new Schema([new Field('alias', new Utf8(), false)]);
  const column = resultColumn({ name: 'alias', type: 'string', values: [...aliases], nulls: null }, aliases.length);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: aliases.length, nullCount: 0, children: [column.data] }));
}

/** One IPC stream: schema, the batches, end-of-stream; as ~64 KiB chunks. */
function* streamBytes(schema: Schema, batches: readonly RecordBatch[]): Generator<Uint8Array, void, undefined> {
  const sink = new PieceSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  for (const b of batches) writer.write(b);
  writer.finish();
  yield* packPieces(sink.take());
}
