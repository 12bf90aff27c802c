// Makes the run-time accumulator of a plan's accumulator spec (exhaustive over the families).
import type { AccumulatorSpec } from '../plan/plan-types.js';
import type { Accumulator } from './accumulator.js';
import { AbsAccumulator } from './abs-min-max.js';
import { AdjacentCountAccumulator } from './adjacent-count.js';
import { CountAccumulator } from './count.js';
import { DistinctCountAccumulator } from './distinct-count.js';
import { FirstLastAccumulator } from './first-last.js';
import { MinMaxAccumulator } from './min-max.js';
import { MomentsAccumulator } from './moments.js';
import { PowersAccumulator } from './powers.js';
import { SumAccumulator } from './sum.js';

/**
 * `needsPoint`: the plan reads the time of the picked row (a lone first/last/min/max/abs_*).
 * `tiesByTime`: batches come as stored, not in time order (row-order.ts); ties go by row time.
 */
export function createAccumulator(spec: AccumulatorSpec, needsPoint: boolean, tiesByTime = false): Accumulator {
  const type = spec.arg.type;
  const isInt = type === 'int64' || type === 'timestamp';
  switch (spec.family) {
    case 'count': return new CountAccumulator();
    case 'sum': return new SumAccumulator(isInt);
    case 'minmax': return new MinMaxAccumulator(isInt, needsPoint, tiesByTime);
    case 'firstlast': return new FirstLastAccumulator(type, needsPoint);
    case 'powers': return new PowersAccumulator(spec.names);
    case 'moments': return new MomentsAccumulator(spec.names);
    case 'abs': return new AbsAccumulator(spec.isMax, isInt, needsPoint, tiesByTime);
    case 'distinct': return new DistinctCountAccumulator(type !== 'blob');
    case 'adjacent': return new AdjacentCountAccumulator(type !== 'blob');
  }
}
