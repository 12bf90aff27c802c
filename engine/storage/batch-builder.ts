// Turns sorted plain columns into an immutable Arrow RecordBatch plus its statistics. The typed
// arrays are handed to Arrow without copying; strings and blobs are packed into offset buffers.
import { makeData, RecordBatch, Struct, vectorFromArray } from 'apache-arrow';
import type { Data, Schema } from 'apache-arrow';
import { columnStats, timestampStats } from './batch-stats.js';
import type { ColumnValues } from './column-values.js';
import type { SymbolDictionary } from './symbol-dictionary.js';
import type { BatchView } from '../types.js';

/**
 * Builds a batch from `ts` (sorted ascending) and one ColumnValues per schema column.
 * `dictionaries[c]` is the table-wide dictionary of SYMBOL column c (null for other types).
 */
export function buildBatch(
  schema: Schema, ts: BigInt64Array, columns: readonly ColumnValues[], dictionaries: readonly (SymbolDictionary | null)[],
): BatchView {
  const n = ts.length;
  const fields = schema.fields;
  const children: Data[] = [makeData({ type: fields[0].type, length: n, nullCount: 0, data: ts })];
  const stats = [timestampStats(ts)];
  for (let c = 0; c < columns.length; c++) {
    const s = columnStats(columns[c], n);
    stats.push(s);
    children.push(columnData(fields[c + 1].type, columns[c], n, s.nullCount, dictionaries[c]));
  }
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: n, nullCount: 0, children }));
  return { batch, ts, rowCount: n, minTs: ts[0], maxTs: ts[n - 1], stats };
}

/** Rebuilds the view of a batch loaded from a checkpoint, with its stored statistics. */
export function viewOfBatch(batch: RecordBatch, stats: BatchView['stats']): BatchView {
  const ts = batch.data.children[0].values as BigInt64Array;
  return { batch, ts, rowCount: batch.numRows, minTs: ts[0], maxTs: ts[batch.numRows - 1], stats };
}

/** One column's Arrow data (`nullCount` of its rows null; `dictionary` for SYMBOL columns). */
export function columnData(
  type: Schema['fields'][number]['type'], col: ColumnValues, n: number, nullCount: number, dictionary: SymbolDictionary | null,
): Data {
  switch (col.type) {
    case 'DOUBLE':
    case 'INT64':
    case 'TIMESTAMP':
      return makeData({ type, length: n, nullCount, data: col.values as never, nullBitmap: bitmap(col.nulls, n, nullCount) });
    case 'STRING':
    case 'BLOB':
      return vectorFromArray(col.values as never[], type).data[0];
    case 'BOOLEAN': {
      const bits = new Uint8Array(((n + 63) >> 6) << 3);
      const nulls = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = col.values[i];
        if (v === null) nulls[i] = 1;
        else if (v) bits[i >> 3] |= 1 << (i & 7);
      }
      return makeData({ type: type as never, length: n, nullCount, data: bits, nullBitmap: bitmap(nulls, n, nullCount) } as never);
    }
    case 'SYMBOL': {
      const indices = new Int32Array(n);
      const nulls = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = col.values[i];
        if (v === null) nulls[i] = 1;
        else indices[i] = dictionary!.idOf(v);
      }
      return makeData({
        type: type as never, length: n, nullCount, data: indices, nullBitmap: bitmap(nulls, n, nullCount),
        dictionary: dictionary!.toVector(),
      } as never);
    }
  }
}

/** Arrow validity bitmap (bit set = valid) from a byte-per-row null mask. */
function bitmap(nulls: Uint8Array | null, n: number, nullCount: number): Uint8Array | undefined {
  if (nulls === null || nullCount === 0) return undefined;
  const bits = new Uint8Array(((n + 63) >> 6) << 3);
  for (let i = 0; i < n; i++) if (nulls[i] === 0) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}
