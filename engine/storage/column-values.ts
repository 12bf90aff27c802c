// Plain column arrays as the storage layer holds them before they become an Arrow batch:
// numbers in typed arrays with an optional null mask (1 byte per row, 1 = null), strings and
// blobs as JS arrays with null entries, booleans too (true/false/null: few columns are boolean,
// and the tail's list paths then carry them as they are). The tail, the WAL and the batch builder
// all speak this; sealed batches hold booleans bit-packed (Arrow Bool).
import type { ColumnType } from '../types.js';

export type ColumnValues =
  | { readonly type: 'DOUBLE'; readonly values: Float64Array; readonly nulls: Uint8Array | null }
  | { readonly type: 'INT64' | 'TIMESTAMP'; readonly values: BigInt64Array; readonly nulls: Uint8Array | null }
  | { readonly type: 'STRING' | 'SYMBOL'; readonly values: readonly (string | null)[] }
  | { readonly type: 'BLOB'; readonly values: readonly (Uint8Array | null)[] }
  | { readonly type: 'BOOLEAN'; readonly values: readonly (boolean | null)[] };

/** An all-null column of `length` rows. */
export function nullColumn(type: ColumnType, length: number): ColumnValues {
  switch (type) {
    case 'DOUBLE':
      return { type, values: new Float64Array(length), nulls: new Uint8Array(length).fill(1) };
    case 'INT64':
    case 'TIMESTAMP':
      return { type, values: new BigInt64Array(length), nulls: new Uint8Array(length).fill(1) };
    case 'STRING':
    case 'SYMBOL':
      return { type, values: new Array<string | null>(length).fill(null) };
    case 'BLOB':
      return { type, values: new Array<Uint8Array | null>(length).fill(null) };
    case 'BOOLEAN':
      return { type, values: new Array<boolean | null>(length).fill(null) };
  }
}

/** Rows of `col` reordered by `perm` (perm[i] = source row of output row i), or copied when null. */
export function permuteColumn(col: ColumnValues, perm: Uint32Array | null, start: number, end: number): ColumnValues {
  const n = end - start;
  switch (col.type) {
    case 'DOUBLE':
    case 'INT64':
    case 'TIMESTAMP': {
      const values = col.values.constructor === Float64Array ? new Float64Array(n) : new BigInt64Array(n);
      const nulls = col.nulls === null ? null : new Uint8Array(n);
      if (perm === null) {
        (values as Float64Array).set((col.values as Float64Array).subarray(start, end));
        if (nulls !== null) nulls.set(col.nulls!.subarray(start, end));
      } else {
        gather64(col.values, values, perm, start, n);
        if (nulls !== null) for (let i = 0; i < n; i++) nulls[i] = col.nulls![perm[start + i]];
      }
      return { type: col.type, values, nulls } as ColumnValues;
    }
    case 'STRING':
    case 'SYMBOL':
    case 'BLOB':
    case 'BOOLEAN': {
      const out = new Array(n);
      if (perm === null) for (let i = 0; i < n; i++) out[i] = col.values[start + i];
      else for (let i = 0; i < n; i++) out[i] = col.values[perm[start + i]];
      return { type: col.type, values: out } as ColumnValues;
    }
  }
}

/** dst[i] = src[perm[start + i]] for 64-bit elements, moved as float64 bits (see bits64). */
export function gather64(src: Float64Array | BigInt64Array, dst: Float64Array | BigInt64Array, perm: Uint32Array, start: number, n: number): void {
  const from = bits64(src);
  const to = bits64(dst);
  for (let i = 0; i < n; i++) to[i] = from[perm[start + i]];
}

/**
 * The 64-bit values of `values` as float64s, to move them without a BigInt each. V8 keeps a
 * double's bits moving it from one Float64Array to another, NaN payloads included, in every tier
 * (only storing into a JS array rewrites them); column-bits.test.ts holds it to that.
 */
export function bits64(values: Float64Array | BigInt64Array): Float64Array {
  return values instanceof Float64Array ? values : new Float64Array(values.buffer, values.byteOffset, values.length);
}
