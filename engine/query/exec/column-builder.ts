// Growable output columns. Operators append the values of a Vec at some rows (in the order the
// rows are listed, which may be a permutation); `build` applies the final row order and hands out
// the plain arrays of a ResultColumn. int64 values are copied through their 32-bit halves.
import type { ValueType } from '../plan/plan-expr.js';
import { scalarAt } from './scalars.js';
import type { Rows, Vec } from './vec.js';
import { int64Halves, isValidAt } from './vec.js';

type Storage = 'f64' | 'i64' | 'text' | 'bytes';

export class ColumnBuilder {
  length = 0;
  private readonly storage: Storage;
  private f64 = new Float64Array(0);
  private i64 = new BigInt64Array(0);
  private readonly list: (string | Uint8Array | null)[] = [];
  private nulls = new Uint8Array(0);
  private nullCount = 0;

  constructor(readonly type: ValueType) {
    this.storage = type === 'double' || type === 'null' ? 'f64' : type === 'int64' || type === 'timestamp' ? 'i64'
      : type === 'blob' ? 'bytes' : 'text';
  }

  /** Appends the values of `vec` at `rows`. */
  append(vec: Vec, rows: Rows): void {
    const n = rows.hi - rows.lo;
    this.reserve(this.length + n);
    const { sel, lo, hi } = rows;
    let at = this.length;
    if (this.storage === 'f64' && vec.kind === 'f64') {
      for (let k = lo; k < hi; k++, at++) {
        const i = sel === null ? k : sel[k];
        this.f64[at] = vec.values[i];
        if (!isValidAt(vec.validity, i)) this.markNull(at);
      }
    } else if (this.storage === 'i64' && vec.kind === 'i64') {
      const dst = int64Halves(this.i64);
      for (let k = lo; k < hi; k++, at++) {
        const i = sel === null ? k : sel[k];
        dst.lo[at << 1] = vec.lo[i << 1];
        dst.hi[(at << 1) | 1] = vec.hi[(i << 1) | 1];
        if (!isValidAt(vec.validity, i)) this.markNull(at);
      }
    } else {
      const isText = this.storage === 'text';
      for (let k = lo; k < hi; k++, at++) this.put(at, scalarAt(vec, sel === null ? k : sel[k], isText));
    }
    this.length += n;
  }

  private put(at: number, v: unknown): void {
    if (v === null || typeof v === 'boolean') { this.markNull(at); return; }
    if (this.storage === 'f64') this.f64[at] = Number(v);
    else if (this.storage === 'i64') this.i64[at] = v as bigint;
    else this.list[at] = v as string | Uint8Array;
  }

  private markNull(at: number): void {
    this.nulls[at] = 1;
    this.nullCount++;
  }

  private reserve(n: number): void {
    if (n <= this.nulls.length) return;
    const size = Math.max(n, this.nulls.length * 2, 64);
    const nulls = new Uint8Array(size);
    nulls.set(this.nulls.subarray(0, this.length));
    this.nulls = nulls;
    if (this.storage === 'f64') { const a = new Float64Array(size); a.set(this.f64.subarray(0, this.length)); this.f64 = a; }
    if (this.storage === 'i64') { const a = new BigInt64Array(size); a.set(this.i64.subarray(0, this.length)); this.i64 = a; }
    if (this.storage === 'text' || this.storage === 'bytes') while (this.list.length < size) this.list.push(null);
  }

  isNull(i: number): boolean {
    return this.nulls[i] === 1;
  }

  /** Raw access for sorting: doubles, int64 halves, or JS values. */
  get doubles(): Float64Array { return this.f64; }
  get int64s(): BigInt64Array { return this.i64; }
  get values(): readonly (string | Uint8Array | null)[] { return this.list; }
  get kind(): Storage { return this.storage; }

  /** The rows `order[0..count)` as plain arrays; `isAllNull` when no kept row has a value. */
  build(order: Int32Array | null, count: number): {
    values: Float64Array | BigInt64Array | (string | null)[] | (Uint8Array | null)[]; nulls: Uint8Array | null; isAllNull: boolean;
  } {
    const at = (k: number): number => (order === null ? k : order[k]);
    let nulls: Uint8Array | null = null;
    let nullRows = 0;
    if (this.nullCount > 0) {
      nulls = new Uint8Array(count);
      for (let k = 0; k < count; k++) { nulls[k] = this.nulls[at(k)]; nullRows += nulls[k]; }
      if (nullRows === 0) nulls = null;
    }
    const isAllNull = count > 0 && nullRows === count;
    if (this.storage === 'f64') {
      const out = new Float64Array(count);
      for (let k = 0; k < count; k++) out[k] = this.f64[at(k)];
      return { values: out, nulls, isAllNull };
    }
    if (this.storage === 'i64') {
      const out = new BigInt64Array(count);
      if (order === null) out.set(this.i64.subarray(0, count));
      else {
        const src = int64Halves(this.i64);
        const dst = int64Halves(out);
        for (let k = 0; k < count; k++) { const i = order[k]; dst.lo[k << 1] = src.lo[i << 1]; dst.hi[(k << 1) | 1] = src.hi[(i << 1) | 1]; }
      }
      return { values: out, nulls, isAllNull };
    }
    const out: (string | Uint8Array | null)[] = new Array(count);
    for (let k = 0; k < count; k++) { const i = at(k); out[k] = this.nulls[i] === 1 ? null : this.list[i]; }
    return { values: out as (string | null)[], nulls, isAllNull };
  }
}
