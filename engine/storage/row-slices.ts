// Views, concatenations and permutations of normalized rows, for merging late rows into sealed
// batches and sorting.
import type { NormalizedBatch } from './batch-input.js';
import { bits64, gather64, permuteColumn } from './column-values.js';
import type { ColumnValues } from './column-values.js';
import { scratchF64, scratchU32, scratchU8 } from './scratch.js';

/** Rows [start, end) of `rows` as views sharing its memory (lists are copied shallowly). */
export function sliceRows(rows: NormalizedBatch, start: number, end: number): NormalizedBatch {
  if (start === 0 && end === rows.ts.length) return rows;
  return { ts: rows.ts.subarray(start, end), columns: rows.columns.map((c) => sliceColumn(c, start, end)) };
}

function sliceColumn(col: ColumnValues, start: number, end: number): ColumnValues {
  switch (col.type) {
    case 'DOUBLE':
    case 'INT64':
    case 'TIMESTAMP':
      return { type: col.type, values: col.values.subarray(start, end), nulls: col.nulls?.subarray(start, end) ?? null } as ColumnValues;
    default:
      return { type: col.type, values: col.values.slice(start, end) } as ColumnValues;
  }
}

/** One run of rows holding `parts` in order, in fresh exact-size arrays (a single part is copied too). */
export function concatRows(parts: readonly NormalizedBatch[]): NormalizedBatch {
  let n = 0;
  for (const p of parts) n += p.ts.length;
  const ts = new BigInt64Array(n);
  let at = 0;
  for (const p of parts) { ts.set(p.ts, at); at += p.ts.length; }
  const columns = parts[0].columns.map((first, c): ColumnValues => {
    if (first.type === 'DOUBLE' || first.type === 'INT64' || first.type === 'TIMESTAMP') {
      const values = first.type === 'DOUBLE' ? new Float64Array(n) : new BigInt64Array(n);
      const hasNulls = parts.some((p) => (p.columns[c] as { nulls: Uint8Array | null }).nulls !== null);
      const nulls = hasNulls ? new Uint8Array(n) : null;
      let off = 0;
      for (const p of parts) {
        const col = p.columns[c] as { values: Float64Array; nulls: Uint8Array | null };
        (values as Float64Array).set(col.values, off);
        if (nulls !== null && col.nulls !== null) nulls.set(col.nulls, off);
        off += col.values.length;
      }
      return { type: first.type, values, nulls } as ColumnValues;
    }
    return { type: first.type, values: parts.flatMap((p) => p.columns[c].values as unknown[]) } as ColumnValues;
  });
  return { ts, columns };
}

/**
 * `rows` reordered by `perm` (perm[i] = source row of output row i), in fresh arrays. Large
 * numeric columns are scattered through the inverse permutation rather than gathered: reading a
 * column in order lets the hardware prefetch it, while a gather read it in random order from
 * memory last touched long before (a shard's tail, filled over a whole load), missing the cache
 * on almost every value. The random writes land in the fresh output, small enough to stay cached.
 */
export function permuteRows(rows: NormalizedBatch, perm: Uint32Array): NormalizedBatch {
  const n = rows.ts.length;
  if (n < SCATTER_ROWS) {
    const ts = new BigInt64Array(n);
    gather64(rows.ts, ts, perm, 0, n);
    return { ts, columns: rows.columns.map((c) => permuteColumn(c, perm, 0, n)) };
  }
  const inverse = scratchU32('permute.inverse', n);
  invert(perm, inverse);
  const ts = new BigInt64Array(n);
  scatter64(rows.ts, ts, inverse);
  const columns = rows.columns.map((c): ColumnValues => {
    if (c.type !== 'DOUBLE' && c.type !== 'INT64' && c.type !== 'TIMESTAMP') return permuteColumn(c, perm, 0, n);
    const values = c.type === 'DOUBLE' ? new Float64Array(n) : new BigInt64Array(n);
    scatter64(c.values, values, inverse);
    const nulls = c.nulls === null ? null : new Uint8Array(n);
    if (nulls !== null) for (let i = 0; i < n; i++) nulls[inverse[i]] = c.nulls![i];
    return { type: c.type, values, nulls } as ColumnValues;
  });
  return { ts, columns };
}

/** Rows from which permuteRows scatters instead of gathering (below, everything stays cached). */
const SCATTER_ROWS = 2048;

function invert(perm: Uint32Array, inverse: Uint32Array): void {
  for (let i = 0; i < perm.length; i++) inverse[perm[i]] = i;
}

/** dst[inverse[i]] = src[i], moved as float64 bits (see bits64). */
function scatter64(src: Float64Array | BigInt64Array, dst: Float64Array | BigInt64Array, inverse: Uint32Array): void {
  const from = bits64(src);
  const to = bits64(dst);
  for (let i = 0; i < inverse.length; i++) to[inverse[i]] = from[i];
}

/**
 * Reorders the first perm.length rows of each array in place by `perm` (perm[i] = source row of
 * row i): 64-bit columns as float64 bits, null masks, and lists. Each column is moved into a
 * reused scratch array and copied back in one block: scattering straight into a fresh output
 * faulted in new pages and missed the cache on its random writes, about twice the cost of the
 * scratch (warm, and small enough to stay cached) plus a sequential copy into memory already mapped.
 */
export function permuteInPlace(values: readonly Float64Array[], bytes: readonly Uint8Array[], lists: readonly unknown[][], perm: Uint32Array): void {
  const n = perm.length;
  const tmp = scratchF64('permute.values', n);
  if (n < SCATTER_ROWS) {
    for (const v of values) { gatherBits(v, tmp, perm); v.set(tmp); }
  } else {
    const inverse = scratchU32('permute.inverse', n);
    invert(perm, inverse);
    for (const v of values) { scatterBits(v, tmp, inverse); v.set(tmp); }
  }
  const tmpBytes = bytes.length === 0 ? null : scratchU8('permute.bytes', n);
  for (const b of bytes) { gatherBytes(b, tmpBytes!, perm); b.set(tmpBytes!); }
  for (const list of lists) {
    const from = list.slice(0, n);
    for (let i = 0; i < n; i++) list[i] = from[perm[i]];
  }
}

/** to[i] = from[perm[i]] for the rows of `perm`. */
function gatherBits(from: Float64Array, to: Float64Array, perm: Uint32Array): void {
  for (let i = 0; i < perm.length; i++) to[i] = from[perm[i]];
}

/** to[inverse[i]] = from[i] for the rows of `inverse`. */
function scatterBits(from: Float64Array, to: Float64Array, inverse: Uint32Array): void {
  for (let i = 0; i < inverse.length; i++) to[inverse[i]] = from[i];
}

/** to[i] = from[perm[i]] for the rows of `perm`. */
function gatherBytes(from: Uint8Array, to: Uint8Array, perm: Uint32Array): void {
  for (let i = 0; i < perm.length; i++) to[i] = from[perm[i]];
}
