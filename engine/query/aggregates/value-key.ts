// A hashable key per value, shared by distinct_count and adjacent_count: doubles as numbers (so
// NaN equals NaN and 0 equals -0, SameValueZero), int64 as numbers while exact and as bigints
// beyond, strings as themselves, blobs as one char per byte. null means a null value.
import { utf8At } from '../vector/scalars.js';
import type { Vec } from '../vector/vec.js';
import { isValidAt } from '../vector/vec.js';

export type ValueKey = number | bigint | string;

const EXACT = 2 ** 53;

export function keyAt(vec: Vec, i: number, isText: boolean): ValueKey | null {
  switch (vec.kind) {
    case 'f64': return isValidAt(vec.validity, i) ? vec.values[i] : null;
    case 'i64': {
      if (!isValidAt(vec.validity, i)) return null;
      const d = vec.hi[(i << 1) | 1] * 4294967296 + vec.lo[i << 1];
      return d > -EXACT && d < EXACT ? d : vec.values[i];
    }
    case 'dict': return isValidAt(vec.validity, i) ? vec.dictionary[vec.indices[i]] : null;
    case 'bytes':
      if (!isValidAt(vec.validity, i)) return null;
      return isText ? utf8At(vec.offsets, vec.data, i) : bytesKey(vec.data, vec.offsets[i], vec.offsets[i + 1]);
    case 'list': {
      const v = vec.values[i];
      return v === null ? null : typeof v === 'string' ? v : bytesKey(v, 0, v.length);
    }
    case 'const': {
      const v = vec.value;
      if (v === null || typeof v === 'boolean') return null;
      return v instanceof Uint8Array ? bytesKey(v, 0, v.length) : v;
    }
  }
}

function bytesKey(data: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let j = start; j < end; j++) s += String.fromCharCode(data[j]);
  return s;
}

/** One string for the key values of several columns at row `i`: typed and length-prefixed, so no two combinations meet. */
export function compositeKeyAt(vecs: readonly Vec[], i: number, texts: readonly boolean[]): string {
  let key = '';
  for (let c = 0; c < vecs.length; c++) {
    const part = keyAt(vecs[c], i, texts[c]);
    const text = part === null ? 'n' : `${typeof part}${String(part)}`;
    key += `${text.length}:${text}`;
  }
  return key;
}

/** Key equality with NaN equal to itself. */
export function sameKey(a: ValueKey, b: ValueKey): boolean {
  return a === b || (a !== a && b !== b);
}
