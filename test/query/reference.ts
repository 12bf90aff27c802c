// A naive, row-at-a-time evaluator of query models: the oracle of the differential test. It
// follows the documented semantics (SPEC §6 plus the decisions in engine/query/result.ts and the
// planner) as directly as possible: whole rows, plain loops, BigInt where values are int64, no
// batches, no statistics, no selection vectors.
import type { ColumnDef } from '../../engine/types.js';
import type { MCond, MExpr, MQuery } from './query-model.js';
import { exprText } from './query-model.js';

export type Cell = number | bigint | string | Uint8Array | null;
type Type = 'double' | 'int64' | 'timestamp' | 'string' | 'symbol' | 'blob';

export interface RefRow { readonly ts: bigint; readonly values: readonly Cell[] }
export interface RefTable { readonly name: string; readonly columns: readonly ColumnDef[]; readonly rows: readonly RefRow[] }
export interface RefOutputTable { readonly name: string; readonly columns: { name: string; type: string }[]; readonly rows: Cell[][] }
export interface RefResult { readonly tables: RefOutputTable[]; readonly scanned: number }

const TYPES: Record<string, Type> = { DOUBLE: 'double', INT64: 'int64', TIMESTAMP: 'timestamp', STRING: 'string', SYMBOL: 'symbol', BLOB: 'blob' };
const COUNTS = new Set(['count', 'distinct_count', 'adjacent_count']);
const POINTS = new Set(['first', 'last', 'min', 'max', 'abs_min', 'abs_max']);
const DOUBLES = new Set(['avg', 'arithmetic_mean', 'harmonic_mean', 'geometric_mean', 'quadratic_mean', 'product', 'sum_of_squares',
  'sample_variance', 'sample_stddev', 'population_variance', 'population_stddev', 'skewness', 'kurtosis']);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Ctx { readonly table: RefTable; readonly multi: boolean }
interface Group { readonly range: number; readonly bucket: bigint | null; readonly keys: Cell[]; readonly rows: RefRow[] }
interface Out { readonly name: string; readonly e: MExpr; readonly isCountStar: string | null; readonly hidden: boolean }

export function evaluate(q: MQuery, tables: ReadonlyMap<string, RefTable>): RefResult {
  let scanned = 0;
  const out: RefOutputTable[] = [];
  for (const name of q.tables) {
    const table = tables.get(name)!;
    const ctx: Ctx = { table, multi: q.tables.length > 1 };
    const ranges = q.ranges.length === 0 ? [null] : q.ranges;
    const perRange = ranges.map((r) => table.rows.filter((row) => r === null || (row.ts >= r.from && row.ts < r.to)));
    scanned += perRange.reduce((s, rows) => s + rows.length, 0) * referenced(q, table).size;
    const filtered = perRange.map((rows) => rows.filter((row) => q.where === null || cond(q.where, row, ctx)));
    const result = isAggregate(q) ? aggregateQuery(q, ctx, filtered) : rowQuery(q, ctx, filtered);
    if (result.rows.length > 0) out.push(result);
  }
  return { tables: out, scanned };
}

function isAggregate(q: MQuery): boolean {
  const exprs = [...q.items.flatMap((i) => (i.k === 'item' ? [i.e] : [])), ...q.orderBy.flatMap((o) => (typeof o.e === 'number' ? [] : [o.e]))];
  return q.bucket !== null || q.keys.length > 0 || q.having !== null || exprs.some(hasAgg);
}

function hasAgg(e: MExpr): boolean {
  return e.k === 'agg' || (e.k === 'arith' && (hasAgg(e.l) || hasAgg(e.r)));
}

/** Distinct referenced columns (SPEC §7 multiplier). */
function referenced(q: MQuery, table: RefTable): Set<string> {
  const set = new Set<string>();
  const all = (): void => { for (const c of table.columns) set.add(c.name); };
  const walk = (e: MExpr): void => {
    if (e.k === 'col') set.add(e.name);
    if (e.k === 'arith') { walk(e.l); walk(e.r); }
    if (e.k === 'agg') { if (e.arg === '*') all(); else walk(e.arg); }
  };
  const walkCond = (c: MCond): void => {
    if (c.k === 'cmp') { walk(c.l); walk(c.r); } else if (c.k === 'regex' || c.k === 'in') walk(c.e);
    else if (c.k === 'not') walkCond(c.c); else { walkCond(c.l); walkCond(c.r); }
  };
  for (const i of q.items) { if (i.k === 'star') { set.add('$timestamp'); all(); } else walk(i.e); }
  if (q.where !== null) walkCond(q.where);
  if (q.having !== null) walkCond(q.having);
  for (const k of q.keys) set.add(k);
  const aliases = new Set(q.items.flatMap((i) => (i.k === 'item' && i.alias !== null ? [i.alias] : [])));
  for (const o of q.orderBy) if (typeof o.e !== 'number' && !(o.e.k === 'col' && aliases.has(o.e.name))) walk(o.e);
  return set;
}

function outputs(q: MQuery, ctx: Ctx): Out[] {
  const outs: Out[] = [];
  for (const i of q.items) {
    if (i.k === 'star') {
      outs.push({ name: '$timestamp', e: { k: 'col', name: '$timestamp' }, isCountStar: null, hidden: false });
      if (ctx.multi) outs.push({ name: '$table', e: { k: 'table' }, isCountStar: null, hidden: false });
      for (const c of ctx.table.columns) outs.push({ name: c.name, e: { k: 'col', name: c.name }, isCountStar: null, hidden: false });
    } else if (i.e.k === 'agg' && i.e.name === 'count' && i.e.arg === '*' && ctx.table.columns.length > 0) {
      for (const c of ctx.table.columns) {
        const name = i.alias !== null && ctx.table.columns.length === 1 ? i.alias : `count(${c.name})`;
        outs.push({ name, e: { k: 'agg', name: 'count', arg: { k: 'col', name: c.name } }, isCountStar: c.name, hidden: false });
      }
    } else {
      outs.push({ name: i.alias ?? exprText(i.e), e: i.e, isCountStar: null, hidden: false });
    }
  }
  return outs;
}

/** ORDER BY → output indexes (adding hidden outputs for expressions). */
function orderKeys(q: MQuery, outs: Out[]): { index: number; isDesc: boolean }[] {
  return q.orderBy.map((o) => {
    if (typeof o.e === 'number') return { index: o.e - 1, isDesc: o.isDesc };
    const e = o.e;
    if (e.k === 'col' && q.items.some((i) => i.k === 'item' && i.alias === e.name)) {
      return { index: outs.findIndex((x) => x.name === e.name && !x.hidden), isDesc: o.isDesc };
    }
    outs.push({ name: 'hidden', e, isCountStar: null, hidden: true });
    return { index: outs.length - 1, isDesc: o.isDesc };
  });
}

function rowQuery(q: MQuery, ctx: Ctx, perRange: RefRow[][]): RefOutputTable {
  const outs = outputs(q, ctx);
  const keys = orderKeys(q, outs);
  const rows = perRange.flat().map((row) => [row.ts as Cell, ...outs.map((o) => value(o.e, row, ctx))]);
  return finish(q, ctx, outs, keys, rows);
}

function aggregateQuery(q: MQuery, ctx: Ctx, perRange: RefRow[][]): RefOutputTable {
  const outs = outputs(q, ctx);
  const keys = orderKeys(q, outs);
  const groups: Group[] = [];
  perRange.forEach((rows, range) => {
    const byKey = new Map<string, Group>();
    for (const row of rows) {
      const bucket = q.bucket === null ? null : bucketStart(row.ts, q.bucket);
      const keyValues = q.keys.map((k) => value({ k: 'col', name: k }, row, ctx));
      const id = `${bucket}|${keyValues.map(keyOf).join('|')}`;
      let g = byKey.get(id);
      if (g === undefined) { g = { range, bucket, keys: keyValues, rows: [] }; byKey.set(id, g); groups.push(g); }
      g.rows.push(row);
    }
  });
  const ordered = groups.map((g, i) => ({ g, i })).sort((a, b) => {
    if (a.g.range !== b.g.range) return a.g.range - b.g.range;
    if (a.g.bucket !== b.g.bucket) return a.g.bucket! < b.g.bucket! ? -1 : 1;
    for (let c = 0; c < a.g.keys.length; c++) {
      const r = orderCells(a.g.keys[c], b.g.keys[c]);
      if (r !== 0) return r;
    }
    return a.i - b.i;
  }).map((x) => x.g);
  const kept = ordered.filter((g) => q.having === null || groupCond(q.having, g, q, ctx));
  const visible = outs.filter((o) => !o.hidden);
  const point = q.bucket === null && q.keys.length === 0 && visible.length === 1 && visible[0].e.k === 'agg' && POINTS.has(visible[0].e.name)
    ? visible[0].e : null;
  const rows = kept.map((g) => {
    const rangeStart = q.ranges.length === 0 ? null : q.ranges[g.range].from;
    let time: Cell = g.bucket ?? rangeStart;
    if (point !== null) time = aggregate(point, g, ctx).ts ?? rangeStart;
    return [time, ...outs.map((o) => groupValue(o.e, g, q, ctx))];
  });
  return finish(q, ctx, outs, keys, rows);
}

function finish(q: MQuery, ctx: Ctx, outs: Out[], keys: { index: number; isDesc: boolean }[], rows: Cell[][]): RefOutputTable {
  const sorted = rows.map((r, i) => ({ r, i })).sort((a, b) => {
    for (const k of keys) {
      const x = a.r[k.index + 1];
      const y = b.r[k.index + 1];
      const c = orderCells(x, y) * (k.isDesc ? -1 : 1);
      if (c !== 0) return c;
    }
    return a.i - b.i;
  }).map((x) => x.r);
  const start = Math.min(q.offset ?? 0, sorted.length);
  const end = q.limit === null ? sorted.length : Math.min(sorted.length, start + q.limit);
  const kept = sorted.slice(start, end);
  const visible = outs.map((o, i) => ({ o, i })).filter((x) => !x.o.hidden);
  const isAgg = isAggregate(q);
  const columns = visible.map(({ o, i }) => {
    let type: string = typeOf(o.e, ctx, isAgg);
    if (o.e.k === 'agg' && COUNTS.has(o.e.name)) type = 'count';
    if (kept.length > 0 && kept.every((r) => r[i + 1] === null)) type = 'none';
    return { name: o.name, type };
  });
  return { name: ctx.table.name, columns, rows: kept.map((r) => [r[0], ...visible.map(({ i }) => r[i + 1])]) };
}

/** Ascending order, NaN after numbers, null last. */
export function orderCells(x: Cell, y: Cell): number {
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const xn = typeof x === 'number' && Number.isNaN(x);
  const yn = typeof y === 'number' && Number.isNaN(y);
  if (xn || yn) return xn === yn ? 0 : xn ? 1 : -1;
  return compare(x, y);
}

function compare(x: Cell, y: Cell): number {
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  if ((typeof x === 'number' || typeof x === 'bigint') && (typeof y === 'number' || typeof y === 'bigint')) {
    const a = Number(x);
    const b = Number(y);
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  }
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  const a = x instanceof Uint8Array ? x : encoder.encode(String(x));
  const b = y instanceof Uint8Array ? y : encoder.encode(String(y));
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function typeOf(e: MExpr, ctx: Ctx, isAgg: boolean): Type {
  switch (e.k) {
    case 'col': return e.name === '$timestamp' ? 'timestamp' : TYPES[ctx.table.columns.find((c) => c.name === e.name)!.type];
    case 'table': return 'string';
    case 'int': return 'int64';
    case 'dbl': return 'double';
    case 'str': return 'string';
    case 'time': return 'timestamp';
    case 'arith': {
      const l = typeOf(e.l, ctx, isAgg);
      const r = typeOf(e.r, ctx, isAgg);
      return l === 'double' || r === 'double' ? 'double' : 'int64';
    }
    case 'agg': {
      if (COUNTS.has(e.name)) return 'int64';
      if (DOUBLES.has(e.name)) return 'double';
      const t = e.arg === '*' ? 'timestamp' : typeOf(e.arg, ctx, false);
      if (e.name === 'spread') return t === 'double' ? 'double' : 'int64';
      return t;
    }
  }
}

function value(e: MExpr, row: RefRow, ctx: Ctx): Cell {
  switch (e.k) {
    case 'col': return e.name === '$timestamp' ? row.ts : row.values[ctx.table.columns.findIndex((c) => c.name === e.name)];
    case 'table': return ctx.table.name;
    case 'int': return e.v;
    case 'dbl': return e.v;
    case 'str': return e.v;
    case 'time': return e.v;
    case 'arith': return arith(e.op, value(e.l, row, ctx), value(e.r, row, ctx));
    case 'agg': throw new Error('aggregate in row context');
  }
}

function groupValue(e: MExpr, g: Group, q: MQuery, ctx: Ctx): Cell {
  switch (e.k) {
    case 'col': return e.name === '$timestamp' && q.bucket !== null ? g.bucket : g.keys[q.keys.indexOf(e.name)];
    case 'arith': return arith(e.op, groupValue(e.l, g, q, ctx), groupValue(e.r, g, q, ctx));
    case 'agg': return aggregate(e, g, ctx).value;
    default: return value(e, g.rows[0], ctx);
  }
}

function arith(op: string, a: Cell, b: Cell): Cell {
  if (a === null || b === null) return null;
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (op === '/') return b === 0n ? null : BigInt.asIntN(64, a / b);
    return BigInt.asIntN(64, op === '+' ? a + b : op === '-' ? a - b : a * b);
  }
  const x = Number(a);
  const y = Number(b);
  return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : y === 0 ? NaN : x / y;
}

function cond(c: MCond, row: RefRow, ctx: Ctx): boolean {
  return evalCond(c, (e) => value(e, row, ctx));
}

function groupCond(c: MCond, g: Group, q: MQuery, ctx: Ctx): boolean {
  return evalCond(c, (e) => groupValue(e, g, q, ctx));
}

function evalCond(c: MCond, v: (e: MExpr) => Cell): boolean {
  switch (c.k) {
    case 'and': return evalCond(c.l, v) && evalCond(c.r, v);
    case 'or': return evalCond(c.l, v) || evalCond(c.r, v);
    case 'not': return !evalCond(c.c, v);
    case 'regex': {
      const x = v(c.e);
      if (x === null) return false;
      const s = x instanceof Uint8Array ? decoder.decode(x) : String(x);
      return new RegExp(c.pattern, c.op.endsWith('*') ? 'i' : '').test(s) !== c.op.startsWith('!');
    }
    case 'in': {
      // `x IN (a, b)` is `x = a OR x = b`; `x NOT IN (a, b)` is `x != a AND x != b` (a NULL
      // value compares false, so it makes NOT IN false everywhere).
      const x = v(c.e);
      if (x === null) return false;
      if (!c.isNegated) return c.values.some((e) => { const y = v(e); return y !== null && compare(x, y) === 0; });
      return !c.withNull && c.values.every((e) => { const y = v(e); return y !== null && compare(x, y) !== 0; });
    }
    case 'cmp': {
      const a = v(c.l);
      const b = v(c.r);
      if (a === null || b === null) return false;
      const r = compare(a, b);
      switch (c.op) {
        case '=': return r === 0;
        case '!=': return r !== 0;
        case '<': return r < 0;
        case '<=': return r <= 0;
        case '>': return r > 0;
        case '>=': return r >= 0;
      }
    }
  }
}

function keyOf(v: Cell): string {
  if (v === null) return 'n';
  if (typeof v === 'bigint') return `i${v}`;
  if (typeof v === 'number') return `d${Object.is(v, -0) ? 0 : v}`;
  if (typeof v === 'string') return `s${v}`;
  return `b${[...v].join(',')}`;
}

function bucketStart(ts: bigint, b: { nanos: bigint; months: number; isWeek: boolean }): bigint {
  if (b.months > 0) {
    const d = new Date(Number(ts / 1_000_000n));
    const index = (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
    const bucket = Math.floor(index / b.months) * b.months;
    return BigInt(Date.UTC(1970 + Math.floor(bucket / 12), bucket % 12, 1)) * 1_000_000n;
  }
  const origin = b.isWeek ? -3n * 86_400_000_000_000n : 0n;
  const rel = ts - origin;
  const q = rel / b.nanos - (rel % b.nanos < 0n ? 1n : 0n);
  return origin + q * b.nanos;
}

/** One aggregate over a group: its value and, for point aggregates, the picked row's time. */
function aggregate(e: MExpr & { k: 'agg' }, g: Group, ctx: Ctx): { value: Cell; ts: bigint | null } {
  if (e.arg === '*') return { value: BigInt(g.rows.length), ts: null };
  const arg = e.arg;
  const pairs = g.rows.map((row) => ({ v: value(arg, row, ctx), ts: row.ts })).filter((p) => p.v !== null);
  const isInt = pairs.length > 0 ? typeof pairs[0].v === 'bigint' : typeOf(arg, ctx, false) !== 'double';
  const nums = pairs.map((p) => Number(p.v));
  const n = pairs.length;
  const none = { value: null, ts: null };
  switch (e.name) {
    case 'count': return { value: BigInt(n), ts: null };
    case 'first': return n === 0 ? none : { value: pairs[0].v, ts: pairs[0].ts };
    case 'last': return n === 0 ? none : { value: pairs[n - 1].v, ts: pairs[n - 1].ts };
    case 'min':
    case 'max':
    case 'abs_min':
    case 'abs_max': {
      const isMax = e.name.endsWith('max');
      const isAbs = e.name.startsWith('abs');
      let best: { v: Cell; ts: bigint } | null = null;
      for (const p of pairs) {
        let v = p.v;
        if (typeof v === 'number' && Number.isNaN(v)) continue;
        if (isAbs) v = typeof v === 'bigint' ? (v < 0n ? -v : v) : Math.abs(v as number);
        if (best === null || (isMax ? compare(v, best.v) > 0 : compare(v, best.v) < 0)) best = { v, ts: p.ts };
      }
      if (best === null) return none;
      return { value: typeof best.v === 'bigint' ? BigInt.asIntN(64, best.v) : best.v, ts: best.ts };
    }
    case 'spread': {
      const vals = pairs.map((p) => p.v).filter((v) => !(typeof v === 'number' && Number.isNaN(v)));
      if (vals.length === 0) return none;
      const min = vals.reduce((a, b) => (compare(b, a) < 0 ? b : a));
      const max = vals.reduce((a, b) => (compare(b, a) > 0 ? b : a));
      return { value: isInt ? BigInt.asIntN(64, (max as bigint) - (min as bigint)) : (max as number) - (min as number), ts: null };
    }
    case 'sum':
      if (n === 0) return none;
      return { value: isInt ? BigInt.asIntN(64, pairs.reduce((s, p) => s + (p.v as bigint), 0n)) : nums.reduce((s, x) => s + x, 0), ts: null };
    case 'avg':
    case 'arithmetic_mean':
      if (n === 0) return none;
      return { value: (isInt ? Number(pairs.reduce((s, p) => s + (p.v as bigint), 0n)) : nums.reduce((s, x) => s + x, 0)) / n, ts: null };
    case 'distinct_count': return { value: BigInt(new Set(pairs.map((p) => keyOf(p.v))).size), ts: null };
    case 'adjacent_count': {
      let changes = 0;
      for (let i = 1; i < n; i++) if (keyOf(pairs[i].v) !== keyOf(pairs[i - 1].v)) changes++;
      return { value: BigInt(changes), ts: null };
    }
  }
  if (n === 0) return none;
  const sum = (f: (x: number) => number): number => nums.reduce((s, x) => s + f(x), 0);
  const mean = sum((x) => x) / n;
  const m = (k: number): number => sum((x) => (x - mean) ** k);
  switch (e.name) {
    case 'harmonic_mean': return { value: n / sum((x) => 1 / x), ts: null };
    case 'geometric_mean': return { value: Math.exp(sum(Math.log) / n), ts: null };
    case 'quadratic_mean': return { value: Math.sqrt(sum((x) => x * x) / n), ts: null };
    case 'sum_of_squares': return { value: sum((x) => x * x), ts: null };
    case 'product': return { value: nums.reduce((p, x) => p * x, 1), ts: null };
    case 'sample_variance': return { value: n < 2 ? null : m(2) / (n - 1), ts: null };
    case 'sample_stddev': return { value: n < 2 ? null : Math.sqrt(m(2) / (n - 1)), ts: null };
    case 'population_variance': return { value: m(2) / n, ts: null };
    case 'population_stddev': return { value: Math.sqrt(m(2) / n), ts: null };
    case 'skewness': return { value: (Math.sqrt(n) * m(3)) / m(2) ** 1.5, ts: null };
    case 'kurtosis': return { value: (n * m(4)) / (m(2) * m(2)) - 3, ts: null };
  }
  throw new Error(`reference: unknown aggregate ${e.name}`);
}
