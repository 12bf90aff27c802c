// `WITH MONTHS IN / DAYS IN / TIME IN` as a range generator: a range is cut, before the scan, into
// the pieces of time the calendar filters keep (UTC days of the kept months and weekdays, and
// within them the kept time of day), adjacent pieces merged. The scan then reads the pieces as
// it reads ranges, so a batch wholly inside one is still answered from its statistics. Days are
// walked only across the data's span (the first and last row in the range), not the whole range.
import { civilFromDays, floorDiv, NS_PER_DAY } from '../../../../grammar/index.js';
import type { CalendarPlan, TimeRange } from '../../plan/plan-types.js';
import type { Slice } from './scan-slices.js';

/** The pieces of `range` the filters keep, ascending and disjoint, within `span` (null: no rows). */
export function calendarPieces(range: TimeRange, calendar: CalendarPlan, span: TimeRange | null): TimeRange[] {
  const out: TimeRange[] = [];
  if (span === null) return out;
  const from = range.from > span.from ? range.from : span.from;
  const to = range.to < span.to ? range.to : span.to;
  if (from >= to) return out;
  const push = (a: bigint, b: bigint): void => {
    const lo = a > from ? a : from;
    const hi = b < to ? b : to;
    if (lo >= hi) return;
    const last = out.at(-1);
    if (last !== undefined && last.to === lo) out[out.length - 1] = { from: last.from, to: hi };
    else out.push({ from: lo, to: hi });
  };
  const { months, weekdays, times } = calendar;
  const lastDay = Number(floorDiv(to - 1n, NS_PER_DAY));
  for (let day = Number(floorDiv(from, NS_PER_DAY)); day <= lastDay; day++) {
    if (months !== null && !isIn(civilFromDays(day).month, months)) continue;
    if (weekdays !== null && !isIn(isoWeekday(day), weekdays)) continue;
    const start = BigInt(day) * NS_PER_DAY;
    if (times === null) push(start, start + NS_PER_DAY);
    else if (times[0] < times[1]) push(start + times[0], start + times[1]);
    else {
      push(start, start + times[1]);
      push(start + times[0], start + NS_PER_DAY);
    }
  }
  return out;
}

/** The first row time and one past the last of `slices` (any order), or null when empty. */
export function spanOf(slices: readonly Slice[]): TimeRange | null {
  if (slices.length === 0) return null;
  let from = slices[0].minTs;
  let to = slices[0].maxTs;
  for (const s of slices) {
    if (s.minTs < from) from = s.minTs;
    if (s.maxTs > to) to = s.maxTs;
  }
  return { from, to: to + 1n };
}

/** ISO weekday of a day counted from 1970-01-01 (a Thursday): 1 = Monday … 7 = Sunday. */
function isoWeekday(day: number): number {
  return ((((day % 7) + 7 + 3) % 7) + 1);
}

/** Whether v is in [a, b), wrapping around when a > b. */
function isIn<T extends number | bigint>(v: T, [a, b]: readonly [T, T]): boolean {
  return a < b ? v >= a && v < b : v >= a || v < b;
}
