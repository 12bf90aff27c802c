// Single values out of Vecs (the ordering of values lives in plan/value-order.ts, which constant
// folding shares). Used where a per-value path is acceptable: comparisons other than the hot
// numeric/equality kernels, group keys, sorting of result rows, first/last of strings.
import { Buffer } from 'node:buffer';
import type { Scalar, Vec } from './vec.js';
import { isValidAt } from './vec.js';

const buffers = new WeakMap<Uint8Array, Buffer>();

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
