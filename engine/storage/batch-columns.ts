// Reads a sealed batch back into plain columns. Only the rare rewrite path (late rows merged
// into sealed batches) uses it, so the per-value Arrow accessors for strings are acceptable here.
import type { ColumnValues } from './column-values.js';
import type { NormalizedBatch } from './batch-input.js';
import type { BatchView, ColumnDef } from '../types.js';

export function batchColumns(view: BatchView, schema: readonly ColumnDef[]): NormalizedBatch {
  const n = view.rowCount;
  const columns = schema.map((def, c): ColumnValues => {
    const vector = view.batch.getChildAt(c + 1)!;
    const data = vector.data[0];
    if (def.type === 'DOUBLE' || def.type === 'INT64' || def.type === 'TIMESTAMP') {
      let nulls: Uint8Array | null = null;
      if (data.nullCount > 0) {
        nulls = new Uint8Array(n);
        const bits = data.nullBitmap!;
        for (let i = 0; i < n; i++) nulls[i] = (bits[i >> 3] >> (i & 7)) & 1 ? 0 : 1;
      }
      return { type: def.type, values: (data.values as Float64Array).slice(0, n), nulls } as ColumnValues;
    }
    const values = (vector.toArray() as unknown[]).map((v) => (v === undefined ? null : v));
    return { type: def.type, values } as ColumnValues;
  });
  return { ts: view.ts.slice(0, n), columns };
}
