// A naive, row-at-a-time evaluator of query models: the oracle of the differential test. It
// follows the documented semantics (SPEC §6 plus the decisions in engine/query/result.ts and the
// planner) as directly as possible: whole rows, plain loops, BigInt where values are int64, no
// batches, no statistics, no selection vectors.
import type { ColumnDef } from '../../engine/types.js';
import type { MCond, MExpr, MQuery } from './query-model.js';
import { exprText } from './query-model.js';
import { calendarKeeps, joinTable, scalarFunction, sequence } from './reference-depth.js';
import type { JoinedRow } from './reference-depth.js';

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
    const join = q.join ?? null;
    const table = join === null ? tables.get(name)! : joinTable(tables.get(name)!, join.tables.map((t) => tables.get(t)!), join);
    const ctx: Ctx = { table, multi: q.tables.length > 1 };
    const ranges = q.ranges.length === 0 ? [null] : q.ranges;
    const cal = q.calendar ?? null;
    const perRange = ranges.map((r) => table.rows.filter((row) => r === null || (row.ts >= r.from && row.ts < r.to && (cal === null || calendarKeeps(row.ts, cal)))));
    scanned += perRange.reduce((s, rows) => s + rows.length, 0) * referenced(q, table).size;
    const filtered = perRange.map((rows) => rows.filter((row) => q.where === null || cond(q.where, row, ctx)));
    const result = isAggregate(q) ? aggregateQuery(q, ctx, filtered) : rowQuery(q, ctx, filtered);
    if (result.rows.length > 0) out.push(result);
  }
  return { tables: out, scanned };
}

function exprsOf(q: MQuery): MExpr[] {
  return [...q.items.flatMap((i) => (i.k === 'item' ? [i.e] : [])), ...q.orderBy.flatMap((o) => (typeof o.e === 'number' ? [] : [o.e]))];
}

/** GROUP BY columns of a plain query with sequence functions: partitions, not groups. */
function isPartition(q: MQuery): boolean {
  const exprs = exprsOf(q);
  return q.keys.length > 0 && q.bucket === null && q.having === null && !exprs.some(hasAgg) && exprs.some(hasSeq);
}

function isAggregate(q: MQuery): boolean {
  return !isPartition(q) && (q.bucket !== null || q.keys.length > 0 || q.having !== null || exprsOf(q).some(hasAgg));
}

function hasAgg(e: MExpr): boolean {
  return e.k === 'agg' || (e.k === 'arith' && (hasAgg(e.l) || hasAgg(e.r))) || (e.k === 'fn' && e.args.some(hasAgg)) || (e.k === 'seq' && hasAgg(e.arg));
}

function hasSeq(e: MExpr): boolean {
  return e.k === 'seq' || (e.k === 'arith' && (hasSeq(e.l) || hasSeq(e.r))) || (e.k === 'fn' && e.args.some(hasSeq));
}

/** Distinct referenced columns (SPEC §7 multiplier). */
function referenced(q: MQuery, table: RefTable): Set<string> {
  const set = new Set<string>();
  const all = (): void => { for (const c of table.columns) set.add(c.name); };
  const walk = (e: MExpr): void => {
    if (e.k === 'col') set.add(e.name);
    if (e.k === 'arith') { walk(e.l); walk(e.r); }
    if (e.k === 'agg') { if (e.arg === '*') all(); else walk(e.arg); }
    if (e.k === 'fn') e.args.forEach(walk);
    if (e.k === 'seq') walk(e.arg);
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
  if (!outs.some((o) => hasSeq(o.e))) {
    return finish(q, ctx, outs, keys, perRange.flat().map((row) => [row.ts as Cell, ...outs.map((o) => value(o.e, row, ctx))]));
  }
  // Sequences run per range and, with GROUP BY columns, per key, in time order; the rows come
  // out by range, key and time.
  const rows: Cell[][] = [];
  for (const rangeRows of perRange) {
    const series = new Map<string, { keys: Cell[]; rows: RefRow[] }>();
    for (const row of rangeRows) {
      const keyValues = q.keys.map((k) => value({ k: 'col', name: k }, row, ctx));
      const id = keyValues.map(keyOf).join('|');
      if (!series.has(id)) series.set(id, { keys: keyValues, rows: [] });
      series.get(id)!.rows.push(row);
    }
    const ordered = [...series.values()].sort((a, b) => {
      for (let c = 0; c < a.keys.length; c++) {
        const r = orderCells(a.keys[c], b.keys[c]);
        if (r !== 0) return r;
      }
      return 0;
    });
    for (const s of ordered) {
      const times = s.rows.map((row) => row.ts);
      const columns = outs.map((o) => seriesValues(o.e, s.rows, (e, row) => value(e, row, ctx), times));
      s.rows.forEach((row, i) => rows.push([row.ts, ...columns.map((c) => c[i])]));
    }
  }
  return finish(q, ctx, outs, keys, rows);
}

/** The values of `e` over one series of items in order: sequence calls run over the series. */
function seriesValues<T>(e: MExpr, items: readonly T[], leaf: (e: MExpr, item: T) => Cell, times: readonly bigint[]): Cell[] {
  if (!hasSeq(e)) return items.map((item) => leaf(e, item));
  switch (e.k) {
    case 'seq': return sequence(e.name, seriesValues(e.arg, items, leaf, times), times, e.param);
    case 'fn': {
      const args = e.args.map((a) => seriesValues(a, items, leaf, times));
      return items.map((_, i) => scalarFunction(e.name, args.map((a) => a[i])));
    }
    case 'arith': {
      const l = seriesValues(e.l, items, leaf, times);
      const r = seriesValues(e.r, items, leaf, times);
      return items.map((_, i) => arith(e.op, l[i], r[i]));
    }
    default: return items.map((item) => leaf(e, item));
  }
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
  // Sequences over aggregates follow each series (range and key values) bucket by bucket.
  const columns: Cell[][] = outs.map(() => new Array<Cell>(kept.length));
  const bySeries = new Map<string, number[]>();
  kept.forEach((g, i) => {
    const id = `${g.range}|${g.keys.map(keyOf).join('|')}`;
    if (!bySeries.has(id)) bySeries.set(id, []);
    bySeries.get(id)!.push(i);
  });
  for (const members of bySeries.values()) {
    const groups = members.map((i) => kept[i]);
    const times = groups.map((g) => g.bucket ?? 0n);
    outs.forEach((o, c) => {
      const values = seriesValues(o.e, groups, (e, g) => groupValue(e, g, q, ctx), times);
      members.forEach((i, k) => { columns[c][i] = values[k]; });
    });
  }
  const rows = kept.map((g, i) => {
    const rangeStart = q.ranges.length === 0 ? null : q.ranges[g.range].from;
    let time: Cell = g.bucket ?? rangeStart;
    if (point !== null) time = aggregate(point, g, ctx).ts ?? rangeStart;
    return [time, ...columns.map((c) => c[i])];
  });
  return finish(q, ctx, outs, keys, q.fill ? fillBuckets(q, ctx, outs, kept, rows) : rows);
}

/** FILL: every bucket of each range (the data's span without one) per key series; the empty ones filled. */
function fillBuckets(q: MQuery, ctx: Ctx, outs: Out[], kept: Group[], rows: Cell[][]): Cell[][] {
  const b = q.bucket!;
  const out: Cell[][] = [];
  const ranges = q.ranges.length === 0 ? [null] : q.ranges;
  ranges.forEach((range, r) => {
    const mine = kept.map((g, i) => ({ g, row: rows[i] })).filter((x) => x.g.range === r);
    const series: Cell[][] = [];
    for (const { g } of mine) if (!series.some((k) => k.map(keyOf).join('|') === g.keys.map(keyOf).join('|'))) series.push(g.keys);
    series.sort((x, y) => { for (let c = 0; c < x.length; c++) { const o = orderCells(x[c], y[c]); if (o !== 0) return o; } return 0; });
    if (q.keys.length > 0 && series.length === 0) return;
    if (q.keys.length === 0) series.splice(0, series.length, []);
    const axis: bigint[] = [];
    if (range === null) {
      if (mine.length === 0) return;
      const starts = mine.map((x) => x.g.bucket!);
      const last = starts.reduce((m, s) => (s > m ? s : m));
      for (let s = starts.reduce((m, x) => (x < m ? x : m)); s <= last; s = nextBucket(s, b)) axis.push(s);
    } else {
      for (let s = bucketStart(range.from, b); range.from < range.to && s < range.to; s = nextBucket(s, b)) {
        if (!q.calendar || touchesCalendar(s, nextBucket(s, b), range, q.calendar)) axis.push(s);
      }
    }
    const emitted: { real: Cell[] | null; bucket: bigint; keys: Cell[] }[] = [];
    for (const bucket of axis) {
      for (const keys of series) {
        const real = mine.find((x) => x.g.bucket === bucket && x.g.keys.map(keyOf).join('|') === keys.map(keyOf).join('|'));
        emitted.push({ real: real?.row ?? null, bucket, keys });
      }
    }
    emitted.forEach((e, k) => {
      if (e.real !== null) { out.push(e.real); return; }
      const same = (x: typeof e): boolean => x.keys.map(keyOf).join('|') === e.keys.map(keyOf).join('|') && x.real !== null;
      let p = k - 1;
      while (p >= 0 && !same(emitted[p])) p--;
      let n = k + 1;
      while (n < emitted.length && !same(emitted[n])) n++;
      out.push([e.bucket, ...outs.map((o, c) => {
        if (o.e.k === 'col' && o.e.name === '$timestamp') return e.bucket;
        if (o.e.k === 'col' && q.keys.includes(o.e.name)) return e.keys[q.keys.indexOf(o.e.name)];
        const type = typeOf(o.e, ctx, true);
        const isNumber = type === 'double' || type === 'int64';
        switch (q.fill) {
          case 'NULL': return null;
          case 'PREV': return p < 0 ? null : emitted[p].real![c + 1];
          case 'LINEAR': {
            if (!isNumber || p < 0 || n >= emitted.length) return null;
            const a = emitted[p].real![c + 1];
            const z = emitted[n].real![c + 1];
            if (a === null || z === null) return null;
            const dt = e.bucket - emitted[p].bucket;
            const span = emitted[n].bucket - emitted[p].bucket;
            if (typeof a === 'bigint') return BigInt.asIntN(64, a + ((z as bigint) - a) * dt / span);
            return (a as number) + (((z as number) - (a as number)) * Number(dt)) / Number(span);
          }
          default: return !isNumber ? null : type === 'int64' ? BigInt(q.fill!) : Number(q.fill);
        }
      })]);
    });
  });
  return out;
}

function nextBucket(start: bigint, b: { nanos: bigint; months: number }): bigint {
  if (b.months === 0) return start + b.nanos;
  const d = new Date(Number(start / 1_000_000n));
  return BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + b.months, 1)) * 1_000_000n;
}

/** Whether some instant of [a, b) inside the range passes the calendar filters (checked day by day). */
function touchesCalendar(a: bigint, b: bigint, range: { from: bigint; to: bigint }, cal: NonNullable<MQuery['calendar']>): boolean {
  const from = a > range.from ? a : range.from;
  const to = b < range.to ? b : range.to;
  const DAY = 86_400_000_000_000n;
  for (let day = from - (from % DAY); day < to; day += DAY) {
    const windows: [bigint, bigint][] = cal.times === null ? [[0n, DAY]] : cal.times[0] < cal.times[1] ? [[cal.times[0], cal.times[1]]] : [[0n, cal.times[1]], [cal.times[0], DAY]];
    for (const [x, y] of windows) {
      const lo = day + x > from ? day + x : from;
      const hi = day + y < to ? day + y : to;
      if (lo < hi && calendarKeeps(lo, cal)) return true;
    }
  }
  return false;
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
    case 'col': return e.name.endsWith('$timestamp') ? 'timestamp' : TYPES[ctx.table.columns.find((c) => c.name === e.name)!.type];
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
    case 'fn': {
      const types = e.args.map((a) => typeOf(a, ctx, isAgg));
      if (e.name === 'coalesce') return types.includes('double') ? 'double' : types[0];
      if (['abs', 'ceil', 'floor', 'round', 'sign'].includes(e.name) && types[0] === 'int64') return 'int64';
      return 'double';
    }
    case 'seq': {
      const t = typeOf(e.arg, ctx, isAgg);
      if (e.name === 'lag' || ((e.name === 'cumsum' || e.name === 'cumulative_sum') && t !== 'timestamp')) return t;
      if (e.name === 'delta') return t === 'double' ? 'double' : 'int64';
      return 'double';
    }
  }
}

function value(e: MExpr, row: RefRow, ctx: Ctx): Cell {
  switch (e.k) {
    case 'col':
      if (e.name === '$timestamp') return row.ts;
      if (e.name.endsWith('.$timestamp')) return (row as JoinedRow).sideTimes[e.name];
      return row.values[ctx.table.columns.findIndex((c) => c.name === e.name)];
    case 'table': return ctx.table.name;
    case 'int': return e.v;
    case 'dbl': return e.v;
    case 'str': return e.v;
    case 'time': return e.v;
    case 'arith': return arith(e.op, value(e.l, row, ctx), value(e.r, row, ctx));
    case 'fn': return asType(scalarFunction(e.name, e.args.map((a) => value(a, row, ctx))), typeOf(e, ctx, false));
    case 'agg': throw new Error('aggregate in row context');
    case 'seq': throw new Error('sequence outside a series');
  }
}

function groupValue(e: MExpr, g: Group, q: MQuery, ctx: Ctx): Cell {
  switch (e.k) {
    case 'col': return e.name === '$timestamp' && q.bucket !== null ? g.bucket : g.keys[q.keys.indexOf(e.name)];
    case 'arith': return arith(e.op, groupValue(e.l, g, q, ctx), groupValue(e.r, g, q, ctx));
    case 'fn': return asType(scalarFunction(e.name, e.args.map((a) => groupValue(a, g, q, ctx))), typeOf(e, ctx, true));
    case 'agg': return aggregate(e, g, ctx).value;
    default: return value(e, g.rows[0], ctx);
  }
}

/** An int64 value where the expression's type is double (coalesce of int64 and double). */
function asType(v: Cell, type: Type): Cell {
  return type === 'double' && typeof v === 'bigint' ? Number(v) : v;
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
