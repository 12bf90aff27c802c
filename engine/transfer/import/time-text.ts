// RFC 3339 times as imports read them: `YYYY-MM-DD`, then optionally `T` (or a space) and
// `hh:mm[:ss[.fraction]]`, then optionally `Z` or an offset `±hh[:mm]` (none = UTC). The
// fraction keeps up to nine digits (nanoseconds). Out of int64 nanoseconds → null.
const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9})\d*)?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const NS_PER_MS = 1_000_000n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Nanoseconds since the epoch of an RFC 3339 time, or null when `text` is none. */
export function parseTime(text: string): bigint | null {
  const m = TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k] ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2017-02-30 over into March: such a date is not one.
  if (new Date(ms).getUTCDate() !== day || (year < 100 && year >= 0)) return null;
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0));
  const ns = BigInt(ms - offsetMinutes * 60_000) * NS_PER_MS + BigInt((m[7] ?? '').padEnd(9, '0'));
  return ns < INT64_MIN || ns > INT64_MAX ? null : ns;
}
