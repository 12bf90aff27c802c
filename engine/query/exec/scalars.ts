// Single values out of Vecs, and the ordering of values of any type. Used where a per-value
// path is acceptable: comparisons other than the hot numeric/equality kernels, group keys,
// sorting of result rows, first/last of strings.
import { Buffer } from 'node:buffer';
import type { Scalar } from '../plan/plan-expr.js';
import type { Vec } from './vec.js';
import { isValidAt } from './vec.js';

const buffers = new WeakMap<Uint8Array, Buffer>();
const encoder = new TextEncoder();

/** A Buffer over the same memory (Buffer's UTF-8 decoding is the fastest Node offers). */
function bufferOf(data: Uint8Array): Buffer {
  let b = buffers.get(data);
  if (b === undefined) {
    b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    buffers.set(data, b);
  }
  return b;
}

/** String i of an Arrow UTF-8 column. */
export function utf8At(offsets: Int32Array, data: Uint8Array, i: number): string {
  return bufferOf(data).toString('utf8', offsets[i], offsets[i + 1]);
}

export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}

/** The value at position i; `isText` decodes byte values as UTF-8 (strings) or keeps bytes (blobs). */
export function scalarAt(v: Vec, i: number, isText: boolean): Scalar {
  switch (v.kind) {
    case 'const': return v.value;
    case 'list': return v.values[i];
    case 'f64': return isValidAt(v.validity, i) ? v.values[i] : null;
    case 'i64': return isValidAt(v.validity, i) ? v.values[i] : null;
    case 'dict': return isValidAt(v.validity, i) ? v.dictionary[v.indices[i]] : null;
    case 'bytes':
      if (!isValidAt(v.validity, i)) return null;
      return isText ? utf8At(v.offsets, v.data, i) : v.data.slice(v.offsets[i], v.offsets[i + 1]);
  }
}

/**
 * Order of two non-null values: negative, zero, positive, or NaN when they are unordered (NaN
 * operands). Numbers and bigints compare by value (a bigint meets a double as a double); blobs
 * compare byte-wise (a string operand as its UTF-8 bytes); strings by UTF-16 code units.
 */
export function compareValues(a: Scalar, b: Scalar): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return compareBytes(toBytes(a), toBytes(b));
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return NaN;
}

function toBytes(v: Scalar): Uint8Array {
  return v instanceof Uint8Array ? v : utf8Bytes(String(v));
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Whether comparison result `cmp` satisfies `op` (NaN satisfies only '!='). */
export function satisfies(op: string, cmp: number): boolean {
  switch (op) {
    case '=': return cmp === 0;
    case '!=': return cmp !== 0;
    case '<': return cmp < 0;
    case '<=': return cmp <= 0;
    case '>': return cmp > 0;
    default: return cmp >= 0;
  }
}
