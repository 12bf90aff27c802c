// Growable output columns. Operators append the values of a Vec at some rows (in the order the
// rows are listed, which may be a permutation); `build` applies the final row order and hands out
// the plain arrays of a ResultColumn. Plain ranges of doubles and int64 are copied in bulk
// (`TypedArray.set`, no BigInt per value); a permutation copies int64 through 32-bit halves. The
// null flags exist only once a null arrives.
import type { ValueType } from '../../plan/value-type.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { int64Halves } from '../../vector/vec.js';

type Storage = 'f64' | 'i64' | 'text' | 'bytes';

// Shared empty arrays until the first append: a typed array costs an allocation even when empty.
const NO_F64 = new Float64Array(0);
const NO_I64 = new BigInt64Array(0);
/** Above this, each column gets its own buffer (one huge allocation is harder to satisfy). */
const MAX_SHARED_BYTES = 1 << 20;

export class ColumnBuilder {
  length = 0;
  private readonly storage: Storage;
  private capacity = 0;
  private f64 = NO_F64;
  private i64 = NO_I64;
  private readonly list: (string | Uint8Array | null)[] = [];
  /** Null flags by row; null until the first null. */
  private nulls: Uint8Array | null = null;
  private nullCount = 0;

  constructor(readonly type: ValueType) {
    this.storage = type === 'double' || type === 'boolean' || type === 'null' ? 'f64' : type === 'int64' || type === 'timestamp' ? 'i64'
      : type === 'blob' ? 'bytes' : 'text';
  }

  /** Appends the values of `vec` at `rows`. */
  append(vec: Vec, rows: Rows): void {
    const n = rows.hi - rows.lo;
    if (n <= 0) return;
    this.reserve(this.length + n);
    const { sel, lo, hi } = rows;
    const start = this.length;
    if (this.storage === 'f64' && vec.kind === 'f64') {
      const src = vec.values;
      if (sel === null) this.f64.set(src.subarray(lo, hi), start);
      else {
        const dst = this.f64;
        for (let k = lo, at = start; k < hi; k++, at++) dst[at] = src[sel[k]];
      }
      if (vec.validity !== null) this.markNulls(vec.validity, rows, start);
    } else if (this.storage === 'i64' && vec.kind === 'i64') {
      if (sel === null) this.i64.set(vec.values.subarray(lo, hi), start);
      else {
        const dst = int64Halves(this.i64);
        const sl = vec.lo;
        const sh = vec.hi;
        for (let k = lo, at = start; k < hi; k++, at++) {
          const i = sel[k];
          dst.lo[at << 1] = sl[i << 1];
          dst.hi[(at << 1) | 1] = sh[(i << 1) | 1];
        }
      }
      if (vec.validity !== null) this.markNulls(vec.validity, rows, start);
    } else {
      const isText = this.storage === 'text';
      for (let k = lo, at = start; k < hi; k++, at++) this.put(at, scalarAt(vec, sel === null ? k : sel[k], isText));
    }
    this.length += n;
  }

  private markNulls(validity: Uint8Array, rows: Rows, start: number): void {
    const { sel, lo, hi } = rows;
    for (let k = lo, at = start; k < hi; k++, at++) {
      const i = sel === null ? k : sel[k];
      if (((validity[i >> 3] >> (i & 7)) & 1) === 0) this.markNull(at);
    }
  }

  private put(at: number, v: unknown): void {
    if (v === null || typeof v === 'boolean') { this.markNull(at); return; }
    if (this.storage === 'f64') this.f64[at] = Number(v);
    else if (this.storage === 'i64') this.i64[at] = v as bigint;
    else this.list[at] = v as string | Uint8Array;
  }

  /**
   * Row `at` is null; its value slot is zeroed: kernels leave whatever their (reused) scratch
   * held at null positions, and an answer must not depend on what ran before it.
   */
  private markNull(at: number): void {
    if (this.storage === 'f64') this.f64[at] = 0;
    else if (this.storage === 'i64') this.i64[at] = 0n;
    this.nulls ??= new Uint8Array(this.capacity);
    this.nulls[at] = 1;
    this.nullCount++;
  }

  /**
   * Gives the typed-array builders room for `rows` rows up front (no doubling), small results in
   * one shared ArrayBuffer: one allocation instead of one per column, which is most of the cost
   * of a small result (LIMIT 1000). When exactly `rows` rows arrive, the built arrays are those
   * views (result.ts: arrays may share a buffer). Call before any append.
   */
  static preallocate(builders: readonly ColumnBuilder[], rows: number): void {
    const fixed = builders.filter((b) => b.storage === 'f64' || b.storage === 'i64');
    if (rows <= 0 || fixed.length === 0) return;
    const isShared = 8 * rows * fixed.length <= MAX_SHARED_BYTES;
    const shared = isShared ? new ArrayBuffer(8 * rows * fixed.length) : null;
    fixed.forEach((b, i) => {
      const buffer = shared ?? new ArrayBuffer(8 * rows);
      const at = isShared ? 8 * rows * i : 0;
      if (b.storage === 'f64') b.f64 = new Float64Array(buffer, at, rows);
      else b.i64 = new BigInt64Array(buffer, at, rows);
      b.capacity = rows;
    });
  }

  /** Room for `n` rows: exactly `n` on the first append, then doubling. */
  private reserve(n: number): void {
    if (n <= this.capacity) return;
    const size = this.capacity === 0 ? n : Math.max(n, this.capacity * 2);
    this.capacity = size;
    if (this.nulls !== null) { const a = new Uint8Array(size); a.set(this.nulls.subarray(0, this.length)); this.nulls = a; }
    if (this.storage === 'f64') { const a = new Float64Array(size); a.set(this.f64.subarray(0, this.length)); this.f64 = a; }
    if (this.storage === 'i64') { const a = new BigInt64Array(size); a.set(this.i64.subarray(0, this.length)); this.i64 = a; }
    if (this.storage === 'text' || this.storage === 'bytes') while (this.list.length < size) this.list.push(null);
  }

  isNull(i: number): boolean {
    return this.nulls !== null && this.nulls[i] === 1;
  }

  /** Raw access for sorting: doubles, int64 halves, or JS values. */
  get doubles(): Float64Array { return this.f64; }
  get int64s(): BigInt64Array { return this.i64; }
  get values(): readonly (string | Uint8Array | null)[] { return this.list; }
  get kind(): Storage { return this.storage; }

  /**
   * The rows `order[0..count)` (rows 0..count without an order) as plain arrays; `isAllNull` when
   * no kept row has a value. Called once, last: without an order the column's own array may be
   * handed out.
   */
  build(order: Int32Array | null, count: number): {
    values: Float64Array | BigInt64Array | (string | null)[] | (Uint8Array | null)[]; nulls: Uint8Array | null; isAllNull: boolean;
  } {
    let nulls: Uint8Array | null = null;
    let nullRows = 0;
    if (this.nulls !== null) {
      const flags = this.nulls;
      nulls = order === null ? prefix(flags, count) : new Uint8Array(count);
      for (let k = 0; k < count; k++) {
        if (order !== null) nulls[k] = flags[order[k]];
        nullRows += nulls[k];
      }
      if (nullRows === 0) nulls = null;
    }
    const isAllNull = count > 0 && nullRows === count;
    if (this.storage === 'f64') {
      if (order === null) return { values: prefix(this.f64, count), nulls, isAllNull };
      const out = new Float64Array(count);
      for (let k = 0; k < count; k++) out[k] = this.f64[order[k]];
      return { values: out, nulls, isAllNull };
    }
    if (this.storage === 'i64') {
      if (order === null) return { values: prefix(this.i64, count), nulls, isAllNull };
      const out = new BigInt64Array(count);
      const src = int64Halves(this.i64);
      const dst = int64Halves(out);
      for (let k = 0; k < count; k++) { const i = order[k]; dst.lo[k << 1] = src.lo[i << 1]; dst.hi[(k << 1) | 1] = src.hi[(i << 1) | 1]; }
      return { values: out, nulls, isAllNull };
    }
    const out: (string | Uint8Array | null)[] = new Array(count);
    for (let k = 0; k < count; k++) { const i = order === null ? k : order[k]; out[k] = this.isNull(i) ? null : this.list[i]; }
    return { values: out as (string | null)[], nulls, isAllNull };
  }
}

/** The first `count` entries of `src`: the array itself when it holds exactly that many. */
function prefix<T extends Float64Array | BigInt64Array | Uint8Array>(src: T, count: number): T {
  return (src.length === count ? src : src.slice(0, count)) as T;
}
