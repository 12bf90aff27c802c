// The aggregates of SPEC §6: which accumulator family computes each, which input types it takes
// and what type it returns. Aggregates of one family over the same argument share one
// accumulator (sum and avg share the sum; variance and kurtosis share the moments).
import type { ValueType } from './value-type.js';

export const AGGREGATE_NAMES = [
  'count', 'first', 'last', 'min', 'max', 'sum', 'avg', 'arithmetic_mean', 'harmonic_mean',
  'geometric_mean', 'quadratic_mean', 'spread', 'product', 'sum_of_squares', 'abs_min', 'abs_max',
  'distinct_count', 'adjacent_count', 'sample_variance', 'sample_stddev', 'population_variance',
  'population_stddev', 'skewness', 'kurtosis',
] as const;

export type AggregateName = (typeof AGGREGATE_NAMES)[number];

export type AccumulatorFamily = 'count' | 'sum' | 'minmax' | 'firstlast' | 'powers' | 'moments' | 'abs' | 'distinct' | 'adjacent';

/** What an aggregate accepts: any type, numbers (double/int64), or numbers and timestamps. */
type Inputs = 'any' | 'number' | 'ordered';

interface AggregateInfo {
  readonly family: AccumulatorFamily;
  readonly inputs: Inputs;
  /** Result type from the argument type. */
  readonly result: (arg: ValueType) => ValueType;
  /** The result is a count (api/query type `count`). */
  readonly isCount: boolean;
  /** Picks one row's value, whose time is the row time when the aggregate stands alone. */
  readonly selectsPoint: boolean;
}

const same = (t: ValueType): ValueType => t;
const double = (): ValueType => 'double';
const int64 = (): ValueType => 'int64';

function info(family: AccumulatorFamily, inputs: Inputs, result: (t: ValueType) => ValueType, flags: { isCount?: boolean; selectsPoint?: boolean } = {}): AggregateInfo {
  return { family, inputs, result, isCount: flags.isCount ?? false, selectsPoint: flags.selectsPoint ?? false };
}

export const AGGREGATES: Readonly<Record<AggregateName, AggregateInfo>> = {
  count: info('count', 'any', int64, { isCount: true }),
  first: info('firstlast', 'any', same, { selectsPoint: true }),
  last: info('firstlast', 'any', same, { selectsPoint: true }),
  min: info('minmax', 'ordered', same, { selectsPoint: true }),
  max: info('minmax', 'ordered', same, { selectsPoint: true }),
  // A spread of timestamps is a span of nanoseconds, not a point in time.
  spread: info('minmax', 'ordered', (t) => (t === 'double' ? 'double' : 'int64')),
  sum: info('sum', 'number', same),
  avg: info('sum', 'number', double),
  arithmetic_mean: info('sum', 'number', double),
  harmonic_mean: info('powers', 'number', double),
  geometric_mean: info('powers', 'number', double),
  quadratic_mean: info('powers', 'number', double),
  product: info('powers', 'number', double),
  sum_of_squares: info('powers', 'number', double),
  abs_min: info('abs', 'number', same, { selectsPoint: true }),
  abs_max: info('abs', 'number', same, { selectsPoint: true }),
  distinct_count: info('distinct', 'any', int64, { isCount: true }),
  adjacent_count: info('adjacent', 'any', int64, { isCount: true }),
  sample_variance: info('moments', 'number', double),
  sample_stddev: info('moments', 'number', double),
  population_variance: info('moments', 'number', double),
  population_stddev: info('moments', 'number', double),
  skewness: info('moments', 'number', double),
  kurtosis: info('moments', 'number', double),
};

export function isAggregateName(name: string): name is AggregateName {
  return Object.hasOwn(AGGREGATES, name);
}

/** Whether aggregate `name` accepts an argument of type `t`. */
export function acceptsType(name: AggregateName, t: ValueType): boolean {
  switch (AGGREGATES[name].inputs) {
    case 'any': return t !== 'bool' && t !== 'null';
    case 'number': return t === 'double' || t === 'int64';
    case 'ordered': return t === 'double' || t === 'int64' || t === 'timestamp' || (t === 'boolean' && (name === 'min' || name === 'max'));
  }
}
