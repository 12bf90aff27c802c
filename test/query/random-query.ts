// Random query models for the differential test: plain and aggregate SELECTs over the random
// tables, with ranges that cut batches, WHERE conditions, GROUP BY durations and columns,
// HAVING, ORDER BY, LIMIT and OFFSET. ORDER BY and HAVING only use exactly computed values, so
// float rounding differences between the engine and the reference cannot reorder rows.
import type { MBucket, MCalendar, MCond, MExpr, MItem, MQuery } from './query-model.js';
import type { Rng } from './random-data.js';
import { BASE, SPAN, int, pick } from './random-data.js';

const col = (name: string): MExpr => ({ k: 'col', name });
const dbl = (v: number): MExpr => ({ k: 'dbl', v });
const i64 = (v: number): MExpr => ({ k: 'int', v: BigInt(v) });
const agg = (name: string, arg: MExpr | '*'): MExpr => ({ k: 'agg', name, arg });
const arith = (op: '+' | '-' | '*' | '/', l: MExpr, r: MExpr): MExpr => ({ k: 'arith', op, l, r });

const H = 3_600_000_000_000n;
const BUCKETS: MBucket[] = [
  { text: '1h', nanos: H, months: 0, isWeek: false },
  { text: '30min', nanos: H / 2n, months: 0, isWeek: false },
  { text: '3h', nanos: 3n * H, months: 0, isWeek: false },
  { text: '1d', nanos: 24n * H, months: 0, isWeek: false },
  { text: 'day', nanos: 24n * H, months: 0, isWeek: false },
  { text: '1w', nanos: 168n * H, months: 0, isWeek: true },
  { text: '1mon', nanos: 0n, months: 1, isWeek: false },
  { text: '2mon', nanos: 0n, months: 2, isWeek: false },
  { text: '7min', nanos: 7n * 60_000_000_000n, months: 0, isWeek: false },
];

// int64 ⊕ double is `dv - 3` here, not `dv - iv`: iv holds ±2^60 values that cancel, and a double
// sum of such terms depends on summation order, which the engine is free to choose (the
// reference adds in row order). Column-with-column mixing is covered by examples.test.ts.
const NUMERIC: MExpr[] = [col('dv'), col('iv'), arith('*', col('dv'), dbl(2)), arith('+', col('iv'), i64(1)), arith('-', col('dv'), i64(3)), arith('/', col('iv'), i64(3))];
const ORDERED: MExpr[] = [...NUMERIC, col('tv'), col('$timestamp')];
const ANY: MExpr[] = [...ORDERED, col('sv'), col('sym'), col('bv')];
const ANY_NAMES = ['count', 'first', 'last', 'distinct_count', 'adjacent_count'];
const ORDERED_NAMES = ['min', 'max', 'spread'];
const NUMBER_NAMES = ['sum', 'avg', 'arithmetic_mean', 'harmonic_mean', 'geometric_mean', 'quadratic_mean', 'product', 'sum_of_squares',
  'abs_min', 'abs_max', 'sample_variance', 'sample_stddev', 'population_variance', 'population_stddev', 'skewness', 'kurtosis'];
const PATTERNS = ['^a', 'b$', 'a.c', '[xy]', 'A', 'z'];
const fn = (name: string, ...args: MExpr[]): MExpr => ({ k: 'fn', name, args });
const seq = (name: string, arg: MExpr, param: MExpr | null = null): MExpr => ({
  k: 'seq', name, arg, param: param === null ? null : param.k === 'int' ? { k: 'n', v: Number(param.v) } : { k: 'unit', text: '1min', nanos: 60_000_000_000n },
});
const MINUTE_UNIT: MExpr = { k: 'str', v: '1min' };

/** Scalar functions over row values (every one, with nulls, NaN and int64 near 2^60 in the data). */
function scalarExpr(r: Rng): MExpr {
  const x = pick(r, NUMERIC);
  switch (int(r, 0, 10)) {
    case 0: return fn('abs', x);
    case 1: return fn(pick(r, ['ceil', 'floor']), x);
    case 2: return fn('round', x, i64(int(r, -2, 2)));
    case 3: return fn('sqrt', fn('abs', x));
    case 4: return fn('sign', x);
    case 5: return fn(pick(r, ['ln', 'log10']), col('dv'));
    case 6: return fn('exp', col('dv'));
    case 7: return fn('pow', col('dv'), pick(r, [i64(2), dbl(0.5)]));
    case 8: return pick(r, [fn('coalesce', col('iv'), i64(int(r, -3, 3))), fn('coalesce', col('dv'), dbl(1.5)), fn('coalesce', col('sv'), col('sym'))]);
    case 9: return fn('round', fn('abs', arith('*', col('dv'), dbl(1.25))), i64(1));
    default: return fn('abs', arith('-', col('iv'), i64(3)));
  }
}

/** Row-sequence functions over row values. */
function rowSequence(r: Rng): MExpr {
  switch (int(r, 0, 6)) {
    case 0: return seq(pick(r, ['cumsum', 'cumulative_sum']), pick(r, [col('dv'), col('iv')]));
    case 1: return seq(pick(r, ['ma', 'moving_average']), pick(r, [col('dv'), col('iv')]), i64(int(r, 1, 4)));
    case 2: return seq('delta', pick(r, [col('dv'), col('iv'), col('tv'), col('$timestamp')]));
    case 3: return seq(pick(r, ['derivative', 'non_negative_derivative']), pick(r, [col('dv'), col('iv')]), r() < 0.5 ? null : MINUTE_UNIT);
    case 4: return seq('lag', pick(r, [col('dv'), col('iv'), col('sv'), col('sym'), col('bv')]), r() < 0.5 ? null : i64(int(r, 0, 3)));
    case 5: return seq('delta', seq('cumsum', col('iv')));
    default: return fn('round', seq('cumsum', col('dv')), i64(1));
  }
}

/** Sequence functions over exact aggregates (under GROUP BY duration). */
function groupSequence(r: Rng): MExpr {
  const a = exactNumber(r);
  switch (int(r, 0, 4)) {
    case 0: return seq('cumsum', a);
    case 1: return seq('delta', a);
    case 2: return seq(pick(r, ['derivative', 'non_negative_derivative']), a, r() < 0.5 ? null : MINUTE_UNIT);
    case 3: return seq('lag', a, r() < 0.5 ? null : i64(int(r, 1, 3)));
    default: return seq('moving_average', a, i64(int(r, 1, 3)));
  }
}

/** Calendar filters: months around the data's (January to April), ISO weekdays, times of day. */
export function calendar(r: Rng, times: readonly bigint[]): MCalendar {
  const pair = <T>(a: () => T, b: () => T): [T, T] => { for (;;) { const x = a(); const y = b(); if (x !== y) return [x, y]; } };
  const clock = (): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) % 86_400_000_000_000n : BigInt(int(r, 0, 1440)) * 60_000_000_000n);
  const cal: MCalendar = {
    months: r() < 0.4 ? pair(() => int(r, 1, 5), () => int(r, 1, 13)) : null,
    days: r() < 0.4 ? pair(() => int(r, 1, 7), () => int(r, 1, 8)) : null,
    times: r() < 0.5 ? pair(clock, clock) : null,
  };
  return cal.months === null && cal.days === null && cal.times === null ? { ...cal, times: pair(clock, clock) } : cal;
}

function randomAggregate(r: Rng): MExpr {
  const family = r();
  if (family < 0.3) return agg(pick(r, ANY_NAMES), pick(r, ANY));
  if (family < 0.5) return agg(pick(r, ORDERED_NAMES), pick(r, ORDERED));
  return agg(pick(r, NUMBER_NAMES), pick(r, NUMERIC));
}

/** Aggregates whose value is exact (no float rounding): safe for ORDER BY and HAVING. */
function exactAggregate(r: Rng): MExpr {
  const name = pick(r, ['count', 'min', 'max', 'first', 'last', 'sum', 'distinct_count', 'spread']);
  const arg = name === 'sum' ? pick(r, [col('iv'), arith('+', col('iv'), i64(1))]) : name === 'count' || name === 'distinct_count' ? pick(r, ANY)
    : pick(r, [col('dv'), col('iv'), col('tv'), col('$timestamp')]);
  return agg(name, name === 'first' || name === 'last' ? pick(r, ANY) : arg);
}

/** Exact aggregates of numeric type, for arithmetic. */
function exactNumber(r: Rng): MExpr {
  const name = pick(r, ['count', 'min', 'max', 'sum', 'distinct_count', 'spread', 'first', 'last']);
  return agg(name, name === 'sum' ? col('iv') : pick(r, [col('dv'), col('iv')]));
}

function literalFor(r: Rng, e: MExpr): MExpr {
  if (e.k === 'col' && (e.name === 'sv' || e.name === 'sym' || e.name === 'bv')) return { k: 'str', v: pick(r, ['a', 'abc', 'x', 'ax', '', 'z']) };
  return r() < 0.5 ? i64(int(r, -5, 5)) : dbl(int(r, -10, 10) / 2);
}

/** `e IN (…)` / `NOT IN`, or the same as a chain of `=` ORs (`!=` ANDs), which the planner folds into one set. */
function membership(r: Rng): MCond {
  const e = pick(r, [...NUMERIC, col('sv'), col('sym'), col('bv'), col('tv')]);
  const value = (): MExpr => (e.k === 'col' && e.name === 'tv'
    ? { k: 'time', v: BASE + BigInt(int(r, 0, 1000)) * 1_000_000_000n }
    : literalFor(r, e));
  const values = Array.from({ length: int(r, 1, 5) }, value);
  const isNegated = r() < 0.4;
  if (r() < 0.3 && values.length > 1) {
    // Spelled out: the folding into a set must give the same rows as the comparisons.
    const terms: MCond[] = values.map((v) => ({ k: 'cmp', op: isNegated ? '!=' : '=', l: e, r: v }));
    return terms.reduce((a, b) => ({ k: isNegated ? 'and' : 'or', l: a, r: b }));
  }
  return { k: 'in', e, values, withNull: r() < 0.15, isNegated };
}

export function rowCondition(r: Rng, depth: number, times: readonly bigint[]): MCond {
  const x = r();
  if (x > 0.9) return membership(r);
  if (depth > 0 && x < 0.3) return { k: r() < 0.5 ? 'and' : 'or', l: rowCondition(r, depth - 1, times), r: rowCondition(r, depth - 1, times) };
  if (depth > 0 && x < 0.38) return { k: 'not', c: rowCondition(r, depth - 1, times) };
  if (x < 0.55) return { k: 'regex', op: pick(r, ['~', '!~', '~*', '!~*'] as const), e: pick(r, [col('sv'), col('sym'), col('bv')]), pattern: pick(r, PATTERNS) };
  if (x < 0.62) return { k: 'cmp', op: pick(r, ['=', '!=', '<'] as const), l: col('sv'), r: col('sym') };
  if (x < 0.7) return timeTerm(r, col(pick(r, ['$timestamp', 'tv'])), times);
  if (x < 0.74) return { k: 'and', l: timeTerm(r, col('$timestamp'), times), r: rowCondition(r, depth - 1, times) };
  const l = pick(r, [...NUMERIC, col('sv'), col('sym'), col('bv')]);
  return { k: 'cmp', op: pick(r, ['=', '!=', '<', '<=', '>', '>='] as const), l, r: literalFor(r, l) };
}

/**
 * `e <op> <time>` with any operator, either way round; `times` are the data's row times. On `$timestamp` at the top of a WHERE
 * (or under AND) such terms narrow the scan instead of being tested (plan/time-bounds.ts).
 */
function timeTerm(r: Rng, e: MExpr, times: readonly bigint[]): MCond {
  const x = r();
  // A row's own time a third of the time, so `<` and `<=` (and `>`, `>=`) differ on the data.
  const v = times.length > 0 && x < 1 / 3 ? pick(r, times)
    : x < 2 / 3 ? BASE + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n))) * 1_000_000_000n
    : BASE + BigInt(int(r, 0, 1000)) * 1_000_000_000n;
  const time: MExpr = { k: 'time', v };
  const op = pick(r, ['<', '<=', '>', '>=', '=', '!='] as const);
  return r() < 0.25 ? { k: 'cmp', op, l: time, r: e } : { k: 'cmp', op, l: e, r: time };
}

/** Ranges; `times` (row timestamps of the data) make bounds land exactly on rows half the time. */
export function ranges(r: Rng, times: readonly bigint[]): { from: bigint; to: bigint }[] {
  const count = pick(r, [0, 0, 1, 1, 1, 2]);
  const bound = (t: bigint): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) : t);
  return Array.from({ length: count }, () => {
    const a = BASE - H + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n))) * 1_000_000_000n;
    const len = BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n) * pick(r, [0.01, 0.3, 1]))) * 1_000_000_000n;
    const from = bound(a);
    const to = bound(a + len);
    return to >= from ? { from, to } : { from: to, to: from };
  });
}

function limits(r: Rng): { limit: number | null; offset: number | null } {
  return { limit: r() < 0.35 ? int(r, 0, 12) : null, offset: r() < 0.2 ? int(r, 0, 5) : null };
}

export function randomQuery(r: Rng, tables: readonly string[], times: readonly bigint[] = []): MQuery {
  const from = r() < 0.25 && tables.length > 1 ? [...tables] : [pick(r, tables)];
  const x = r();
  const q = x < 0.08 && tables.length > 1 ? joinQuery(r, tables, times)
    : x < 0.16 ? pointQuery(r, from, times) : x < 0.5 ? rowQuery(r, from, times) : aggregateQuery(r, from, times);
  // Calendar filters cut the ranges (they are part of the IN clause).
  return q.ranges.length > 0 && r() < 0.15 ? { ...q, calendar: calendar(r, times) } : q;
}

/**
 * FROM a [LEFT | RIGHT | FULL] ASOF JOIN b: qualified columns, plain rows or aggregates per bucket,
 * with row-sequence functions over the joined rows or over the buckets, and FILL.
 */
function joinQuery(r: Rng, tables: readonly string[], times: readonly bigint[]): MQuery {
  const [left, right] = r() < 0.5 ? [tables[0], tables[1]] : [tables[1], tables[0]];
  const type = pick(r, ['inner', 'left', 'right', 'full'] as const);
  const q = (t: string, c: string): MExpr => col(`${t}.${c}`);
  const cols = ['dv', 'iv', 'sv', 'sym', 'bv', 'tv'].flatMap((c) => [q(left, c), q(right, c)]);
  const numbers = [q(left, 'dv'), q(left, 'iv'), q(right, 'dv'), q(right, 'iv')];
  const where: MCond | null = r() < 0.4 ? { k: 'cmp', op: pick(r, ['<', '>=', '!='] as const), l: pick(r, numbers), r: i64(int(r, -5, 5)) } : null;
  const base = { tables: [left], join: { type, tables: [right] }, ranges: ranges(r, times), where, keys: [], having: null, orderBy: [], limit: null, offset: null };
  const withSequences = r() < 0.25;
  if (r() < 0.5) {
    const rowItem = (): MExpr => {
      if (withSequences && r() < 0.5) {
        const arg = pick(r, numbers);
        return pick(r, [seq('cumsum', arg), seq('delta', arg), seq('lag', pick(r, cols)), seq('moving_average', arg, i64(int(r, 1, 3))), seq('derivative', arg)]);
      }
      return r() < 0.2 ? q(pick(r, [left, right]), '$timestamp') : r() < 0.2 ? arith('-', q(left, 'dv'), q(right, 'dv')) : pick(r, cols);
    };
    const items: MItem[] = r() < 0.3 && !withSequences ? [{ k: 'star' }] : Array.from({ length: int(r, 1, 4) }, () => ({ k: 'item' as const, e: rowItem(), alias: null }));
    return { ...base, items, bucket: null };
  }
  const bucket = r() < 0.6 ? pick(r, BUCKETS) : null;
  // Exact aggregates only under sequences: a double sum's rounding depends on the summation order.
  const aggregate = (): MExpr => agg(pick(r, ['count', 'min', 'max']), pick(r, numbers));
  const items: MItem[] = Array.from({ length: int(r, 1, 3) }, () => ({
    k: 'item' as const,
    e: withSequences && bucket !== null && r() < 0.5 ? pick(r, [seq('cumsum', aggregate()), seq('delta', aggregate()), seq('lag', aggregate())])
      : r() < 0.2 ? agg('count', '*') : agg(pick(r, ['count', 'min', 'max', 'sum']), pick(r, numbers)),
    alias: null,
  }));
  const canFill = bucket !== null && (bucket.months > 0 || bucket.nanos >= 24n * H);
  return { ...base, items, bucket, fill: canFill && r() < 0.3 ? pick(r, ['NULL', 'PREV', 'LINEAR', '0']) : null };
}

/** A lone first/last/min/max/abs_* without grouping: the row time is the picked row's. */
function pointQuery(r: Rng, tables: string[], times: readonly bigint[]): MQuery {
  const name = pick(r, ['first', 'last', 'min', 'max', 'abs_min', 'abs_max']);
  const arg = name.startsWith('abs') ? pick(r, NUMERIC) : name === 'min' || name === 'max' ? pick(r, ORDERED) : pick(r, ANY);
  return {
    tables, items: [{ k: 'item', e: agg(name, arg), alias: null }], ranges: ranges(r, times), where: r() < 0.3 ? rowCondition(r, 1, times) : null,
    bucket: null, keys: [], having: null, orderBy: [], limit: null, offset: null,
  };
}

function rowQuery(r: Rng, tables: string[], times: readonly bigint[]): MQuery {
  const withSequences = r() < 0.25;
  const item = (): MExpr => {
    const x = r();
    if (withSequences && x < 0.4) return rowSequence(r);
    if (x < 0.5) return x < 0.08 ? { k: 'table' as const } : scalarExpr(r);
    return pick(r, ANY);
  };
  const items: MItem[] = r() < 0.3 && !withSequences ? [{ k: 'star' }] : Array.from({ length: int(r, 1, 4) }, (_, i) => ({ k: 'item' as const, e: item(), alias: r() < 0.2 ? `a${i}` : null }));
  // Sorting by a moving average could swap rows its rounding sets apart: positions of other items only.
  const positions = items[0].k === 'star' ? [1, 2, 3, 4, 5, 6, 7] : items.flatMap((it, i) => (it.k === 'item' && it.e.k !== 'seq' && it.e.k !== 'fn' ? [i + 1] : []));
  const orderBy = r() < 0.4 ? Array.from({ length: int(r, 1, 2) }, () => ({
    e: r() < 0.3 && positions.length > 0 ? pick(r, positions) : pick(r, ANY), isDesc: r() < 0.5,
  })) : [];
  // GROUP BY a column beside sequence functions partitions the rows.
  const hasSequence = items.some((it) => it.k === 'item' && JSON.stringify(it.e, (_, v) => (typeof v === 'bigint' ? String(v) : v)).includes('"seq"'));
  const keys = hasSequence && r() < 0.4 ? [pick(r, ['sym', 'iv', 'sv'])] : [];
  return { tables, items, ranges: ranges(r, times), where: r() < 0.6 ? rowCondition(r, 2, times) : null, bucket: null, keys, having: null, orderBy, ...limits(r) };
}

function aggregateQuery(r: Rng, tables: string[], times: readonly bigint[]): MQuery {
  const bucket = r() < 0.45 ? pick(r, BUCKETS) : null;
  const keys = r() < 0.35 ? [...new Set(Array.from({ length: int(r, 1, 2) }, () => pick(r, ['iv', 'sym', 'sv', 'bv', 'dv'])))] : [];
  const items: MItem[] = [];
  const exact: boolean[] = [];
  const add = (e: MExpr, isExact: boolean): void => { items.push({ k: 'item', e, alias: r() < 0.15 ? `a${items.length}` : null }); exact.push(isExact); };
  if (bucket !== null && r() < 0.5) add(col('$timestamp'), true);
  for (const k of keys) if (r() < 0.7) add(col(k), true);
  const n = int(r, 1, 4);
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.1) add(agg('count', '*'), true);
    else if (x < 0.25) add(arith(pick(r, ['+', '-', '*', '/'] as const), exactNumber(r), pick(r, [exactNumber(r), i64(2), dbl(0.5)])), false);
    else if (x < 0.55) add(exactAggregate(r), true);
    else if (x < 0.65) add(pick(r, [fn('round', exactNumber(r), i64(int(r, -1, 2))), fn('abs', exactNumber(r)), agg('sum', fn(pick(r, ['abs', 'sign', 'floor']), pick(r, NUMERIC))), fn('coalesce', exactNumber(r), i64(0))]), false);
    else if (x < 0.75 && bucket !== null) add(groupSequence(r), false);
    else add(randomAggregate(r), false);
  }
  const having: MCond | null = r() < 0.25 ? havingCondition(r, keys) : null;
  const orderBy = r() < 0.45 ? Array.from({ length: int(r, 1, 2) }, () => {
    // count(*) expands to several columns, which shifts positions: use positions only without it.
    const hasCountStar = items.some((it) => it.k === 'item' && it.e.k === 'agg' && it.e.arg === '*');
    const positions = exact.flatMap((isExact, i) => (isExact ? [i + 1] : []));
    const e: MExpr | number = r() < 0.3 && positions.length > 0 && !hasCountStar
      ? pick(r, positions) : r() < 0.3 && keys.length > 0 ? col(pick(r, keys)) : exactAggregate(r);
    return { e, isDesc: r() < 0.5 };
  }) : [];
  // FILL over coarse buckets and at most one key column (a bucket per day over 100 days, ×5 symbols).
  const canFill = bucket !== null && having === null && (bucket.months > 0 || bucket.nanos >= 24n * H) && keys.length <= 1 && (keys.length === 0 || keys[0] === 'sym');
  const fill = canFill && r() < 0.3 ? pick(r, ['NULL', 'PREV', 'LINEAR', '0', '-2']) : null;
  return { tables, items, ranges: ranges(r, times), where: r() < 0.4 ? rowCondition(r, 1, times) : null, bucket, keys, having, orderBy, ...limits(r), fill };
}

function havingCondition(r: Rng, keys: readonly string[]): MCond {
  const x = r();
  if (x < 0.2 && keys.includes('sym')) return { k: 'regex', op: '~', e: col('sym'), pattern: pick(r, PATTERNS) };
  if (x < 0.35) return { k: r() < 0.5 ? 'and' : 'or', l: havingCondition(r, keys), r: havingCondition(r, keys) };
  if (x < 0.45) {
    const e = agg(pick(r, ['count', 'min', 'max']), pick(r, [col('dv'), col('iv')]));
    return { k: 'in', e, values: Array.from({ length: int(r, 1, 4) }, () => i64(int(r, -3, 6))), withNull: r() < 0.2, isNegated: r() < 0.5 };
  }
  const a = agg(pick(r, ['count', 'min', 'max']), pick(r, [col('dv'), col('iv')]));
  return { k: 'cmp', op: pick(r, ['<', '>=', '=', '!='] as const), l: a, r: a.k === 'agg' && a.name === 'count' ? i64(int(r, 0, 6)) : i64(int(r, -5, 5)) };
}
