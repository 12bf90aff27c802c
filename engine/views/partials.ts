// Partial states of a view's aggregates (SPEC §15), for the buckets some of whose source rows
// have left (TTL, retention): the rows that left are kept as partial states, and a bucket is those
// states merged with its rows still in the source. A partial state is made of ordinary aggregates
// — helpers — over the same argument, which the query engine computes like any SELECT: avg keeps
// sum and count, the variance family count, mean and population variance (skewness and kurtosis
// their own values besides), adjacent_count its first and last values. Merging two states needs
// that every row of the first precedes every row of the second: the rows that left a source came
// from shards wholly before those still there. distinct_count is the one aggregate a state cannot
// carry: a bucket keeps the count of its rows that left and no longer counts new values.
import type { Call, Expr, Select, SelectColumn } from '../../grammar/index.js';
import { formatExpr } from '../../grammar/index.js';
import type { AggregateName } from '../query/plan/aggregate-registry.js';
import type { ResultColumn, ResultTable } from '../query/result.js';
import type { NormalizedBatch } from '../storage/batch-input.js';
import type { ColumnValues } from '../storage/column-values.js';
import type { ColumnDef } from '../types.js';

/** A value of a result: a number, an exact int64, text, bytes, a boolean or null. */
export type Value = number | bigint | string | Uint8Array | boolean | null;

type Helper = 'count' | 'sum' | 'min' | 'max' | 'abs_min' | 'abs_max' | 'first' | 'last' | 'avg' | 'population_variance' | 'skewness'
  | 'kurtosis' | 'sum_of_squares' | 'product' | 'quadratic_mean' | 'harmonic_mean' | 'geometric_mean' | 'adjacent_count' | 'distinct_count';

const MOMENTS: readonly Helper[] = ['count', 'avg', 'population_variance'];

/** The helpers each aggregate is finished from. */
const HELPERS: Readonly<Record<AggregateName, readonly Helper[]>> = {
  count: ['count'],
  sum: ['sum', 'count'],
  avg: ['sum', 'count'],
  arithmetic_mean: ['sum', 'count'],
  min: ['min'],
  max: ['max'],
  spread: ['min', 'max'],
  abs_min: ['abs_min'],
  abs_max: ['abs_max'],
  first: ['first'],
  last: ['last'],
  sum_of_squares: ['sum_of_squares', 'count'],
  product: ['product', 'count'],
  quadratic_mean: ['quadratic_mean', 'count'],
  harmonic_mean: ['harmonic_mean', 'count'],
  geometric_mean: ['geometric_mean', 'count'],
  sample_variance: MOMENTS,
  sample_stddev: MOMENTS,
  population_variance: MOMENTS,
  population_stddev: MOMENTS,
  skewness: [...MOMENTS, 'skewness', 'kurtosis'],
  kurtosis: [...MOMENTS, 'skewness', 'kurtosis'],
  adjacent_count: ['adjacent_count', 'first', 'last'],
  distinct_count: ['distinct_count'],
};

/**
 * Aggregates whose states merge in any order: those of rows that overlap in time (a table's
 * batches as stored) too. first, last and adjacent_count need their states in time order;
 * distinct_count does not merge at all.
 */
const ORDER_FREE: ReadonlySet<AggregateName> = new Set<AggregateName>([
  'count', 'sum', 'avg', 'arithmetic_mean', 'min', 'max', 'spread', 'abs_min', 'abs_max', 'sum_of_squares', 'product', 'quadratic_mean',
  'harmonic_mean', 'geometric_mean', 'sample_variance', 'sample_stddev', 'population_variance', 'population_stddev', 'skewness', 'kurtosis',
]);

/** The helpers of one argument: where each sits in a state's values. */
type ArgHelpers = Map<Helper, number>;

/**
 * How a view's aggregates are kept as partial states: the SELECT of the helpers (the view's GROUP
 * BY columns first, then one item per helper and argument), and for each aggregate of the view
 * its name and the helpers of its argument.
 */
export class PartialShape {
  /** The helpers' SELECT over the source (the view's WHERE and GROUP BY). */
  readonly select: Select;
  /** Per aggregate item of the view, in order. */
  private readonly items: { readonly name: AggregateName; readonly helpers: ArgHelpers }[] = [];
  /** Per argument (by its text), its helpers. */
  private readonly args = new Map<string, ArgHelpers>();
  /** The number of GROUP BY columns: a helper row's first values. */
  readonly keyCount: number;
  /** Whether every aggregate's states merge in any order (ORDER_FREE). */
  readonly isOrderFree: boolean;
  private width = 0;

  /** `compute`: the view's SELECT as plan-view.ts gives it (GROUP BY columns, then aggregate items). */
  constructor(compute: Select, keyCount: number) {
    this.keyCount = keyCount;
    const helperItems: SelectColumn[] = [];
    for (const item of compute.columns.slice(keyCount)) {
      const call = (item as SelectColumn).expr as Call;
      const arg = call.args[0] as Expr;
      const argText = formatExpr(arg);
      let helpers = this.args.get(argText);
      if (helpers === undefined) this.args.set(argText, (helpers = new Map()));
      for (const h of HELPERS[call.name as AggregateName]) {
        if (helpers.has(h)) continue;
        helpers.set(h, keyCount + this.width++);
        const expr: Call = { kind: 'Call', offset: call.offset, name: h, args: [arg] };
        const text = formatExpr(expr);
        helperItems.push({ kind: 'SelectColumn', offset: call.offset, expr, alias: null, text, name: text });
      }
      this.items.push({ name: call.name as AggregateName, helpers });
    }
    this.select = { ...compute, columns: [...compute.columns.slice(0, keyCount), ...helperItems] };
    this.isOrderFree = this.items.every((item) => ORDER_FREE.has(item.name));
  }

  /**
   * The state of the rows of `earlier` and `later` (helper rows of one bucket and key: GROUP BY
   * values, then helpers), every row of `earlier` preceding every row of `later`.
   */
  merge(earlier: readonly Value[], later: readonly Value[]): Value[] {
    const out = earlier.slice();
    for (const helpers of this.args.values()) mergeArg(helpers, earlier, later, out);
    return out;
  }

  /** The view's aggregate values from a state (GROUP BY values, then helpers). */
  finish(state: readonly Value[]): Value[] {
    return this.items.map(({ name, helpers }) => finishOne(name, helpers, state));
  }
}

/** State rows by bucket start, then by GROUP BY key (keyText). */
export type States = Map<bigint, Map<string, Value[]>>;

/** Helper rows of a result of the helpers' SELECT: the row time (bucket), then GROUP BY values and helpers. */
export function stateRows(result: ResultTable | null): [bigint, Value[]][] {
  if (result === null) return [];
  const rows: [bigint, Value[]][] = [];
  for (let i = 0; i < result.rowCount; i++) rows.push([result.timestamps[i], result.columns.map((c) => valueAt(c, i))]);
  return rows;
}

function valueAt(c: ResultColumn, i: number): Value {
  if (c.nulls?.[i] === 1 || c.type === 'none') return null;
  const v = c.values[i];
  if (c.type === 'boolean') return v === 1;
  if (c.type === 'count') return Number(v);
  return v as Value;
}

function mergeArg(h: ArgHelpers, a: readonly Value[], b: readonly Value[], out: Value[]): void {
  const at = (name: Helper) => h.get(name)!;
  const na = h.has('count') ? (a[at('count')] as number) : 0;
  const nb = h.has('count') ? (b[at('count')] as number) : 0;
  for (const [name, k] of h) {
    const x = a[k];
    const y = b[k];
    if (name === 'adjacent_count') {
      const last = a[at('last')];
      const first = b[at('first')];
      out[k] = (x as number) + (y as number) + (last !== null && first !== null && !isSameValue(last, first) ? 1 : 0);
      continue;
    }
    if (x === null || y === null) {
      // One side has no value: the other's, whatever the helper (first and last included).
      if (!MOMENTS.includes(name) && name !== 'skewness' && name !== 'kurtosis') out[k] = x ?? y;
      continue;
    }
    switch (name) {
      case 'count': out[k] = (x as number) + (y as number); break;
      case 'sum': out[k] = typeof x === 'bigint' ? BigInt.asIntN(64, x + (y as bigint)) : (x as number) + (y as number); break;
      case 'min': case 'abs_min': out[k] = isLess(y, x) ? y : x; break;
      case 'max': case 'abs_max': out[k] = isLess(x, y) ? y : x; break;
      case 'first': out[k] = x; break;
      case 'last': out[k] = y; break;
      case 'sum_of_squares': out[k] = (x as number) + (y as number); break;
      case 'product': out[k] = (x as number) * (y as number); break;
      case 'quadratic_mean': out[k] = Math.sqrt(((x as number) ** 2 * na + (y as number) ** 2 * nb) / (na + nb)); break;
      case 'harmonic_mean': out[k] = (na + nb) / (na / (x as number) + nb / (y as number)); break;
      case 'geometric_mean': out[k] = Math.exp((na * Math.log(x as number) + nb * Math.log(y as number)) / (na + nb)); break;
      case 'distinct_count': out[k] = x; break;
      default: break; // the moments, merged together below
    }
  }
  if (h.has('population_variance')) mergeMoments(h, a, b, na, nb, out);
}

/**
 * Count, mean and central moments of the rows of both sides (Chan's and Pébay's pairwise
 * updates), the higher moments from skewness and kurtosis: M2 = n·var, M3 = g1·M2^1.5/√n,
 * M4 = (g2 + 3)·M2²/n; back to mean, population variance, skewness and kurtosis.
 */
function mergeMoments(h: ArgHelpers, a: readonly Value[], b: readonly Value[], na: number, nb: number, out: Value[]): void {
  const k = (name: Helper) => h.get(name)!;
  if (nb === 0) return;
  if (na === 0) {
    for (const name of ['avg', 'population_variance', 'skewness', 'kurtosis'] as const) if (h.has(name)) out[k(name)] = b[k(name)];
    return;
  }
  const isHigh = h.has('skewness');
  const side = (v: readonly Value[], n: number) => {
    const m2 = (v[k('population_variance')] as number) * n;
    const m3 = !isHigh || m2 === 0 ? 0 : (v[k('skewness')] as number) * m2 ** 1.5 / Math.sqrt(n);
    const m4 = !isHigh || m2 === 0 ? 0 : ((v[k('kurtosis')] as number) + 3) * m2 * m2 / n;
    return { mean: v[k('avg')] as number, m2, m3, m4 };
  };
  const x = side(a, na);
  const y = side(b, nb);
  const n = na + nb;
  const d = y.mean - x.mean;
  const dn = d / n;
  const m2 = x.m2 + y.m2 + d * dn * na * nb;
  out[k('avg')] = x.mean + nb * dn;
  out[k('population_variance')] = m2 / n;
  if (!isHigh) return;
  const m3 = x.m3 + y.m3 + d * dn * dn * na * nb * (na - nb) + 3 * dn * (na * y.m2 - nb * x.m2);
  const m4 = x.m4 + y.m4 + d * dn * dn * dn * na * nb * (na * na - na * nb + nb * nb) + 6 * dn * dn * (na * na * y.m2 + nb * nb * x.m2) + 4 * dn * (na * y.m3 - nb * x.m3);
  out[k('skewness')] = Math.sqrt(n) * m3 / m2 ** 1.5;
  out[k('kurtosis')] = n * m4 / (m2 * m2) - 3;
}

function finishOne(name: AggregateName, h: ArgHelpers, s: readonly Value[]): Value {
  const v = (helper: Helper) => s[h.get(helper)!];
  const n = h.has('count') ? (v('count') as number) : 0;
  switch (name) {
    case 'count': case 'min': case 'max': case 'abs_min': case 'abs_max': case 'first': case 'last':
    case 'sum_of_squares': case 'product': case 'quadratic_mean': case 'harmonic_mean': case 'geometric_mean':
    case 'adjacent_count': case 'distinct_count':
      return v(name);
    case 'sum': return n === 0 ? null : v('sum');
    case 'avg': case 'arithmetic_mean': {
      const sum = v('sum');
      return n === 0 || sum === null ? null : Number(sum) / n;
    }
    case 'spread': {
      const lo = v('min');
      const hi = v('max');
      if (lo === null || hi === null) return null;
      return typeof hi === 'bigint' ? BigInt.asIntN(64, hi - (lo as bigint)) : (hi as number) - (lo as number);
    }
    case 'population_variance': return n === 0 ? null : v('population_variance');
    case 'population_stddev': return n === 0 ? null : Math.sqrt(v('population_variance') as number);
    case 'sample_variance': return n < 2 ? null : (v('population_variance') as number) * n / (n - 1);
    case 'sample_stddev': return n < 2 ? null : Math.sqrt((v('population_variance') as number) * n / (n - 1));
    case 'skewness': case 'kurtosis': return n === 0 ? null : v(name);
  }
}

/** `a < b` for two values of one helper (numbers, int64s, booleans as false < true); NaN is never less, nor more. */
function isLess(a: Value, b: Value): boolean {
  if (typeof a === 'number' && Number.isNaN(b as number)) return true;
  return (a as number) < (b as number);
}

/** Whether two successive values are the same for adjacent_count: NaN equals NaN, 0 equals -0, bytes by content. */
function isSameValue(a: Value, b: Value): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b || (a !== a && b !== b);
}

/** State rows by bucket start, then by GROUP BY key (keyText). */
export function byBucket(rows: readonly [bigint, Value[]][], partial: PartialShape): States {
  const out: States = new Map();
  for (const [bucket, values] of rows) {
    let states = out.get(bucket);
    if (states === undefined) out.set(bucket, (states = new Map()));
    states.set(keyText(values, partial.keyCount), values);
  }
  return out;
}

/** A GROUP BY key as text, one per key GROUP BY tells apart (0 and -0 are one; NaN is one). */
export function keyText(values: readonly Value[], count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    const v = values[i];
    text += `${typeof v}:${v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v)}|`;
  }
  return text;
}

/** View rows ([bucket, values]) as the columns of the view's table; null when there are none. */
export function viewBatch(rows: readonly [bigint, Value[]][], columns: readonly ColumnDef[]): NormalizedBatch | null {
  if (rows.length === 0) return null;
  const n = rows.length;
  const ts = BigInt64Array.from(rows, ([t]) => t);
  return {
    ts,
    columns: columns.map((def, c): ColumnValues => {
      const at = (i: number) => rows[i][1][c];
      switch (def.type) {
        case 'DOUBLE': {
          const values = new Float64Array(n);
          const nulls = new Uint8Array(n);
          for (let i = 0; i < n; i++) { const v = at(i); if (v === null) nulls[i] = 1; else values[i] = Number(v); }
          return { type: def.type, values, nulls };
        }
        case 'INT64':
        case 'TIMESTAMP': {
          const values = new BigInt64Array(n);
          const nulls = new Uint8Array(n);
          for (let i = 0; i < n; i++) { const v = at(i); if (v === null) nulls[i] = 1; else values[i] = BigInt(v as number | bigint); }
          return { type: def.type, values, nulls };
        }
        case 'BOOLEAN': return { type: def.type, values: Array.from({ length: n }, (_, i) => (at(i) === null ? null : at(i) === true || at(i) === 1)) };
        case 'BLOB': return { type: def.type, values: Array.from({ length: n }, (_, i) => at(i) as Uint8Array | null) };
        default: return { type: def.type, values: Array.from({ length: n }, (_, i) => at(i) as string | null) };
      }
    }),
  };
}
