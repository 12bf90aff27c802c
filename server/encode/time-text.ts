// JSON text of int64-nanosecond times in the three styles the wire formats use (SPEC §7):
//   'js'      "2017-01-01T00:00:00.000Z"          query_exp date_format=js (millisecond precision)
//   'native'  {"tv_sec":1483228800,"tv_nsec":0}   query_exp date_format=native
//   'rfc3339' "2017-01-01T00:00:00.5Z"             api/query (nanoseconds, trailing zeros trimmed)
// Seconds and nanoseconds are split exactly from the int64's 32-bit words with plain-number
// arithmetic (no BigInt per value); the calendar date is cached per day, since result rows come
// in time order and share days. Sub-second parts use floor semantics, as Date does: 1 ns before
// the epoch is 1969-12-31T23:59:59.999999999Z.
import { int64Words } from './int64-words.js';

export type TimeStyle = 'js' | 'native' | 'rfc3339';

/** Formats `values[i]` (not null) as JSON text; one per column, since it caches the last day. */
export type TimeText = (i: number) => string;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const P2 = Array.from({ length: 100 }, (_, i) => pad(i, 2));
const P3 = Array.from({ length: 1000 }, (_, i) => pad(i, 3));
/** Three digits with trailing zeros removed (for a non-zero last group): 500 → "5", 50 → "05". */
const P3_TRIMMED = P3.map((s) => s.replace(/0+$/, ''));

const NS_PER_S = 1_000_000_000n;
/** |hi| < 2^30 keeps ns/2^9 below 2^53 (years 1824–2115); beyond that, BigInt does the split. */
const FAST_HI = 2 ** 30;
/** 10^9 = 2^9 · 1953125: ns >> 9 is exact from the words, then one division by 1953125. */
const FIVES = 1953125;

export function timeText(values: BigInt64Array, style: TimeStyle): TimeText {
  const words = int64Words(values);
  let sec = 0;
  let nsec = 0;
  let cachedDay = NaN;
  let cachedDate = '';
  /** Sets sec (floor) and nsec (0 … 999,999,999) of values[i]. */
  const split = (i: number): void => {
    const hi = words === null ? FAST_HI : words[2 * i + 1];
    if (hi > -FAST_HI && hi < FAST_HI) {
      const lo = words![2 * i] >>> 0;
      const m = hi * 8388608 + (lo >>> 9); // ns >> 9 (floor), exact: |m| < 2^53
      let s = Math.floor(m / FIVES);
      let rem = m - s * FIVES; // exact; the division's rounding can leave it one step off
      if (rem < 0) { s -= 1; rem += FIVES; } else if (rem >= FIVES) { s += 1; rem -= FIVES; }
      sec = s;
      nsec = rem * 512 + (lo & 511);
    } else {
      const v = values[i];
      let s = v / NS_PER_S;
      if (v < s * NS_PER_S) s -= 1n;
      sec = Number(s);
      nsec = Number(v - s * NS_PER_S);
    }
  };
  /** "YYYY-MM-DDTHH:MM:SS" of `sec`. */
  const dateTime = (): string => {
    const day = Math.floor(sec / 86400);
    if (day !== cachedDay) {
      cachedDay = day;
      cachedDate = civilDate(day);
    }
    const sod = sec - day * 86400;
    const h = Math.floor(sod / 3600);
    const rest = sod - h * 3600;
    const min = Math.floor(rest / 60);
    return `${cachedDate}T${P2[h]}:${P2[min]}:${P2[rest - min * 60]}`;
  };
  switch (style) {
    case 'native':
      return (i) => {
        split(i);
        return `{"tv_sec":${sec},"tv_nsec":${nsec}}`;
      };
    case 'js':
      return (i) => {
        split(i);
        return `"${dateTime()}.${P3[Math.floor(nsec / 1_000_000)]}Z"`;
      };
    case 'rfc3339':
      return (i) => {
        split(i);
        return `"${dateTime()}${fraction(nsec)}Z"`;
      };
  }
}

/** ".123456789" with trailing zeros trimmed; "" for a whole second. */
function fraction(nsec: number): string {
  if (nsec === 0) return '';
  const ms = Math.floor(nsec / 1_000_000);
  const us = Math.floor(nsec / 1000) - ms * 1000;
  const ns = nsec - Math.floor(nsec / 1000) * 1000;
  if (ns !== 0) return `.${P3[ms]}${P3[us]}${P3_TRIMMED[ns]}`;
  if (us !== 0) return `.${P3[ms]}${P3_TRIMMED[us]}`;
  return `.${P3_TRIMMED[ms]}`;
}

/** "YYYY-MM-DD" of a day number since 1970-01-01 (Hinnant's civil_from_days, proleptic Gregorian). */
function civilDate(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  // int64 nanoseconds span the years 1677–2262: always four digits.
  return `${y}-${P2[m]}-${P2[d]}`;
}
