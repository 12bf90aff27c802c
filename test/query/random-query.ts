// Random query models for the differential test: plain and aggregate SELECTs over the random
// tables, with ranges that cut batches, WHERE conditions, GROUP BY durations and columns,
// HAVING, ORDER BY, LIMIT and OFFSET. ORDER BY and HAVING only use exactly computed values, so
// float rounding differences between the engine and the reference cannot reorder rows.
import type { MBucket, MCond, MExpr, MItem, MQuery } from './query-model.js';
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

function rowCondition(r: Rng, depth: number, times: readonly bigint[]): MCond {
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
function ranges(r: Rng, times: readonly bigint[]): { from: bigint; to: bigint }[] {
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
  return x < 0.1 ? pointQuery(r, from, times) : x < 0.45 ? rowQuery(r, from, times) : aggregateQuery(r, from, times);
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
  const items: MItem[] = r() < 0.3 ? [{ k: 'star' }] : Array.from({ length: int(r, 1, 4) }, (_, i) => ({
    k: 'item' as const, e: r() < 0.1 ? { k: 'table' as const } : pick(r, ANY), alias: r() < 0.2 ? `a${i}` : null,
  }));
  const visible = items[0].k === 'star' ? 7 : items.length;
  const orderBy = r() < 0.4 ? Array.from({ length: int(r, 1, 2) }, () => ({
    e: r() < 0.3 ? int(r, 1, visible) : pick(r, ANY), isDesc: r() < 0.5,
  })) : [];
  return { tables, items, ranges: ranges(r, times), where: r() < 0.6 ? rowCondition(r, 2, times) : null, bucket: null, keys: [], having: null, orderBy, ...limits(r) };
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
  return { tables, items, ranges: ranges(r, times), where: r() < 0.4 ? rowCondition(r, 1, times) : null, bucket, keys, having, orderBy, ...limits(r) };
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
