// The mutable tail of a shard: rows appended since the last seal, in arrival order, held in
// growable typed arrays. Sealing sorts it (stably) into plain columns for an immutable batch.
import { permuteColumn } from './column-values.js';
import type { ColumnValues } from './column-values.js';
import { sortPermutation } from './batch-input.js';
import type { NormalizedBatch } from './batch-input.js';
import type { ColumnDef } from './types.js';

type Growable =
  | { kind: 'f64'; values: Float64Array; nulls: Uint8Array | null }
  | { kind: 'i64'; values: BigInt64Array; nulls: Uint8Array | null }
  | { kind: 'list'; values: unknown[] };

const INITIAL_CAPACITY = 1024;

export class Tail {
  length = 0;
  private capacity = INITIAL_CAPACITY;
  private ts = new BigInt64Array(INITIAL_CAPACITY);
  private readonly cols: Growable[];
  /** True while every appended timestamp is >= the one before: sealing then needs no sort. */
  private isSorted = true;

  constructor(private readonly schema: readonly ColumnDef[]) {
    this.cols = schema.map((c) => newGrowable(c, INITIAL_CAPACITY));
  }

  get minTs(): bigint {
    return this.isSorted ? this.ts[0] : this.ts.subarray(0, this.length).reduce((a, b) => (b < a ? b : a));
  }

  /** Appends rows [start, end) of a timestamp-sorted batch. */
  append(batch: NormalizedBatch, start: number, end: number): void {
    const n = end - start;
    if (n <= 0) return;
    this.reserve(this.length + n);
    if (this.length > 0 && batch.ts[start] < this.ts[this.length - 1]) this.isSorted = false;
    this.ts.set(batch.ts.subarray(start, end), this.length);
    for (let c = 0; c < this.cols.length; c++) appendColumn(this.cols[c], batch.columns[c], start, end, this.length);
    this.length += n;
  }

  /** The tail's rows sorted by timestamp (ties in arrival order), as exact-size copies. */
  sorted(): NormalizedBatch {
    const n = this.length;
    const raw = this.ts.subarray(0, n);
    const perm = this.isSorted ? null : sortPermutation(raw);
    const ts = new BigInt64Array(n);
    if (perm === null) ts.set(raw);
    else for (let i = 0; i < n; i++) ts[i] = raw[perm[i]];
    const columns = this.cols.map((g, c) => permuteColumn(asColumn(g, this.schema[c], n), perm, 0, n));
    return { ts, columns };
  }

  clear(): void {
    this.length = 0;
    this.isSorted = true;
    this.capacity = INITIAL_CAPACITY;
    this.ts = new BigInt64Array(INITIAL_CAPACITY);
    for (let c = 0; c < this.cols.length; c++) this.cols[c] = newGrowable(this.schema[c], INITIAL_CAPACITY);
  }

  private reserve(size: number): void {
    if (size <= this.capacity) return;
    let capacity = this.capacity * 2;
    while (capacity < size) capacity *= 2;
    this.ts = grow(this.ts, capacity);
    for (const g of this.cols) {
      if (g.kind === 'list') continue;
      g.values = grow(g.values as Float64Array, capacity) as never;
      if (g.nulls !== null) g.nulls = grow(g.nulls, capacity);
    }
    this.capacity = capacity;
  }
}

function newGrowable(def: ColumnDef, capacity: number): Growable {
  switch (def.type) {
    case 'DOUBLE': return { kind: 'f64', values: new Float64Array(capacity), nulls: null };
    case 'INT64':
    case 'TIMESTAMP': return { kind: 'i64', values: new BigInt64Array(capacity), nulls: null };
    default: return { kind: 'list', values: [] };
  }
}

function grow<T extends Float64Array | BigInt64Array | Uint8Array>(a: T, capacity: number): T {
  const b = new (a.constructor as new (n: number) => T)(capacity);
  b.set(a as never);
  return b;
}

function appendColumn(g: Growable, col: ColumnValues, start: number, end: number, at: number): void {
  if (g.kind === 'list') {
    const values = col.values as readonly unknown[];
    for (let i = start; i < end; i++) g.values.push(values[i]);
    return;
  }
  const src = col as { values: Float64Array; nulls: Uint8Array | null };
  (g.values as Float64Array).set(src.values.subarray(start, end), at);
  if (src.nulls !== null) {
    g.nulls ??= new Uint8Array(g.values.length);
    g.nulls.set(src.nulls.subarray(start, end), at);
  } else if (g.nulls !== null) {
    g.nulls.fill(0, at, at + end - start);
  }
}

function asColumn(g: Growable, def: ColumnDef, n: number): ColumnValues {
  if (g.kind === 'list') return { type: def.type, values: g.values.slice(0, n) } as ColumnValues;
  return { type: def.type, values: g.values.subarray(0, n), nulls: g.nulls === null ? null : g.nulls.subarray(0, n) } as ColumnValues;
}
