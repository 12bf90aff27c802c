// Values as text for the text formats of an export (CSV, NDJSON): one formatter per column,
// chosen once, so the per-row work is a loop over the column's typed array. Times are RFC 3339
// in UTC with nanoseconds, trailing zeros trimmed (as `api/query` writes them, SPEC §7), the
// text of the whole second cached: rows come in time order and share seconds. int64 values are
// read through their 32-bit halves, so a value within ±2^53 costs no BigInt. Doubles print as
// JavaScript prints them (the shortest text that reads back to the same bits); blobs as base64.
import { formatTimestamp } from '../../grammar/index.js';
import { int64Halves } from '../query/vector/vec.js';
import type { ResultColumn } from '../query/result.js';

/** Row i's value as text, or null for a null (NaN and ±Infinity are values here: `NaN`, `Infinity`). */
export type TextOf = (i: number) => string | null;

const NS_PER_S = 1_000_000_000n;
const TWO_32 = 4294967296;
/** hi halves in [-2^21, 2^21): hi·2^32 + lo is exact as a double. */
const SAFE_HI = 2 ** 21;

export function textOf(column: ResultColumn): TextOf {
  const { nulls } = column;
  const isNull = (i: number): boolean => nulls !== null && nulls[i] !== 0;
  switch (column.type) {
    case 'double': {
      const values = column.values as Float64Array;
      return (i) => (isNull(i) ? null : String(values[i]));
    }
    case 'boolean': {
      const values = column.values as Float64Array;
      return (i) => (isNull(i) ? null : values[i] !== 0 ? 'true' : 'false');
    }
    case 'int64':
    case 'count': {
      const values = column.values as BigInt64Array;
      const { lo, hi } = int64Halves(values);
      return (i) => {
        if (isNull(i)) return null;
        const h = hi[2 * i + 1];
        return h >= -SAFE_HI && h < SAFE_HI ? String(h * TWO_32 + lo[2 * i]) : String(values[i]);
      };
    }
    case 'timestamp': {
      const time = timeText(column.values as BigInt64Array);
      return (i) => (isNull(i) ? null : time(i));
    }
    case 'string':
    case 'symbol': {
      const values = column.values as (string | null)[];
      return (i) => (isNull(i) ? null : values[i]);
    }
    case 'blob': {
      const values = column.values as (Uint8Array | null)[];
      return (i) => {
        const v = values[i];
        return v === null || isNull(i) ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
      };
    }
    case 'none':
      return () => null;
  }
}

/** RFC 3339 text of `values[i]`; the text of the last whole second is kept for the next rows. */
export function timeText(values: BigInt64Array): (i: number) => string {
  const { lo, hi } = int64Halves(values);
  let second = NaN;
  let prefix = '';
  return (i) => {
    const h = hi[2 * i + 1];
    if (h < -SAFE_HI || h >= SAFE_HI) return formatTimestamp(values[i]);
    const ns = h * TWO_32 + lo[2 * i];
    // Exact below 2^53: floor to the second, then the fraction in whole nanoseconds.
    const s = Math.floor(ns / 1e9);
    let fraction = ns - s * 1e9;
    if (s !== second) {
      second = s;
      const whole = formatTimestamp(BigInt(s) * NS_PER_S);
      prefix = whole.slice(0, -1);
    }
    if (fraction === 0) return `${prefix}Z`;
    let digits = 9;
    while (fraction % 10 === 0) { fraction /= 10; digits--; }
    return `${prefix}.${String(fraction).padStart(digits, '0')}Z`;
  };
}
