// Duration units of the query language (SPEC §6): parsing `1h30min` / `1y 2mon` / `day`, and the
// canonical text used in normalized output names. Months are kept apart from fixed nanoseconds
// because a month has no fixed length (Gregorian calendar).
import type { CalendarUnit, Duration } from './ast.js';

/** Canonical unit keys, largest first (the order `formatDuration` writes them in). */
export type DurationUnit = 'y' | 'mon' | 'w' | 'd' | 'h' | 'min' | 's' | 'ms' | 'us' | 'ns';

interface UnitInfo {
  readonly months: number;
  readonly nanos: bigint;
  /** Larger = coarser; picks the duration's `calendarUnit`. */
  readonly rank: number;
}

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

const UNITS: Readonly<Record<DurationUnit, UnitInfo>> = {
  y: { months: 12, nanos: 0n, rank: 9 },
  mon: { months: 1, nanos: 0n, rank: 8 },
  w: { months: 0, nanos: 7n * NS_PER_DAY, rank: 7 },
  d: { months: 0, nanos: NS_PER_DAY, rank: 6 },
  h: { months: 0, nanos: 3600n * NS_PER_SECOND, rank: 5 },
  min: { months: 0, nanos: 60n * NS_PER_SECOND, rank: 4 },
  s: { months: 0, nanos: NS_PER_SECOND, rank: 3 },
  ms: { months: 0, nanos: 1_000_000n, rank: 2 },
  us: { months: 0, nanos: 1_000n, rank: 1 },
  ns: { months: 0, nanos: 1n, rank: 0 },
};

// Every spelling, lowercase. `m` is deliberately absent: minute or month would be a guess.
const SPELLINGS: ReadonlyMap<string, DurationUnit> = new Map<string, DurationUnit>([
  ...spell('ns', 'nanosecond'), ...spell('us', 'microsecond'), ...spell('ms', 'millisecond'),
  ...spell('s', 'second'), ...spell('min', 'minute'), ...spell('h', 'hour'), ...spell('d', 'day'),
  ...spell('w', 'week'), ...spell('mon', 'month'), ...spell('y', 'year'),
]);

function spell(unit: DurationUnit, name: string): [string, DurationUnit][] {
  return [[unit, unit], [name, unit], [`${name}s`, unit]];
}

const CALENDAR_UNITS: ReadonlySet<DurationUnit> = new Set<DurationUnit>(['d', 'w', 'mon', 'y']);
const INT64_MAX = 9223372036854775807n;
/** Bound on months so month arithmetic stays exact in doubles (10,000 years). */
const MAX_MONTHS = 120_000;

/** Every unit spelling, lowercase, longest first (so a regex alternation prefers `mon` to `m…`). */
export const UNIT_SPELLINGS: readonly string[] = [...SPELLINGS.keys()].sort((x, y) => y.length - x.length);

/** The unit a word names (case-insensitive), or undefined: `unitOf('Hours')` → 'h'. */
export function unitOf(word: string): DurationUnit | undefined {
  return SPELLINGS.get(word.toLowerCase());
}

/** The value part of a Duration node (no kind/offset). */
export type DurationValue = Pick<Duration, 'months' | 'nanos' | 'calendarUnit'>;

/** Why a duration text is invalid, and where inside the text. */
export interface DurationProblem {
  readonly index: number;
  readonly message: string;
}

/**
 * Parses a duration such as `1h30min`, `1y 2mon` or `2 days`: parts of `digits [spaces] letters`,
 * optionally separated by spaces (the lexer guarantees that shape).
 */
export function parseDurationText(text: string): DurationValue | DurationProblem {
  // The lexer checks a duration and the builder reads it: each text is parsed once, and a
  // dashboard's `5min` once for all its refreshes. The values are never mutated.
  let known = parsedDurations.get(text);
  if (known === undefined) {
    if (parsedDurations.size >= MEMO_SIZE) parsedDurations.clear();
    known = parseDuration(text);
    parsedDurations.set(text, known);
  }
  return known;
}

const MEMO_SIZE = 1024;
const parsedDurations = new Map<string, DurationValue | DurationProblem>();

function parseDuration(text: string): DurationValue | DurationProblem {
  let months = 0;
  let nanos = 0n;
  let largest: DurationUnit | null = null;
  for (const part of text.matchAll(/(\d+)(\s*)([A-Za-z]+)/g)) {
    const [, digits = '', space = '', word = ''] = part;
    const unit = unitOf(word);
    const index = (part.index ?? 0) + digits.length + space.length;
    if (unit === undefined) return { index, message: unknownUnitMessage(word) };
    const info = UNITS[unit];
    const count = BigInt(digits);
    months += Number(count) * info.months;
    nanos += count * info.nanos;
    if (largest === null || info.rank > UNITS[largest].rank) largest = unit;
    if (Math.abs(months) > MAX_MONTHS || nanos > INT64_MAX) {
      return { index: part.index ?? 0, message: `duration '${text}' is too large` };
    }
  }
  return { months, nanos, calendarUnit: calendarUnitOf(largest) };
}

/** One of a bare unit: `day` → 1d. */
export function unitDuration(unit: DurationUnit): DurationValue {
  const info = UNITS[unit];
  return { months: info.months, nanos: info.nanos, calendarUnit: calendarUnitOf(unit) };
}

/** The canonical text of a duration, largest units first: 90min → `1h30min`, -1s → `-1s`. */
export function formatDuration(d: DurationValue): string {
  const isNegative = d.months < 0 || d.nanos < 0n;
  let months = Math.abs(d.months);
  let nanos = d.nanos < 0n ? -d.nanos : d.nanos;
  let text = '';
  for (const unit of Object.keys(UNITS) as DurationUnit[]) {
    const info = UNITS[unit];
    if (info.months > 0) {
      const count = Math.floor(months / info.months);
      months -= count * info.months;
      if (count > 0) text += `${count}${unit}`;
    } else {
      const count = nanos / info.nanos;
      nanos -= count * info.nanos;
      if (count > 0n) text += `${count}${unit}`;
    }
  }
  return (isNegative ? '-' : '') + (text === '' ? '0s' : text);
}

function calendarUnitOf(unit: DurationUnit | null): CalendarUnit | null {
  return unit !== null && CALENDAR_UNITS.has(unit) ? (unit as CalendarUnit) : null;
}

function unknownUnitMessage(word: string): string {
  const hint = word.toLowerCase() === 'm' ? " (write 'min' for minutes or 'mon' for months)" : '';
  return `'${word}' is not a duration unit${hint}; units are ns us ms s min h d w mon y`;
}
