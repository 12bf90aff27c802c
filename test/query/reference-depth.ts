// The reference evaluator's part for the language beyond the core (reference.ts calls it): ASOF
// JOIN as a table of joined rows, calendar filters as a predicate on each row's time, scalar
// functions on one value, row-sequence functions over a list of values in order, and FILL's
// bucket axis. Naive on purpose: every join row scans the other table, every filter decodes its
// row's date, every window is summed afresh.
import type { ColumnDef } from '../../engine/types.js';
import type { MCalendar, MJoin, MParam } from './query-model.js';
import type { Cell, RefRow, RefTable } from './reference.js';

const DAY = 86_400_000_000_000n;

/** A joined row: its values by qualified column, and each table's matched row time. */
export interface JoinedRow extends RefRow {
  readonly sideTimes: Readonly<Record<string, bigint | null>>;
}

/**
 * The rows of `left` [type] ASOF JOIN `joined` as a table named after `left`, with columns
 * `table.column` of every table in order. A row of one table takes from each other table its last
 * row at or before the row's time (the last inserted of a tie).
 */
export function joinTable(left: RefTable, joined: readonly RefTable[], join: MJoin): RefTable {
  const sides = [left, ...joined];
  const columns: ColumnDef[] = sides.flatMap((t) => t.columns.map((c) => ({ name: `${t.name}.${c.name}`, type: c.type })));
  const lastAtOrBefore = (t: RefTable, ts: bigint): RefRow | null => {
    let found: RefRow | null = null;
    for (const row of t.rows) if (row.ts <= ts) found = row;
    return found;
  };
  const rowOf = (ts: bigint, own: number, ownRow: RefRow): JoinedRow | null => {
    const values: Cell[] = [];
    const sideTimes: Record<string, bigint | null> = {};
    for (let i = 0; i < sides.length; i++) {
      const match = i === own ? ownRow : lastAtOrBefore(sides[i], ts);
      if (match === null && join.type === 'inner') return null;
      values.push(...(match === null ? sides[i].columns.map(() => null) : match.values));
      sideTimes[`${sides[i].name}.$timestamp`] = match === null ? null : match.ts;
    }
    return { ts, values, sideTimes };
  };
  const out: { row: JoinedRow; side: number; at: number }[] = [];
  const drivers = join.type === 'full' ? sides.map((_, i) => i) : [join.type === 'right' ? 1 : 0];
  for (const i of drivers) {
    sides[i].rows.forEach((row, at) => {
      // FULL: a row at a time an earlier table has a row at is that table's row's to show.
      if (join.type === 'full' && sides.slice(0, i).some((t) => t.rows.some((r) => r.ts === row.ts))) return;
      const joinedRow = rowOf(row.ts, i, row);
      if (joinedRow !== null) out.push({ row: joinedRow, side: i, at });
    });
  }
  out.sort((a, b) => (a.row.ts < b.row.ts ? -1 : a.row.ts > b.row.ts ? 1 : a.side - b.side || a.at - b.at));
  return { name: left.name, columns, rows: out.map((o) => o.row) };
}

/** Whether a time passes the calendar filters (UTC; pairs [from, to), wrapping when from > to). */
export function calendarKeeps(ts: bigint, cal: MCalendar): boolean {
  const day = ts >= 0n ? ts / DAY : (ts - DAY + 1n) / DAY;
  const date = new Date(Number(day) * 86_400_000);
  const inPair = <T extends number | bigint>(v: T, [a, b]: readonly [T, T]): boolean => (a < b ? v >= a && v < b : v >= a || v < b);
  if (cal.months !== null && !inPair(date.getUTCMonth() + 1, cal.months)) return false;
  if (cal.days !== null && !inPair(((date.getUTCDay() + 6) % 7) + 1, cal.days)) return false;
  return cal.times === null || inPair(ts - day * DAY, cal.times);
}

/** C's round(): halves away from zero. */
function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

/** A scalar function of one row's argument values. */
export function scalarFunction(name: string, args: readonly Cell[]): Cell {
  if (name === 'coalesce') {
    const found = args.find((a) => a !== null);
    return found ?? null;
  }
  if (args.some((a) => a === null)) return null;
  const x = args[0];
  if (typeof x === 'bigint' && ['abs', 'ceil', 'floor', 'round', 'sign'].includes(name)) {
    if (name === 'abs') return BigInt.asIntN(64, x < 0n ? -x : x);
    if (name === 'sign') return x > 0n ? 1n : x < 0n ? -1n : 0n;
    const digits = name === 'round' && args.length > 1 ? Number(args[1]) : 0;
    if (digits >= 0) return x;
    const m = 10n ** BigInt(-digits);
    const r = x % m;
    const down = x - r;
    return BigInt.asIntN(64, 2n * (r < 0n ? -r : r) >= m ? down + (x < 0n ? -m : m) : down);
  }
  const v = Number(x);
  switch (name) {
    case 'abs': return Math.abs(v);
    case 'ceil': return Math.ceil(v);
    case 'floor': return Math.floor(v);
    case 'sqrt': return Math.sqrt(v);
    case 'exp': return Math.exp(v);
    case 'ln': return Math.log(v);
    case 'log10': return Math.log10(v);
    case 'pow': return Math.pow(v, Number(args[1]));
    case 'sign': return v > 0 ? 1 : v < 0 ? -1 : v === 0 ? 0 : NaN;
    case 'round': {
      const d = args.length > 1 ? Number(args[1]) : 0;
      if (d === 0) return roundHalfAway(v);
      const r = d > 0 ? roundHalfAway(v * 10 ** d) / 10 ** d : roundHalfAway(v / 10 ** -d) * 10 ** -d;
      return Number.isFinite(r) ? r : d > 0 ? v : 0;
    }
  }
  throw new Error(`reference: unknown function ${name}`);
}

const ALIASES: Readonly<Record<string, string>> = { cumulative_sum: 'cumsum', ma: 'moving_average' };

/** A sequence function over `values` in order, with each position's time. */
export function sequence(name: string, values: readonly Cell[], times: readonly bigint[], param: MParam | null): Cell[] {
  const fn = ALIASES[name] ?? name;
  const out: Cell[] = [];
  const n = param?.k === 'n' ? param.v : 1;
  const unit = param?.k === 'unit' ? Number(param.nanos) : 1e9;
  let sum: Cell = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const prev = i > 0 ? values[i - 1] : null;
    switch (fn) {
      case 'cumsum':
        if (v !== null) sum = sum === null ? v : typeof v === 'bigint' ? BigInt.asIntN(64, (sum as bigint) + v) : (sum as number) + (v as number);
        out.push(sum);
        break;
      case 'moving_average': {
        const window = values.slice(Math.max(0, i - n + 1), i + 1).filter((w) => w !== null);
        // int64 windows summed exactly, then divided (one rounding, as the engine does).
        const total = window.every((w) => typeof w === 'bigint') ? Number(window.reduce((a, b) => (a as bigint) + (b as bigint), 0n))
          : window.reduce((a: number, b) => a + Number(b), 0);
        out.push(window.length === 0 ? null : total / window.length);
        break;
      }
      case 'delta':
        out.push(i === 0 || v === null || prev === null ? null
          : typeof v === 'bigint' ? BigInt.asIntN(64, v - (prev as bigint)) : (v as number) - (prev as number));
        break;
      case 'derivative':
      case 'non_negative_derivative': {
        if (i === 0 || v === null || prev === null) { out.push(null); break; }
        const dt = times[i] - times[i - 1];
        const dx = typeof v === 'bigint' ? Number(v - (prev as bigint)) : (v as number) - (prev as number);
        const d = dt === 0n ? NaN : dx / (Number(dt) / unit);
        out.push(fn === 'non_negative_derivative' && d < 0 ? null : d);
        break;
      }
      case 'lag':
        out.push(i - n >= 0 ? values[i - n] : null);
        break;
      default:
        throw new Error(`reference: unknown sequence function ${name}`);
    }
  }
  return out;
}
