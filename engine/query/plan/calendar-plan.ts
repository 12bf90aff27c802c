// Checks the calendar filters of an IN clause (`WITH MONTHS IN (3, 6) WITH TIME IN (22:00, 06:00)`)
// and turns them into a CalendarPlan. Months run 1–12 and weekdays 1 (Monday) to 7; the second
// value of a pair is exclusive, so it may also be 13 (after December) or 8 (after Sunday), and a
// time of day 24:00. A reversed pair wraps around; an equal pair would keep nothing and is refused.
import type { CalendarFilter } from '../../../grammar/index.js';
import { semanticError } from '../query-errors.js';
import type { CalendarPlan } from './plan-types.js';

const NAMES = { month: 'MONTHS', weekday: 'DAYS', time: 'TIME' } as const;

export function planCalendar(filters: readonly CalendarFilter[]): CalendarPlan | null {
  if (filters.length === 0) return null;
  let months: [number, number] | null = null;
  let weekdays: [number, number] | null = null;
  let times: [bigint, bigint] | null = null;
  for (const f of filters) {
    if (f.unit === 'time') times = [timeOf(f.from), timeOf(f.to)];
    else if (f.unit === 'month') months = [whole(f.from, 1, 12, 'a month from 1 to 12'), whole(f.to, 1, 13, 'a month from 1 to 12 (13: through December)')];
    else weekdays = [whole(f.from, 1, 7, 'an ISO weekday from 1 (Monday) to 7 (Sunday)'), whole(f.to, 1, 8, 'an ISO weekday from 1 to 7 (8: through Sunday)')];
    const pair = f.unit === 'time' ? times! : f.unit === 'month' ? months! : weekdays!;
    if (pair[0] === pair[1]) {
      throw semanticError(`WITH ${NAMES[f.unit]} IN keeps nothing when both values are equal: the second one is exclusive`, f.to.offset);
    }
  }
  return { months, weekdays, times };
}

function whole(e: CalendarFilter['from'], min: number, max: number, what: string): number {
  if (e.kind !== 'Number' || !e.isInteger || e.value < BigInt(min) || e.value > BigInt(max)) {
    throw semanticError(`expected ${what}, found ${e.kind === 'Number' ? e.text : 'a time of day'}`, e.offset);
  }
  return Number(e.value);
}

function timeOf(e: CalendarFilter['from']): bigint {
  if (e.kind !== 'TimeOfDay') throw semanticError('expected a time of day such as 08:30', e.offset);
  return e.ns;
}
