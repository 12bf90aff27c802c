// One pass for a sum family and a min/max family over the same double argument, the shape of
// `avg(v), min(v), max(v) … GROUP BY 1min`. Apart, each family loops over every run; the min/max
// loop is bound by the branch mispredicted at each new extreme, so folding the sum into it costs
// almost nothing, while a second pass over the values does. The pass writes each run's sum, min
// and max (RunPartials); each accumulator then merges those into its groups. Long runs (few
// groups per batch) keep the separate loops, which are faster there (four partial sums).
import type { SegmentList } from '../vector/segment-list.js';
import type { Vec } from '../vector/vec.js';
import type { AccumulatorSpec } from '../plan/plan-types.js';
import type { Accumulator } from './accumulator.js';
import { MinMaxAccumulator } from './min-max.js';
import type { RunPartials } from './run-partials.js';
import { SumAccumulator } from './sum.js';

/** Rows per run below which the fused pass pays. */
const SHORT_RUN = 64;
/** A sum accumulator and a min/max accumulator reading the same double argument. */
export interface FusedPair {
  readonly sum: number;
  readonly minMax: number;
}

/** The pairs of accumulators that can share one pass (each accumulator in one pair at most). */
export function fusedPairs(specs: readonly AccumulatorSpec[], accumulators: readonly Accumulator[]): FusedPair[] {
  const pairs: FusedPair[] = [];
  for (let s = 0; s < specs.length; s++) {
    const sum = accumulators[s];
    if (!(sum instanceof SumAccumulator) || !sum.takesPartials || specs[s].arg.type !== 'double') continue;
    const key = specs[s].argKey;
    const m = specs.findIndex((spec, i) => {
      const acc = accumulators[i];
      return acc instanceof MinMaxAccumulator && acc.takesPartials && spec.argKey === key;
    });
    if (m >= 0) pairs.push({ sum: s, minMax: m });
  }
  return pairs;
}

/**
 * Feeds the pair one batch's runs when its argument is doubles without nulls and the runs are
 * short; returns false (nothing fed) otherwise, and each accumulator runs its own loop.
 */
export function addFused(pair: FusedPair, accumulators: readonly Accumulator[], runs: SegmentList, vec: Vec, rowCount: number, partials: RunPartials): boolean {
  if (vec.kind !== 'f64' || vec.validity !== null || runs.count * SHORT_RUN < rowCount) return false;
  partials.reserve(runs.count);
  sumMinMaxRuns(runs, vec.values, partials);
  (accumulators[pair.sum] as SumAccumulator).addPartials(runs, partials);
  (accumulators[pair.minMax] as MinMaxAccumulator).addPartials(runs, partials);
  return true;
}

function sumMinMaxRuns(runs: SegmentList, x: Float64Array, out: RunPartials): void {
  const { los, his, sel } = runs;
  const { sums, mins, maxs } = out;
  for (let r = 0; r < runs.count; r++) {
    const hi = his[r];
    let s = 0;
    let m = Infinity;
    let M = -Infinity;
    if (sel === null) {
      for (let i = los[r]; i < hi; i++) { const v = x[i]; s += v; if (v < m) m = v; if (v > M) M = v; }
    } else {
      for (let k = los[r]; k < hi; k++) { const v = x[sel[k]]; s += v; if (v < m) m = v; if (v > M) M = v; }
    }
    sums[r] = s;
    mins[r] = m;
    maxs[r] = M;
  }
}
