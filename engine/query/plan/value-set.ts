// The constants of `x [NOT] IN (v, …)` as hash sets the executor probes once per row without
// allocating: int64 values by their 32-bit halves, doubles by their bits, strings as JS strings
// (symbol dictionaries, group keys) and as UTF-8 bytes (STRING and BLOB columns). Membership
// means exactly what `x = v` means (SPEC §6): numbers by value (an int64 meets a double as a
// double), strings by UTF-16 code units, blobs byte-wise against a string's UTF-8 bytes, NaN
// equal to nothing.

/** How the operand's values meet the set: as doubles, as int64 (and timestamps), or as text. */
export type SetOperand = 'double' | 'int64' | 'text';

/** A constant of the list (plan-expr.ts's Scalar, restated so that file can name this one). */
type Value = number | bigint | string | Uint8Array | boolean | null;

const encoder = new TextEncoder();

/** Open addressing needs free slots: capacity ≥ 2 × entries, a power of two. */
function capacityFor(n: number): number {
  let c = 8;
  while (c < 2 * n) c *= 2;
  return c;
}

/** A 32-bit mix of two 32-bit words (murmur3's finalizer). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** int64 values kept as halves: probed with the halves of a BigInt64Array element. */
export class Int64Set {
  private readonly his: Int32Array;
  private readonly los: Int32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;

  constructor(values: readonly bigint[]) {
    const capacity = capacityFor(values.length);
    this.his = new Int32Array(capacity);
    this.los = new Int32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
    for (const v of values) {
      const hi = Number(BigInt.asIntN(32, v >> 32n));
      const lo = Number(BigInt.asIntN(32, v));
      let j = mix(hi, lo) & this.mask;
      while (this.used[j] === 1 && !(this.his[j] === hi && this.los[j] === lo)) j = (j + 1) & this.mask;
      this.used[j] = 1;
      this.his[j] = hi;
      this.los[j] = lo;
    }
  }

  /** Whether hi·2^32 + lo (lo read as unsigned or signed) is in the set. */
  has(hi: number, lo: number): boolean {
    const l = lo | 0;
    let j = mix(hi, l) & this.mask;
    while (this.used[j] === 1) {
      if (this.his[j] === hi && this.los[j] === l) return true;
      j = (j + 1) & this.mask;
    }
    return false;
  }
}

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

/** Doubles by value (-0 equals 0; NaN is never a member). */
export class F64Set {
  private readonly keys: Float64Array;
  private readonly used: Uint8Array;
  private readonly mask: number;
  readonly size: number;

  constructor(values: readonly number[]) {
    const kept = values.filter((v) => v === v);
    this.size = kept.length;
    const capacity = capacityFor(kept.length);
    this.keys = new Float64Array(capacity);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
    for (const v of kept) {
      const x = v === 0 ? 0 : v;
      let j = F64Set.slot(x) & this.mask;
      while (this.used[j] === 1 && this.keys[j] !== x) j = (j + 1) & this.mask;
      this.used[j] = 1;
      this.keys[j] = x;
    }
  }

  private static slot(x: number): number {
    bits[0] = x;
    return mix(words[1], words[0]);
  }

  has(v: number): boolean {
    if (v !== v || this.size === 0) return false;
    const x = v === 0 ? 0 : v;
    let j = F64Set.slot(x) & this.mask;
    while (this.used[j] === 1) {
      if (this.keys[j] === x) return true;
      j = (j + 1) & this.mask;
    }
    return false;
  }
}

/** Byte strings, probed with a range of an Arrow data buffer (no decoding, no copy). */
export class BytesSet {
  private readonly entries: Uint8Array[];
  /** Entry index + 1 per slot; 0 = free. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(values: readonly Uint8Array[]) {
    this.entries = [];
    const capacity = capacityFor(values.length);
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (const v of values) {
      if (this.has(v, 0, v.length)) continue;
      let j = hashBytes(v, 0, v.length) & this.mask;
      while (this.slots[j] !== 0) j = (j + 1) & this.mask;
      this.entries.push(v);
      this.slots[j] = this.entries.length;
    }
  }

  has(data: Uint8Array, start: number, end: number): boolean {
    const len = end - start;
    let j = hashBytes(data, start, end) & this.mask;
    for (let e = this.slots[j]; e !== 0; j = (j + 1) & this.mask, e = this.slots[j]) {
      const entry = this.entries[e - 1];
      if (entry.length !== len) continue;
      let k = 0;
      while (k < len && entry[k] === data[start + k]) k++;
      if (k === len) return true;
    }
    return false;
  }
}

/** FNV-1a over data[start, end), mixed once more so short keys spread over the table. */
function hashBytes(data: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ data[i], 0x01000193);
  return mix(h, end - start);
}

/**
 * The non-null constants of one IN list, typed for the operand: `int64` for exact int64 and
 * timestamp values, `f64` for doubles (and double literals against int64), `texts` and `bytes`
 * for strings (symbols and group keys probe `texts`, STRING and BLOB columns probe `bytes`).
 */
export class ValueSet {
  readonly int64: Int64Set | null;
  readonly f64: F64Set | null;
  readonly texts: ReadonlySet<string> | null;
  readonly bytes: BytesSet | null;
  /** Number of distinct values given (for plan keys and messages). */
  readonly size: number;

  /** `values`: non-null constants already checked comparable with the operand. */
  constructor(operand: SetOperand, values: readonly Value[]) {
    this.size = values.length;
    const isNumber = operand !== 'text';
    const bigints = values.filter((v): v is bigint => typeof v === 'bigint');
    const numbers = values.filter((v): v is number => typeof v === 'number');
    this.int64 = operand === 'int64' ? new Int64Set(bigints) : null;
    // A double operand meets every value as a double; an int64 one meets double literals so.
    this.f64 = !isNumber ? null : new F64Set(operand === 'double' ? [...numbers, ...bigints.map(Number)] : numbers);
    const strings = values.filter((v): v is string => typeof v === 'string');
    this.texts = isNumber ? null : new Set(strings);
    this.bytes = isNumber ? null : new BytesSet(strings.map((s) => encoder.encode(s)));
  }

  /** Membership of one value, for the per-value paths (group keys, constants). */
  hasScalar(v: Value): boolean {
    if (typeof v === 'number') return this.f64?.has(v) === true;
    if (typeof v === 'bigint') {
      if (this.int64 !== null && this.int64.has(Number(BigInt.asIntN(32, v >> 32n)), Number(BigInt.asIntN(32, v)))) return true;
      return this.f64?.has(Number(v)) === true;
    }
    if (typeof v === 'string') return this.texts?.has(v) === true;
    if (v instanceof Uint8Array) return this.bytes?.has(v, 0, v.length) === true;
    return false;
  }
}
