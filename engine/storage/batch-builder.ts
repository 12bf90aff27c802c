// Turns sorted plain columns into an immutable sealed batch (Arrow column data plus statistics).
// The typed arrays are handed to Arrow without copying; strings and blobs are packed into offset
// buffers; SYMBOL values become indexes into the table's dictionary.
import { makeData, vectorFromArray } from 'apache-arrow';
import type { Data, Schema } from 'apache-arrow';
import { columnStats, timestampStats } from './batch-stats.js';
import type { ColumnValues } from './column-values.js';
import { SealedBatch } from './sealed-batch.js';
import type { SymbolDictionary } from './symbol-dictionary.js';
import type { TableLayout } from './table-layout.js';

/**
 * A batch of `layout`'s table from `ts` (sorted ascending) and one ColumnValues per schema
 * column, counted in the table's memory budget — unless `isTailView`: a tail's sorted view,
 * whose memory the tail counts.
 */
export function buildBatch(layout: TableLayout, ts: BigInt64Array, columns: readonly ColumnValues[], isTailView = false): SealedBatch {
  const n = ts.length;
  const fields = layout.schema.fields;
  const children: Data[] = [makeData({ type: fields[0].type, length: n, nullCount: 0, data: ts })];
  const stats = [timestampStats(ts)];
  for (let c = 0; c < columns.length; c++) {
    const s = columnStats(columns[c], ts);
    stats.push(s);
    children.push(columnData(fields[c + 1].type, columns[c], n, s.nullCount, layout.dictionaries[c]));
  }
  return new SealedBatch(layout, n, ts[0], ts[n - 1], stats, children, isTailView ? null : layout.budget);
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
