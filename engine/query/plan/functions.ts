// Every function of the query language (SPEC §6) in one list: aggregates, scalar functions and
// row-sequence functions, each with its signature, a one-line summary and an example query. The
// binder dispatches calls by it, and the dashboard builds its completions and its help from it
// (assets/src/ imports this file into the browser bundle, so it stays plain data and imports
// nothing but the aggregate registry, itself plain data).
import { AGGREGATE_NAMES } from './aggregate-registry.js';
import type { AggregateName } from './aggregate-registry.js';

export type FunctionKind = 'aggregate' | 'scalar' | 'sequence';

export const SCALAR_NAMES = ['abs', 'ceil', 'floor', 'round', 'sqrt', 'exp', 'ln', 'log10', 'pow', 'sign', 'coalesce'] as const;
export type ScalarName = (typeof SCALAR_NAMES)[number];

/** Row-sequence functions as written; aliases share one implementation (`SEQUENCE_ALIASES`). */
export const SEQUENCE_NAMES = [
  'cumsum', 'cumulative_sum', 'ma', 'moving_average', 'delta', 'derivative', 'non_negative_derivative', 'lag',
] as const;
export type SequenceName = (typeof SEQUENCE_NAMES)[number];
export type SequenceFn = 'cumsum' | 'moving_average' | 'delta' | 'derivative' | 'non_negative_derivative' | 'lag';

export const SEQUENCE_ALIASES: Readonly<Record<SequenceName, SequenceFn>> = {
  cumsum: 'cumsum', cumulative_sum: 'cumsum', ma: 'moving_average', moving_average: 'moving_average', delta: 'delta',
  derivative: 'derivative', non_negative_derivative: 'non_negative_derivative', lag: 'lag',
};

export interface FunctionDoc {
  readonly name: string;
  readonly kind: FunctionKind;
  /** How it is called: `round(x [, digits])`. */
  readonly signature: string;
  readonly summary: string;
  /** A query using it (over a table `t` with a DOUBLE column `v`, an INT64 `n`, a SYMBOL `sym`). */
  readonly example: string;
}

const AGGREGATE_SUMMARIES: Readonly<Record<AggregateName, string>> = {
  count: 'non-null values (count(*): one count per column)',
  first: 'the value of the earliest row',
  last: 'the value of the latest row',
  min: 'the smallest value (NaN skipped)',
  max: 'the largest value (NaN skipped)',
  sum: 'the sum (int64 sums are exact while they fit)',
  avg: 'the arithmetic mean',
  arithmetic_mean: 'the arithmetic mean (avg)',
  harmonic_mean: 'n divided by the sum of reciprocals',
  geometric_mean: 'the n-th root of the product',
  quadratic_mean: 'the root mean square',
  spread: 'max − min',
  product: 'the product',
  sum_of_squares: 'the sum of squares',
  abs_min: 'the smallest absolute value',
  abs_max: 'the largest absolute value',
  distinct_count: 'distinct non-null values',
  adjacent_count: 'changes between successive non-null values',
  sample_variance: 'the sample variance (n − 1)',
  sample_stddev: 'the sample standard deviation',
  population_variance: 'the population variance (n)',
  population_stddev: 'the population standard deviation',
  skewness: 'the population skewness g1',
  kurtosis: 'the population excess kurtosis',
};

const aggregateDoc = (name: AggregateName): FunctionDoc => ({
  name, kind: 'aggregate', signature: `${name}(x)`, summary: AGGREGATE_SUMMARIES[name],
  example: name === 'count' ? 'SELECT count(*) FROM t GROUP BY day' : `SELECT ${name}(v) FROM t IN RANGE(2021, +1mon) GROUP BY day`,
});

const scalar = (name: ScalarName, signature: string, summary: string, example: string): FunctionDoc => ({ name, kind: 'scalar', signature, summary, example });
const sequence = (name: SequenceName, signature: string, summary: string, example: string): FunctionDoc => ({ name, kind: 'sequence', signature, summary, example });

export const FUNCTION_DOCS: readonly FunctionDoc[] = [
  ...AGGREGATE_NAMES.map(aggregateDoc),
  scalar('abs', 'abs(x)', 'the absolute value', 'SELECT abs(v) FROM t LIMIT 10'),
  scalar('ceil', 'ceil(x)', 'the smallest integer value ≥ x', 'SELECT ceil(v) FROM t LIMIT 10'),
  scalar('floor', 'floor(x)', 'the largest integer value ≤ x', 'SELECT floor(v) FROM t LIMIT 10'),
  scalar('round', 'round(x [, digits])', 'rounded half away from zero to `digits` decimals (negative: tens, hundreds, …)',
    'SELECT round(avg(v), 2) FROM t GROUP BY 1h'),
  scalar('sqrt', 'sqrt(x)', 'the square root (NaN below zero)', 'SELECT sqrt(population_variance(v)) FROM t'),
  scalar('exp', 'exp(x)', 'e to the power x', 'SELECT exp(v) FROM t LIMIT 10'),
  scalar('ln', 'ln(x)', 'the natural logarithm (NaN below zero, −∞ at zero)', 'SELECT ln(v) FROM t WHERE v > 0 LIMIT 10'),
  scalar('log10', 'log10(x)', 'the base-10 logarithm', 'SELECT log10(n) FROM t LIMIT 10'),
  scalar('pow', 'pow(x, y)', 'x to the power y', 'SELECT pow(v, 2) FROM t LIMIT 10'),
  scalar('sign', 'sign(x)', '−1, 0 or 1 (NaN stays NaN)', 'SELECT sign(delta(v)) FROM t LIMIT 10'),
  scalar('coalesce', 'coalesce(x, y [, …])', 'the first argument that is not null', 'SELECT coalesce(v, 0) FROM t LIMIT 10'),
  sequence('cumsum', 'cumsum(x)', 'the running sum of the rows so far, in time order', 'SELECT $timestamp, cumsum(v) FROM t IN RANGE(2021, +1d)'),
  sequence('cumulative_sum', 'cumulative_sum(x)', 'the running sum (cumsum)', 'SELECT cumulative_sum(sum(v)) FROM t IN RANGE(2021, +1d) GROUP BY 1h'),
  sequence('ma', 'ma(x, n)', 'the mean of the last n rows (moving_average)', 'SELECT ma(v, 10) FROM t IN RANGE(2021, +1d)'),
  sequence('moving_average', 'moving_average(x, n)', 'the mean of the non-null values among the last n rows',
    'SELECT moving_average(avg(v), 5) FROM t IN RANGE(2021, +1d) GROUP BY 1min'),
  sequence('delta', 'delta(x)', 'the difference to the previous row', 'SELECT sym, delta(v) FROM t GROUP BY sym'),
  sequence('derivative', 'derivative(x [, unit])', 'the change per unit of time (1s unless given) since the previous row',
    'SELECT derivative(max(n), 1min) FROM t IN RANGE(2021, +1d) GROUP BY 1min'),
  sequence('non_negative_derivative', 'non_negative_derivative(x [, unit])', 'derivative, null where it is negative (counter resets)',
    'SELECT non_negative_derivative(max(n)) FROM t IN RANGE(2021, +1d) GROUP BY 1min'),
  sequence('lag', 'lag(x [, n])', 'the value n rows back (1 unless given)', 'SELECT $timestamp, v, lag(v) FROM t LIMIT 10'),
];

/** Whether `name` (lowercase) is a scalar function. */
export function isScalarName(name: string): name is ScalarName {
  return (SCALAR_NAMES as readonly string[]).includes(name);
}

/** Whether `name` (lowercase) is a row-sequence function. */
export function isSequenceName(name: string): name is SequenceName {
  return Object.hasOwn(SEQUENCE_ALIASES, name);
}
