// Time arithmetic of the query language, all UTC, in int64 nanoseconds since the UNIX epoch:
// time literals, relative time points, Gregorian month arithmetic, range resolution and
// GROUP BY bucket alignment. The executor uses these so that every stage agrees on calendar rules.
import type { Duration, Range, TimePoint } from './ast.js';
import type { DurationValue } from './duration.js';

export const INT64_MIN = -9223372036854775808n;
export const INT64_MAX = 9223372036854775807n;
export const NS_PER_DAY = 86_400_000_000_000n;

/** Monday 1969-12-29T00:00Z: the origin of week buckets (the epoch was a Thursday). */
const MONDAY_ORIGIN = -3n * NS_PER_DAY;

// A strict time literal: date, optional time with optional seconds and up to 9 fraction digits.
const TIME_LITERAL = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?[Zz]?$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day number (inverse of `daysFromCivil`). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `a / b` rounded toward -∞ (BigInt division truncates toward zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Nanoseconds of midnight UTC, January 1st of `year`, or null outside int64. */
export function yearStartNs(year: number): bigint | null {
  // Far outside int64 anyway, and huge numbers would lose the day arithmetic's precision.
  if (!Number.isSafeInteger(year) || Math.abs(year) > 1_000_000) return null;
  return inInt64(BigInt(daysFromCivil(year, 1, 1)) * NS_PER_DAY);
}

/** What error messages say about the instants a timestamp can hold (int64 nanoseconds, UTC). */
export const REPRESENTABLE_TIMES = 'years 1678 to 2261 (int64 nanoseconds since 1970: 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z)';

/**
 * Nanoseconds of a literal like `2017-01-01`, `2017-01-01T10:00`, `2017-01-01T10:00:35.123456789Z`;
 * null when the text is not a valid date-time (month 13, Feb 30, 24:00, …) or is outside int64
 * (`isValidTimeText` tells the two apart).
 */
export function parseTimeLiteral(text: string): bigint | null {
  // Checked by the lexer, then read by the builder: parsed once per text (bounded memo).
  let known = parsedTimes.get(text);
  if (known === undefined) {
    if (parsedTimes.size >= MEMO_SIZE) parsedTimes.clear();
    const ns = civilTimeNs(text);
    known = ns === null ? null : inInt64(ns);
    parsedTimes.set(text, known);
  }
  return known;
}

const MEMO_SIZE = 1024;
const parsedTimes = new Map<string, bigint | null>();

/** True when `text` is a valid date-time, whether or not int64 nanoseconds can hold it. */
export function isValidTimeText(text: string): boolean {
  return civilTimeNs(text) !== null;
}

function civilTimeNs(text: string): bigint | null {
  const m = TIME_LITERAL.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((s) => Number(s ?? '0')) as
    [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0'));
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86_400n + BigInt(hour * 3600 + minute * 60 + second);
  return seconds * 1_000_000_000n + fraction;
}

/**
 * The instant of a time point. Relative bases use `nowNs` (the query's start time, so every
 * `now` of one query agrees): `today` = midnight UTC of now, `yesterday`/`tomorrow` ± 1 day.
 * @example resolveTimePoint({ kind: 'TimePoint', offset: 0, base: 'today' }, nowNs) // midnight UTC
 */
export function resolveTimePoint(tp: TimePoint, nowNs: bigint): bigint {
  switch (tp.base) {
    case 'absolute': return tp.ns;
    case 'now': return nowNs;
    case 'today': return floorDiv(nowNs, NS_PER_DAY) * NS_PER_DAY;
    case 'yesterday': return floorDiv(nowNs, NS_PER_DAY) * NS_PER_DAY - NS_PER_DAY;
    case 'tomorrow': return floorDiv(nowNs, NS_PER_DAY) * NS_PER_DAY + NS_PER_DAY;
  }
}

/**
 * `ns + sign × d`: calendar months first (the day of month is clamped, so Jan 31 + 1mon =
 * Feb 28, or Feb 29 in a leap year), then the fixed nanoseconds. The result is not clamped to
 * int64; callers that need a storable timestamp clamp it.
 * @example addDuration(parseTimeLiteral('2017-01-31')!, { months: 1, nanos: 0n, calendarUnit: 'mon' }) // 2017-02-28
 */
export function addDuration(ns: bigint, d: DurationValue, sign: 1 | -1 = 1): bigint {
  let result = ns;
  if (d.months !== 0) {
    const days = floorDiv(ns, NS_PER_DAY);
    const timeOfDay = ns - days * NS_PER_DAY;
    const date = civilFromDays(Number(days));
    const months = date.year * 12 + (date.month - 1) + sign * d.months;
    const year = Math.floor(months / 12);
    const month = months - year * 12 + 1;
    const day = Math.min(date.day, daysInMonth(year, month));
    result = BigInt(daysFromCivil(year, month, day)) * NS_PER_DAY + timeOfDay;
  }
  return sign === 1 ? result + d.nanos : result - d.nanos;
}

/**
 * `[start, end)` of a RANGE, clamped to int64. Example: RANGE(now, -1h) → [now - 1h, now). With a duration end, the range spans from start
 * by that offset; a negative offset goes back: RANGE(2017, -1s) = [2016-12-31T23:59:59, 2017).
 * A time-point end before the start gives an empty range (start ≥ end).
 */
export function resolveRange(range: Range, nowNs: bigint): { start: bigint; end: bigint } {
  const start = resolveTimePoint(range.start, nowNs);
  if (range.end.kind === 'TimePoint') return { start, end: resolveTimePoint(range.end, nowNs) };
  const other = clampInt64(addDuration(start, range.end));
  return other < start ? { start: other, end: start } : { start, end: other };
}

/** True when `d` can be a GROUP BY bucket: positive, and not mixing months with fixed units. */
export function isBucketDuration(d: DurationValue): boolean {
  return d.months === 0 ? d.nanos > 0n : d.months > 0 && d.nanos === 0n;
}

/**
 * Start of the GROUP BY bucket holding `ts`, e.g. `bucketStart(ts, weekDuration)` is the
 * Monday 00:00 UTC on or before `ts`. Fixed durations align to the epoch, weeks (the
 * largest unit written is `w`) to Mondays, month and year durations to the 1st of a month
 * counted from January 1970 (`1y` buckets start on January 1st). Days need nothing special: UTC
 * days are fixed-length and the epoch is a midnight. The next bucket starts at
 * `addDuration(start, d)`. Throws RangeError unless `isBucketDuration(d)`.
 */
export function bucketStart(ts: bigint, d: DurationValue): bigint {
  if (!isBucketDuration(d)) throw new RangeError(`invalid bucket duration (months ${d.months}, nanos ${d.nanos})`);
  if (d.months > 0) {
    const date = civilFromDays(Number(floorDiv(ts, NS_PER_DAY)));
    const index = (date.year - 1970) * 12 + (date.month - 1);
    const bucket = Math.floor(index / d.months) * d.months;
    const year = 1970 + Math.floor(bucket / 12);
    return BigInt(daysFromCivil(year, bucket - (year - 1970) * 12 + 1, 1)) * NS_PER_DAY;
  }
  const origin = d.calendarUnit === 'w' ? MONDAY_ORIGIN : 0n;
  return origin + floorDiv(ts - origin, d.nanos) * d.nanos;
}

/** RFC 3339 in UTC with nanoseconds, trailing zeros trimmed: `2017-01-01T00:00:00.5Z`. */
export function formatTimestamp(ns: bigint): string {
  const days = floorDiv(ns, NS_PER_DAY);
  const { year, month, day } = civilFromDays(Number(days));
  const inDay = ns - days * NS_PER_DAY;
  const seconds = Number(inDay / 1_000_000_000n);
  const fraction = (inDay % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/**
 * A time of day `h[h]:mm[:ss[.fraction]]` as nanoseconds since midnight UTC, or null when it is
 * no time of day. `24:00` (the end of a day) is accepted: calendar filters are end-exclusive.
 */
export function parseTimeOfDay(text: string): bigint | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(text);
  if (m === null) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const fraction = BigInt((m[4] ?? '').padEnd(9, '0'));
  if (min > 59 || s > 59 || h > 24 || (h === 24 && (min > 0 || s > 0 || fraction > 0n))) return null;
  return BigInt((h * 60 + min) * 60 + s) * 1_000_000_000n + fraction;
}

/** `hh:mm[:ss[.fraction]]` of nanoseconds since midnight, trailing zero parts trimmed. */
export function formatTimeOfDay(ns: bigint): string {
  const seconds = Number(ns / 1_000_000_000n);
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hm = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}`;
  return seconds % 60 === 0 && fraction === '' ? hm : `${hm}:${pad(seconds % 60)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Type guard used by callers that hold a `TimePoint | Duration` (a RANGE end). */
export function isDuration(x: TimePoint | Duration): x is Duration {
  return x.kind === 'Duration';
}

function inInt64(ns: bigint): bigint | null {
  return ns < INT64_MIN || ns > INT64_MAX ? null : ns;
}

function clampInt64(ns: bigint): bigint {
  return ns < INT64_MIN ? INT64_MIN : ns > INT64_MAX ? INT64_MAX : ns;
}
