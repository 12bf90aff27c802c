// JSON of int64-nanosecond times in the three styles the wire formats use (SPEC §7):
//   'js'      "2017-01-01T00:00:00.000Z"          query_exp date_format=js (millisecond precision)
//   'native'  {"tv_sec":1483228800,"tv_nsec":0}   query_exp date_format=native
//   'rfc3339' "2017-01-01T00:00:00.5Z"             api/query (nanoseconds, trailing zeros trimmed)
// Seconds and nanoseconds are split exactly from the int64's 32-bit words with plain-number
// arithmetic (no BigInt per value); the calendar date is cached per day, since result rows come
// in time order and share days. Sub-second parts use floor semantics, as Date does: 1 ns before
// the epoch is 1969-12-31T23:59:59.999999999Z.
import { int64Words } from './int64-words.js';
import { DIGIT_PAIRS } from './json-bytes.js';
import type { JsonBytes } from './json-bytes.js';

export type TimeStyle = 'js' | 'native' | 'rfc3339';

/** Writes the JSON of `values[i]` (not null). One per column: it caches the last day. */
export type TimeWriter = (w: JsonBytes, i: number) => void;

const NS_PER_S = 1_000_000_000n;
/** |hi| < 2^30 keeps ns/2^9 below 2^53 (years 1824–2116); beyond that, BigInt does the split. */
const FAST_HI = 2 ** 30;
/** 10^9 = 2^9 · 1953125: ns >> 9 is exact from the words, then one division by 1953125. */
const FIVES = 1953125;
const QUOTE = 34;

export function timeWriter(values: BigInt64Array, style: TimeStyle): TimeWriter {
  const words = int64Words(values);
  // sec, nsec and the cached day live in a typed array, not in closure variables: a closure
  // variable holding a number beyond the small-integer range is a heap allocation per write.
  const state = new Float64Array([0, 0, NaN]);
  const SEC = 0;
  const NSEC = 1;
  const DAY = 2;
  const date = new Uint8Array(10); // "YYYY-MM-DD" of state[DAY]
  /** Sets sec (floor) and nsec (0 … 999,999,999) of values[i]. */
  const split = (i: number): void => {
    const hi = words === null ? FAST_HI : words[2 * i + 1];
    if (hi > -FAST_HI && hi < FAST_HI) {
      const lo = words![2 * i] >>> 0;
      const m = hi * 8388608 + (lo >>> 9); // ns >> 9 (floor), exact: |m| < 2^53
      let s = Math.floor(m / FIVES);
      let rem = m - s * FIVES; // exact; the division's rounding can leave it one step off
      if (rem < 0) { s -= 1; rem += FIVES; } else if (rem >= FIVES) { s += 1; rem -= FIVES; }
      state[SEC] = s;
      state[NSEC] = rem * 512 + (lo & 511);
    } else {
      const v = values[i];
      let s = v / NS_PER_S;
      if (v < s * NS_PER_S) s -= 1n;
      state[SEC] = Number(s);
      state[NSEC] = Number(v - s * NS_PER_S);
    }
  };
  /** Writes "YYYY-MM-DDTHH:MM:SS" of state[SEC]. */
  const dateTime = (w: JsonBytes): void => {
    const sec = state[SEC];
    const day = Math.floor(sec / 86400);
    if (day !== state[DAY]) {
      state[DAY] = day;
      civilDate(day, date);
    }
    const sod = sec - day * 86400;
    const h = Math.floor(sod / 3600);
    const rest = sod - h * 3600;
    const min = Math.floor(rest / 60);
    const s2 = (rest - min * 60) * 2;
    const { buf } = w;
    let p = w.pos;
    // unrolled: a copy loop per row cost more than the digits
    buf[p] = date[0]; buf[p + 1] = date[1]; buf[p + 2] = date[2]; buf[p + 3] = date[3]; buf[p + 4] = date[4];
    buf[p + 5] = date[5]; buf[p + 6] = date[6]; buf[p + 7] = date[7]; buf[p + 8] = date[8]; buf[p + 9] = date[9];
    p += 10;
    buf[p++] = 84; // 'T'
    buf[p++] = DIGIT_PAIRS[h * 2];
    buf[p++] = DIGIT_PAIRS[h * 2 + 1];
    buf[p++] = 58; // ':'
    buf[p++] = DIGIT_PAIRS[min * 2];
    buf[p++] = DIGIT_PAIRS[min * 2 + 1];
    buf[p++] = 58;
    buf[p++] = DIGIT_PAIRS[s2];
    buf[p++] = DIGIT_PAIRS[s2 + 1];
    w.pos = p;
  };
  switch (style) {
    case 'native': {
      // The keys are constant stores; a 10-digit tv_sec (2001–2286) reuses its first six
      // digits while they last (~2.8 h of rows) and writes the last four as two pairs.
      const head = new Uint8Array(6);
      let headOf = -1;
      return (w, i) => {
        split(i);
        w.reserve(48);
        const { buf } = w;
        let p = w.pos;
        // {"tv_sec":  as constant stores (a copy loop from a template cost twice as much)
        buf[p] = 123; buf[p + 1] = 34; buf[p + 2] = 116; buf[p + 3] = 118; buf[p + 4] = 95;
        buf[p + 5] = 115; buf[p + 6] = 101; buf[p + 7] = 99; buf[p + 8] = 34; buf[p + 9] = 58;
        p += 10;
        const sec = state[SEC];
        if (sec >= 1e9 && sec < 1e10) {
          const high = Math.floor(sec / 10000);
          if (high !== headOf) {
            headOf = high;
            for (let k = 5, n = high; k >= 0; k--, n = Math.floor(n / 10)) head[k] = 48 + (n % 10);
          }
          buf[p] = head[0]; buf[p + 1] = head[1]; buf[p + 2] = head[2]; buf[p + 3] = head[3]; buf[p + 4] = head[4]; buf[p + 5] = head[5];
          p += 6;
          const low = sec - high * 10000;
          const top = Math.floor(low / 100);
          const pair = (low - top * 100) * 2;
          buf[p++] = DIGIT_PAIRS[top * 2];
          buf[p++] = DIGIT_PAIRS[top * 2 + 1];
          buf[p++] = DIGIT_PAIRS[pair];
          buf[p++] = DIGIT_PAIRS[pair + 1];
          w.pos = p;
        } else {
          // w.int reserves no more than the 48 bytes above, so `buf` stays the writer's buffer
          w.pos = p;
          w.int(sec);
          p = w.pos;
        }
        // ,"tv_nsec":
        buf[p] = 44; buf[p + 1] = 34; buf[p + 2] = 116; buf[p + 3] = 118; buf[p + 4] = 95; buf[p + 5] = 110;
        buf[p + 6] = 115; buf[p + 7] = 101; buf[p + 8] = 99; buf[p + 9] = 34; buf[p + 10] = 58;
        p += 11;
        const nsec = state[NSEC];
        if (nsec >= 100_000_000) {
          p = nineDigits(buf, p, nsec);
          w.pos = p;
        } else {
          w.pos = p;
          w.uint32(nsec, 1);
          p = w.pos;
        }
        buf[p++] = 125; // '}'
        w.pos = p;
      };
    }
    case 'js':
      return (w, i) => {
        split(i);
        w.reserve(32);
        w.buf[w.pos++] = QUOTE;
        dateTime(w);
        const { buf } = w;
        let p = w.pos;
        buf[p++] = 46; // '.'
        p = threeDigits(buf, p, Math.floor(state[NSEC] / 1_000_000));
        buf[p++] = 90; // 'Z'
        buf[p++] = QUOTE;
        w.pos = p;
      };
    case 'rfc3339':
      return (w, i) => {
        split(i);
        w.reserve(40);
        w.buf[w.pos++] = QUOTE;
        dateTime(w);
        const nsec = state[NSEC];
        const { buf } = w;
        let p = w.pos;
        if (nsec !== 0) {
          buf[p++] = 46; // '.'
          p = nineDigits(buf, p, nsec);
          while (buf[p - 1] === 48) p--; // trailing zeros trimmed; nsec ≠ 0 keeps a digit
        }
        buf[p++] = 90; // 'Z'
        buf[p++] = QUOTE;
        w.pos = p;
      };
  }
}

/** Writes n (0 … 999) as three digits at p; returns the position after them. */
/** The nine digits of 0 ≤ n < 10^9, zero-padded, as three groups of three. */
function nineDigits(buf: Uint8Array, p: number, n: number): number {
  const ms = Math.floor(n / 1_000_000);
  const below = n - ms * 1_000_000;
  const us = Math.floor(below / 1000);
  p = threeDigits(buf, p, ms);
  p = threeDigits(buf, p, us);
  return threeDigits(buf, p, below - us * 1000);
}

function threeDigits(buf: Uint8Array, p: number, n: number): number {
  const hundreds = Math.floor(n / 100);
  const pair = (n - hundreds * 100) * 2;
  buf[p] = 48 + hundreds;
  buf[p + 1] = DIGIT_PAIRS[pair];
  buf[p + 2] = DIGIT_PAIRS[pair + 1];
  return p + 3;
}

/**
 * "YYYY-MM-DD" of a day number since 1970-01-01. Called once per distinct day of a column (the
 * caller caches it), so Date's own calendar is cheap enough; int64 nanoseconds span the years
 * 1677–2262, always four digits. The last day asked for is kept across answers too: small
 * answers in a row (a dashboard's) are mostly of the same day, and Date's formatting was a
 * visible part of a one-row answer.
 */
function civilDate(day: number, out: Uint8Array): void {
  if (day !== lastDay) {
    const text = new Date(day * 86_400_000).toISOString();
    for (let k = 0; k < 10; k++) lastDate[k] = text.charCodeAt(k);
    lastDay = day;
  }
  out.set(lastDate);
}

let lastDay = NaN;
const lastDate = new Uint8Array(10);
