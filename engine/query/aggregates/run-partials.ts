// Per-run partial results of the fused sum/min/max pass (sum-min-max.ts), which the sum and
// min/max accumulators merge into their groups. Its own file so the accumulators need not import
// the pass that feeds them.

/** Until the first fused batch: most queries never need the partials. */
const NONE = new Float64Array(0);

/** Sum, min and max of each run of one batch; min > max marks a run of NaN only. */
export class RunPartials {
  sums = NONE;
  mins = NONE;
  maxs = NONE;

  reserve(runs: number): void {
    if (runs <= this.sums.length) return;
    const size = Math.max(runs, this.sums.length * 2, 64);
    this.sums = new Float64Array(size);
    this.mins = new Float64Array(size);
    this.maxs = new Float64Array(size);
  }
}
