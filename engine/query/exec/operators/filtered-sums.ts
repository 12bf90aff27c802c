// WHERE <double column> <op> <constant> feeding only sums and means of that column and counts of
// plain columns, without GROUP BY: the shape of `SELECT sum(v) FROM t WHERE v > 0.5`. Instead of
// writing a selection vector and summing through it, one masked pass gives the batch's sum and
// passing-row count (masked-sum-loops.ts). A batch with nulls in a column it reads, or whose
// masked sum is NaN (a NaN or infinite value, kept or rejected), returns false and goes down the
// selection-vector path, which is exact for every value.
import type { Accumulator } from '../../aggregates/accumulator.js';
import { CountAccumulator } from '../../aggregates/count.js';
import { SumAccumulator } from '../../aggregates/sum.js';
import type { CompareOp } from '../../plan/plan-expr.js';
import type { AggregatePlan, TablePlan } from '../../plan/plan-types.js';
import { FLIPPED } from '../kernels/compare-kernels.js';
import type { BatchFrame } from '../scan/frame.js';
import type { Grouper } from '../grouping/grouper.js';
import { MASKED_SUM_LOOPS, out } from '../kernels/masked-sum-loops.js';

export interface FilteredSums {
  /** The tested column (batch column index) and the test. */
  readonly column: number;
  readonly op: CompareOp;
  readonly value: number;
  /** Batch column index read by each accumulator. */
  readonly args: readonly number[];
}

/** The fused shape of a table plan, or null when its WHERE or aggregates do not fit. */
export function filteredSumsOf(plan: TablePlan, agg: AggregatePlan, accumulators: readonly Accumulator[]): FilteredSums | null {
  const w = plan.where;
  if (w === null || w.kind !== 'compare' || agg.bucket !== null || agg.keys.length > 0) return null;
  const isFlipped = w.left.kind === 'const';
  const column = isFlipped ? w.right : w.left;
  const constant = isFlipped ? w.left : w.right;
  if (column.kind !== 'column' || column.type !== 'double' || constant.kind !== 'const') return null;
  if (typeof constant.value !== 'number' && typeof constant.value !== 'bigint') return null;
  const args: number[] = [];
  for (let a = 0; a < accumulators.length; a++) {
    const arg = agg.accumulators[a].arg;
    if (arg.kind !== 'column') return null;
    const acc = accumulators[a];
    if (!(acc instanceof CountAccumulator || (acc instanceof SumAccumulator && arg.index === column.index))) return null;
    args.push(arg.index);
  }
  return { column: column.index, op: isFlipped ? FLIPPED[w.op] : w.op, value: Number(constant.value), args };
}

/** Adds the rows [lo, hi) of the frame's batch that pass the test; false when it cannot (see above). */
export function addFilteredSums(f: FilteredSums, accumulators: readonly Accumulator[], frame: BatchFrame, lo: number, hi: number, grouper: Grouper): boolean {
  const x = frame.column(f.column);
  if (x.kind !== 'f64' || x.validity !== null) return false;
  for (const index of f.args) {
    const y = frame.column(index);
    if (y.kind === 'list' || y.kind === 'const' || y.validity !== null) return false;
  }
  MASKED_SUM_LOOPS[f.op](x.values, f.value, lo, hi);
  const sum = out[0];
  const passed = out[1];
  const isExact = sum === sum;
  // Like an empty selection: no passing row, no group. A NaN sum matters only to the sums.
  if (passed === 0) return true;
  if (!isExact && accumulators.some((acc) => acc instanceof SumAccumulator)) return false;
  const g = grouper.groupOfBatch(frame.view.minTs);
  for (const acc of accumulators) {
    if (acc instanceof SumAccumulator) acc.addTotal(g, sum, passed);
    else (acc as CountAccumulator).addCount(g, passed);
  }
  return true;
}
