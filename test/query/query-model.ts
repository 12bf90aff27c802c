// A small structured query model for the differential test. The generator builds models, this
// file renders them to query text, and the reference evaluator reads the model directly, so the
// reference never shares the grammar or the planner with the engine under test.

export type ArithOp = '+' | '-' | '*' | '/';
export type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type RegexOp = '~' | '!~' | '~*' | '!~*';

export type MExpr =
  | { readonly k: 'col'; readonly name: string }
  | { readonly k: 'table' }
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'dbl'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'time'; readonly v: bigint }
  | { readonly k: 'arith'; readonly op: ArithOp; readonly l: MExpr; readonly r: MExpr }
  | { readonly k: 'agg'; readonly name: string; readonly arg: MExpr | '*' }
  /** A scalar function: abs, round(x, digits), coalesce, … */
  | { readonly k: 'fn'; readonly name: string; readonly args: readonly MExpr[] }
  /** A row-sequence function over rows (or, in an aggregate query, over buckets). */
  | { readonly k: 'seq'; readonly name: string; readonly arg: MExpr; readonly param: MParam | null };

/** The second argument of ma/lag (a count) or of derivative (a time unit). */
export type MParam = { readonly k: 'n'; readonly v: number } | { readonly k: 'unit'; readonly text: string; readonly nanos: bigint };

/** `WITH MONTHS / DAYS / TIME IN` pairs, [from, to) wrapping when from > to. */
export interface MCalendar {
  readonly months: readonly [number, number] | null;
  readonly days: readonly [number, number] | null;
  readonly times: readonly [bigint, bigint] | null;
}

/** `FROM t [type] ASOF JOIN tables`. */
export interface MJoin {
  readonly type: 'inner' | 'left' | 'right' | 'full';
  readonly tables: readonly string[];
}

export type MCond =
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly l: MExpr; readonly r: MExpr }
  | { readonly k: 'regex'; readonly op: RegexOp; readonly e: MExpr; readonly pattern: string }
  | { readonly k: 'and' | 'or'; readonly l: MCond; readonly r: MCond }
  /** `e [NOT] IN (values[, NULL])`. */
  | { readonly k: 'in'; readonly e: MExpr; readonly values: readonly MExpr[]; readonly withNull: boolean; readonly isNegated: boolean }
  | { readonly k: 'not'; readonly c: MCond };

export interface MBucket {
  readonly text: string;
  readonly nanos: bigint;
  readonly months: number;
  readonly isWeek: boolean;
}

export type MItem = { readonly k: 'star' } | { readonly k: 'item'; readonly e: MExpr; readonly alias: string | null };

export interface MQuery {
  readonly tables: readonly string[];
  readonly join?: MJoin | null;
  readonly items: readonly MItem[];
  readonly ranges: readonly { readonly from: bigint; readonly to: bigint }[];
  readonly calendar?: MCalendar | null;
  readonly where: MCond | null;
  readonly bucket: MBucket | null;
  readonly keys: readonly string[];
  /** FILL's argument as written: NULL, PREV, LINEAR or a number. */
  readonly fill?: string | null;
  readonly having: MCond | null;
  readonly orderBy: readonly { readonly e: MExpr | number; readonly isDesc: boolean }[];
  readonly limit: number | null;
  readonly offset: number | null;
}

/** The normalized text of an expression (SPEC §6 output names). */
export function exprText(e: MExpr): string {
  switch (e.k) {
    case 'col': return e.name;
    case 'table': return '$table';
    case 'int': return String(e.v);
    case 'dbl': return numberText(e.v);
    case 'str': return `'${e.v.replaceAll("'", "''")}'`;
    case 'time': return timeText(e.v);
    case 'arith': return `(${exprText(e.l)}${e.op}${exprText(e.r)})`;
    case 'agg': return `${e.name}(${e.arg === '*' ? '*' : exprText(e.arg)})`;
    case 'fn': return `${e.name}(${e.args.map(exprText).join(',')})`;
    case 'seq': return `${e.name}(${exprText(e.arg)}${e.param === null ? '' : `,${e.param.k === 'n' ? e.param.v : e.param.text}`})`;
  }
}

function numberText(v: number): string {
  const s = String(v);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

export function condText(c: MCond): string {
  switch (c.k) {
    case 'cmp': return `${exprText(c.l)} ${c.op} ${exprText(c.r)}`;
    case 'regex': return `${exprText(c.e)} ${c.op} '${c.pattern.replaceAll("'", "''")}'`;
    case 'and':
    case 'or': return `(${condText(c.l)} ${c.k.toUpperCase()} ${condText(c.r)})`;
    case 'not': return `NOT (${condText(c.c)})`;
    case 'in': return `${exprText(c.e)} ${c.isNegated ? 'NOT IN' : 'IN'} (${[...c.values.map(exprText), ...(c.withNull ? ['NULL'] : [])].join(', ')})`;
  }
}

/** A time literal with nanoseconds: 2017-01-01T10:00:35.123456789Z. */
export function timeText(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString();
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${frac}Z`;
}

/** hh:mm:ss.fffffffff of nanoseconds since midnight. */
export function timeOfDayText(ns: bigint): string {
  const s = ns / 1_000_000_000n;
  const pad = (n: bigint): string => String(n).padStart(2, '0');
  return `${pad(s / 3600n)}:${pad((s / 60n) % 60n)}:${pad(s % 60n)}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
}

export function renderQuery(q: MQuery): string {
  const items = q.items.map((it) => (it.k === 'star' ? '*' : it.alias === null ? exprText(it.e) : `${exprText(it.e)} AS ${it.alias}`));
  let text = `SELECT ${items.join(', ')} FROM ${q.tables.join(', ')}`;
  if (q.join) text += ` ${q.join.type === 'inner' ? '' : `${q.join.type.toUpperCase()} `}ASOF JOIN ${q.join.tables.join(', ')}`;
  if (q.ranges.length === 1) text += ` IN RANGE(${timeText(q.ranges[0].from)}, ${timeText(q.ranges[0].to)})`;
  if (q.ranges.length > 1) text += ` IN [${q.ranges.map((r) => `RANGE(${timeText(r.from)}, ${timeText(r.to)})`).join(', ')}]`;
  const cal = q.calendar;
  if (cal) {
    if (cal.months !== null) text += ` WITH MONTHS IN (${cal.months[0]}, ${cal.months[1]})`;
    if (cal.days !== null) text += ` WITH DAYS IN (${cal.days[0]}, ${cal.days[1]})`;
    if (cal.times !== null) text += ` WITH TIME IN (${timeOfDayText(cal.times[0])}, ${timeOfDayText(cal.times[1])})`;
  }
  if (q.where !== null) text += ` WHERE ${condText(q.where)}`;
  const groups = [...(q.bucket === null ? [] : [q.bucket.text]), ...q.keys];
  if (groups.length > 0) text += ` GROUP BY ${groups.join(', ')}`;
  if (q.fill) text += ` FILL(${q.fill})`;
  if (q.having !== null) text += ` HAVING ${condText(q.having)}`;
  if (q.orderBy.length > 0) {
    text += ` ORDER BY ${q.orderBy.map((o) => `${typeof o.e === 'number' ? o.e : exprText(o.e)}${o.isDesc ? ' DESC' : ''}`).join(', ')}`;
  }
  if (q.limit !== null) text += ` LIMIT ${q.limit}`;
  if (q.offset !== null) text += ` OFFSET ${q.offset}`;
  return text;
}
