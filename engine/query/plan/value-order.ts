// The ordering of values of any type (SPEC §6): what `=`, `<`, … mean for numbers, int64,
// strings and blobs. Constant folding (plan/) and the executor's per-value paths (exec/) share it,
// so a comparison folded at plan time agrees with the same comparison run over rows.
import type { Scalar } from './plan-expr.js';

const encoder = new TextEncoder();

export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
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
