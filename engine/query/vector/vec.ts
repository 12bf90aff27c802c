// Column data as the executor's loops read it. A Vec is addressed by position: a batch row in row
// context, a group id in group context. `Rows` names the positions an operator works on: a range
// [lo, hi) or, after a WHERE, entries [lo, hi) of an ascending selection vector.
//
// int64 values are read through 32-bit views (`lo` unsigned, `hi` signed, little-endian) so hot
// loops compare and sum them with plain numbers: reading a BigInt64Array element allocates.

/** A single value: numbers are doubles, int64/timestamps bigints, strings, blob bytes, booleans. */
export type Scalar = number | bigint | string | Uint8Array | boolean | null;

export type Validity = Uint8Array | null;

export type Vec =
  | { readonly kind: 'f64'; readonly values: Float64Array; readonly validity: Validity }
  | { readonly kind: 'i64'; readonly values: BigInt64Array; readonly lo: Uint32Array; readonly hi: Int32Array; readonly validity: Validity }
  /** UTF-8 strings or blob bytes in Arrow layout: value i is data[offsets[i] .. offsets[i+1]). */
  | { readonly kind: 'bytes'; readonly offsets: Int32Array; readonly data: Uint8Array; readonly validity: Validity }
  /** SYMBOL: indexes into a dictionary of strings. */
  | { readonly kind: 'dict'; readonly indices: Int32Array; readonly dictionary: readonly string[]; readonly validity: Validity }
  /** Plain JS values by position (group keys, first/last of strings); null = null. */
  | { readonly kind: 'list'; readonly values: readonly (string | Uint8Array | null)[] }
  /** One value for every position. */
  | { readonly kind: 'const'; readonly value: Scalar };

export interface Rows {
  /** Ascending positions, or null for the plain range [lo, hi). */
  readonly sel: Int32Array | null;
  readonly lo: number;
  readonly hi: number;
}

export const TWO_32 = 4294967296;

/** Arrow validity test: bit set = valid; a null bitmap means every value is valid. */
export function isValidAt(validity: Validity, i: number): boolean {
  return validity === null || ((validity[i >> 3] >> (i & 7)) & 1) === 1;
}

const views = new WeakMap<BigInt64Array, { lo: Uint32Array; hi: Int32Array }>();
/**
 * Arrays this long are remembered: batch columns, read by query after query. Short ones are
 * mostly fresh per query (group keys, results), and a WeakMap entry (an ephemeron the GC must
 * trace) costs several times the two views it would save.
 */
const CACHED_HALVES_LENGTH = 1024;

/** The 32-bit halves of an int64 array: element i is lo[2i] + hi[2i+1] × 2^32. */
export function int64Halves(values: BigInt64Array): { lo: Uint32Array; hi: Int32Array } {
  if (values.length < CACHED_HALVES_LENGTH) return halvesOf(values);
  let v = views.get(values);
  if (v === undefined) {
    v = halvesOf(values);
    views.set(values, v);
  }
  return v;
}

function halvesOf(values: BigInt64Array): { lo: Uint32Array; hi: Int32Array } {
  return {
    lo: new Uint32Array(values.buffer, values.byteOffset, values.length * 2),
    hi: new Int32Array(values.buffer, values.byteOffset, values.length * 2),
  };
}

export function i64Vec(values: BigInt64Array, validity: Validity): Vec {
  const { lo, hi } = int64Halves(values);
  return { kind: 'i64', values, lo, hi, validity };
}

/** A bigint's 32-bit halves, for allocation-free comparisons against int64 arrays. */
export function splitInt64(v: bigint): { hi: number; lo: number } {
  return { hi: Number(BigInt.asIntN(32, v >> 32n)), lo: Number(BigInt.asUintN(32, v)) };
}

/** Sets validity bit i (bitmap sized for the positions in use). */
export function setValid(bits: Uint8Array, i: number, isValid: boolean): void {
  if (isValid) bits[i >> 3] |= 1 << (i & 7);
  else bits[i >> 3] &= ~(1 << (i & 7));
}
