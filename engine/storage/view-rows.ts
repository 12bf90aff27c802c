// Reads rows [lo, hi) of a sealed batch back as plain columns, the form the batch builder takes:
// what compaction merges. Numbers are views of the batch's own buffers (the merge copies them
// once, into its output); strings are decoded from the Arrow offsets, symbols looked up in the
// table dictionary, blobs copied. The batch's columns must be loaded. Nothing goes through Arrow's per-value accessors.
import { columnVector } from './column-vector.js';
import type { ColumnValues } from './column-values.js';
import type { NormalizedBatch } from './batch-input.js';
import type { SealedBatch } from './sealed-batch.js';
import type { ColumnDef } from '../types.js';
import { isValid } from '../types.js';

const decoder = new TextDecoder();

export function viewRows(view: SealedBatch, schema: readonly ColumnDef[], lo: number, hi: number): NormalizedBatch {
  const columns = schema.map((def, c): ColumnValues => {
    const col = columnVector(view, c + 1, def.type);
    if (col.type === 'DOUBLE' || col.type === 'INT64' || col.type === 'TIMESTAMP') {
      let nulls: Uint8Array | null = null;
      if (col.validity !== null) {
        nulls = new Uint8Array(hi - lo);
        for (let i = lo; i < hi; i++) nulls[i - lo] = isValid(col.validity, i) ? 0 : 1;
      }
      return { type: col.type, values: col.values.subarray(lo, hi), nulls } as ColumnValues;
    }
    const values: unknown[] = new Array(hi - lo);
    for (let i = lo; i < hi; i++) {
      let v: unknown = null;
      if (isValid(col.validity, i)) {
        if (col.type === 'SYMBOL') v = col.dictionary[col.indices[i]];
        else if (col.type === 'BOOLEAN') v = (col.values[i >> 3] & (1 << (i & 7))) !== 0;
        else if (col.type === 'STRING' || col.type === 'BLOB') {
          const bytes = col.data.subarray(col.offsets[i], col.offsets[i + 1]);
          v = col.type === 'STRING' ? decoder.decode(bytes) : bytes.slice();
        }
      }
      values[i - lo] = v;
    }
    return { type: def.type, values } as ColumnValues;
  });
  return { ts: view.ts.subarray(lo, hi), columns };
}
