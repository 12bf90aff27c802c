// The page's one clock: every time it shows (the grid, the chart's axis and legend, the CSV, the
// range picker) is in UTC — the database's own zone and the default — or in the browser's local
// zone, switched in one place and remembered in the browser. Text is ISO 8601 with 24-hour times:
// `2026-11-28T14:30:00.000Z` in UTC, `2026-11-28T15:30:00.000+01:00` in local time.
export type ClockMode = 'utc' | 'local';

const CLOCK_KEY = 'svc.clock';

/** The calendar fields of an instant in one zone (month 1–12, weekday 0 = Sunday). */
export interface TimeFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly ms: number;
  /** Minutes east of UTC. */
  readonly offset: number;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function fieldsAt(ms: number, mode: ClockMode): TimeFields {
  const d = new Date(ms);
  return mode === 'utc'
    ? { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), ms: d.getUTCMilliseconds(), offset: 0 }
    : { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds(), ms: d.getMilliseconds(), offset: -d.getTimezoneOffset() };
}

/** `Z`, or `+05:30` / `-04:00`. */
export function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

export function dateText(f: TimeFields): string {
  return `${f.year}-${pad(f.month)}-${pad(f.day)}`;
}

/** `14:30`, with seconds and milliseconds only when asked. */
export function clockText(f: TimeFields, unit: 'minute' | 'second' | 'ms'): string {
  const hm = `${pad(f.hour)}:${pad(f.minute)}`;
  if (unit === 'minute') return hm;
  return unit === 'second' ? `${hm}:${pad(f.second)}` : `${hm}:${pad(f.second)}.${pad(f.ms, 3)}`;
}

/**
 * An instant as ISO 8601 in the clock's zone, with milliseconds and any sub-millisecond digits
 * the value has (`subMs`: nanosecond digits below the millisecond). '' for NaN (null).
 */
export function formatTime(ms: number, subMs: string, mode: ClockMode): string {
  if (Number.isNaN(ms)) return '';
  const f = fieldsAt(ms, mode);
  return `${dateText(f)}T${clockText(f, 'ms')}${subMs}${offsetText(f.offset)}`;
}

/** The zone's name for labels: `UTC`, or `local (Europe/Paris)`. */
export function zoneLabel(mode: ClockMode): string {
  if (mode === 'utc') return 'UTC';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `local${zone ? ` (${zone})` : ''}`;
}

/**
 * Milliseconds of the wall-clock time `text` (`YYYY-MM-DD HH:mm[:ss[.fff]]`, a `T` allowed for the
 * space) read in the clock's zone; NaN when it is not such a time.
 */
export function parseWallTime(text: string, mode: ClockMode): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(text.trim());
  if (m === null) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const fraction = Number((m[7] ?? '').padEnd(3, '0'));
  return mode === 'utc' ? Date.UTC(y, mo - 1, d, h, mi, s, fraction) : new Date(y, mo - 1, d, h, mi, s, fraction).getTime();
}

/** An instant as a wall-clock time in the clock's zone, `YYYY-MM-DD HH:mm:ss` (what parseWallTime reads). */
export function wallTimeText(ms: number, mode: ClockMode): string {
  const f = fieldsAt(ms, mode);
  return `${dateText(f)} ${clockText(f, f.ms === 0 ? 'second' : 'ms')}`;
}

const listeners: ((mode: ClockMode) => void)[] = [];

export function clockMode(): ClockMode {
  return localStorage.getItem(CLOCK_KEY) === 'local' ? 'local' : 'utc';
}

/** Switches every view to `mode` (they registered with onClockChange) and remembers it. */
export function setClockMode(mode: ClockMode): void {
  localStorage.setItem(CLOCK_KEY, mode);
  for (const fn of listeners) fn(mode);
}

export function onClockChange(fn: (mode: ClockMode) => void): void {
  listeners.push(fn);
}
