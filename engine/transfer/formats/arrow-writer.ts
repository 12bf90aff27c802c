// The Arrow IPC stream of an export: the schema, one record batch per chunk, the end-of-stream
// marker — what pyarrow's `ipc.open_stream`, Polars and DuckDB's arrow extension read. Columns
// are built by arrow-columns.ts straight from the chunk's typed arrays; a SYMBOL column is a
// Dictionary<Utf8, Int32> whose dictionary each batch replaces (allowed in a stream). The writer's
// pieces are packed into ~64 KiB chunks (ipc-pieces.ts) without copying the large ones.
import { makeData, RecordBatch, RecordBatchStreamWriter, Schema, Struct } from 'apache-arrow';
import { resultColumn } from '../arrow-columns.js';
import type { ExportChunk, ExportSchema } from '../export-schema.js';
import { packPieces, PieceSink } from '../ipc-pieces.js';
import type { FormatWriter } from './format-writer.js';

export function arrowWriter(schema: ExportSchema): FormatWriter {
  const sink = new PieceSink();
  const writer = new RecordBatchStreamWriter();
  const metadata = new Map(schema.table === null ? [] : [['table', schema.table]]);
  let arrowSchema: Schema | null = null;
  const batchOf = (chunk: ExportChunk): RecordBatch => {
    const n = chunk.rowCount;
    const columns = chunk.columns.map((c) => resultColumn(c, n));
    arrowSchema ??= new Schema(columns.map((c) => c.field), metadata);
    return new RecordBatch(arrowSchema, makeData({ type: new Struct(arrowSchema.fields), length: n, nullCount: 0, children: columns.map((c) => c.data) }));
  };
  const empty = (): ExportChunk => ({
    rowCount: 0,
    columns: schema.columns.map((c) => ({ name: c.name, type: c.type, values: emptyValues(c.type), nulls: null })),
  });
  // The schema message goes out with the first batch (its field types come from the columns).
  let hasStarted = false;
  return {
    begin: () => [],
    write: (chunk) => {
      const batch = batchOf(chunk);
      if (!hasStarted) { writer.reset(sink, batch.schema); hasStarted = true; }
      writer.write(batch);
      return packPieces(sink.take());
    },
    end: () => {
      if (!hasStarted) { writer.reset(sink, batchOf(empty()).schema); hasStarted = true; }
      writer.finish();
      return packPieces(sink.take());
    },
  };
}

function emptyValues(type: ExportChunk['columns'][number]['type']): Float64Array | BigInt64Array | never[] {
  if (type === 'double' || type === 'boolean') return new Float64Array(0);
  if (type === 'int64' || type === 'count' || type === 'timestamp') return new BigInt64Array(0);
  return [];
}
