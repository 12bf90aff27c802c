// Turns sorted plain columns into an immutable sealed batch (Arrow column data plus statistics).
// The typed arrays are handed to Arrow without copying; strings and blobs are packed into offset
// buffers; SYMBOL values become indexes into the table's dictionary. When the budget's memory is
// shared (a database with worker threads: memory/memory-budget.ts), the fixed-width buffers of
// a sealed batch — values, codes, bits and validity — lie in SharedArrayBuffers, copied there
// once at seal, so workers scan them where they lie; a tail's passing view is not shared.
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
  const memory = !isTailView && layout.budget.isShared ? SHARED : PLAIN;
  const children: Data[] = [makeData({ type: fields[0].type, length: n, nullCount: 0, data: memory.of(ts) })];
  const stats = [timestampStats(ts)];
  for (let c = 0; c < columns.length; c++) {
    const s = columnStats(columns[c], ts);
    stats.push(s);
    children.push(columnData(fields[c + 1].type, columns[c], n, s.nullCount, layout.dictionaries[c], memory));
  }
  return new SealedBatch(layout, n, ts[0], ts[n - 1], stats, children, isTailView ? null : layout.budget);
}

/** One column's Arrow data (`nullCount` of its rows null; `dictionary` for SYMBOL columns). */
export function columnData(
  type: Schema['fields'][number]['type'], col: ColumnValues, n: number, nullCount: number, dictionary: SymbolDictionary | null, memory: Memory = PLAIN,
): Data {
  switch (col.type) {
    case 'DOUBLE':
    case 'INT64':
    case 'TIMESTAMP':
      return makeData({ type, length: n, nullCount, data: memory.of(col.values) as never, nullBitmap: bitmap(col.nulls, n, nullCount, memory) });
    case 'STRING':
    case 'BLOB':
      return vectorFromArray(col.values as never[], type).data[0];
    case 'BOOLEAN': {
      const bits = memory.bytes(((n + 63) >> 6) << 3);
      const nulls = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = col.values[i];
        if (v === null) nulls[i] = 1;
        else if (v) bits[i >> 3] |= 1 << (i & 7);
      }
      return makeData({ type: type as never, length: n, nullCount, data: bits, nullBitmap: bitmap(nulls, n, nullCount, memory) } as never);
    }
    case 'SYMBOL': {
      const indices = new Int32Array(memory.buffer(4 * n));
      const nulls = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = col.values[i];
        if (v === null) nulls[i] = 1;
        else indices[i] = dictionary!.idOf(v);
      }
      return makeData({
        type: type as never, length: n, nullCount, data: indices, nullBitmap: bitmap(nulls, n, nullCount, memory),
        dictionary: dictionary!.toVector(),
      } as never);
    }
  }
}

/** Arrow validity bitmap (bit set = valid) from a byte-per-row null mask. */
function bitmap(nulls: Uint8Array | null, n: number, nullCount: number, memory: Memory): Uint8Array | undefined {
  if (nulls === null || nullCount === 0) return undefined;
  const bits = memory.bytes(((n + 63) >> 6) << 3);
  for (let i = 0; i < n; i++) if (nulls[i] === 0) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}

/** Where a batch's fixed-width buffers are made: plain memory, or shared with worker threads. */
interface Memory {
  buffer(bytes: number): ArrayBuffer | SharedArrayBuffer;
  bytes(n: number): Uint8Array;
  /** `values` in this memory: itself when it already is, else a copy. */
  of<T extends Float64Array | BigInt64Array>(values: T): T;
}

const PLAIN: Memory = {
  buffer: (bytes) => new ArrayBuffer(bytes),
  bytes: (n) => new Uint8Array(n),
  of: (values) => values,
};

const SHARED: Memory = {
  buffer: (bytes) => new SharedArrayBuffer(bytes),
  bytes: (n) => new Uint8Array(new SharedArrayBuffer(n)),
  of: <T extends Float64Array | BigInt64Array>(values: T): T => {
    if (values.buffer instanceof SharedArrayBuffer) return values;
    const copy = new (values.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(values.byteLength));
    copy.set(values as never);
    return copy;
  },
};
