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

const NS_PER_DAY = 86_400_000_000_000n;
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

/** "00" … "59". */
const TWO_DIGITS = Array.from({ length: 60 }, (_, k) => String(k).padStart(2, '0'));

/** |hi half| below this (years 1824–2116) is split with plain numbers; beyond, through BigInt. */
const TIME_HI = 2 ** 30;
const FIVES = 1_953_125;

/**
 * RFC 3339 text of `values[i]`, split into second and nanoseconds with plain numbers; the date
 * of the last day seen is kept, since rows come in time order.
 */
export function timeText(values: BigInt64Array): (i: number) => string {
  const { lo, hi } = int64Halves(values);
  let day = NaN;
  let date = '';
  return (i) => {
    const h = hi[2 * i + 1];
    if (h <= -TIME_HI || h >= TIME_HI) return formatTimestamp(values[i]);
    // ns = h·2^32 + l. 10^9 = 2^9 · 1,953,125: q = floor(ns / 2^9) is exact in a double while
    // |h| < 2^30, then one division by 1,953,125 gives the second (corrected by one step when the
    // quotient rounded), and the remainder with the low 9 bits the nanoseconds.
    const l = lo[2 * i];
    const q = h * 8_388_608 + (l >>> 9);
    let s = Math.floor(q / FIVES);
    let rem = q - s * FIVES;
    if (rem < 0) { s -= 1; rem += FIVES; } else if (rem >= FIVES) { s += 1; rem -= FIVES; }
    let fraction = rem * 512 + (l & 511);
    const d = Math.floor(s / 86_400);
    if (d !== day) {
      day = d;
      date = formatTimestamp(BigInt(d) * NS_PER_DAY).slice(0, 11);
    }
    const inDay = s - d * 86_400;
    const hms = `${date}${TWO_DIGITS[Math.floor(inDay / 3600)]}:${TWO_DIGITS[Math.floor(inDay / 60) % 60]}:${TWO_DIGITS[inDay % 60]}`;
    if (fraction === 0) return `${hms}Z`;
    let digits = 9;
    while (fraction % 10 === 0) { fraction /= 10; digits--; }
    return `${hms}.${String(fraction).padStart(digits, '0')}Z`;
  };
}
