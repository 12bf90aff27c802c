// Variance, standard deviation (sample and population), skewness and kurtosis from central
// moments. Each segment computes its count, mean and M2..M4 in two passes (mean first, then
// deviations: no cancellation from raw power sums), and merges them into the group with Pébay's
// pairwise update. Skewness is the population g1 = √n·M3 / M2^1.5; kurtosis the population
// excess kurtosis n·M4 / M2² − 3. Sample variance needs two values, the others one.
import type { Rows, Vec } from '../vector/vec.js';
import { RunByRunAccumulator, f64Result, forEachNumber, grow } from './accumulator.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

export class MomentsAccumulator extends RunByRunAccumulator {
  readonly readsRowTimes = false;
  private n = new Float64Array(8);
  private mean = new Float64Array(8);
  private m2 = new Float64Array(8);
  private m3 = new Float64Array(8);
  private m4 = new Float64Array(8);
  private readonly isHigh: boolean;

  constructor(names: ReadonlySet<AggregateName>) {
    super();
    this.isHigh = names.has('skewness') || names.has('kurtosis');
  }

  reserve(groups: number): void {
    this.n = grow(this.n, groups);
    this.mean = grow(this.mean, groups);
    this.m2 = grow(this.m2, groups);
    this.m3 = grow(this.m3, groups);
    this.m4 = grow(this.m4, groups);
  }

  add(g: number, vec: Vec, rows: Rows): void {
    let nb = 0;
    let sum = 0;
    forEachNumber(vec, rows, (x) => { nb++; sum += x; });
    if (nb === 0) return;
    const mb = sum / nb;
    let b2 = 0;
    let b3 = 0;
    let b4 = 0;
    const isHigh = this.isHigh;
    forEachNumber(vec, rows, (x) => {
      const d = x - mb;
      const d2 = d * d;
      b2 += d2;
      if (isHigh) { b3 += d2 * d; b4 += d2 * d2; }
    });
    this.merge(g, nb, mb, b2, b3, b4);
  }

  private merge(g: number, nb: number, mb: number, b2: number, b3: number, b4: number): void {
    const na = this.n[g];
    if (na === 0) {
      this.n[g] = nb; this.mean[g] = mb; this.m2[g] = b2; this.m3[g] = b3; this.m4[g] = b4;
      return;
    }
    const n = na + nb;
    const d = mb - this.mean[g];
    const dn = d / n;
    const a2 = this.m2[g];
    const a3 = this.m3[g];
    this.mean[g] += nb * dn;
    this.m2[g] = a2 + b2 + d * dn * na * nb;
    if (this.isHigh) {
      this.m3[g] = a3 + b3 + d * dn * dn * na * nb * (na - nb) + 3 * dn * (na * b2 - nb * a2);
      this.m4[g] = this.m4[g] + b4 + d * dn * dn * dn * na * nb * (na * na - na * nb + nb * nb)
        + 6 * dn * dn * (na * na * b2 + nb * nb * a2) + 4 * dn * (na * b3 - nb * a3);
    }
    this.n[g] = n;
  }

  finish(name: AggregateName, groups: number): Vec {
    const out = new Float64Array(groups);
    for (let g = 0; g < groups; g++) {
      const n = this.n[g];
      const m2 = this.m2[g];
      switch (name) {
        case 'sample_variance': out[g] = m2 / (n - 1); break;
        case 'sample_stddev': out[g] = Math.sqrt(m2 / (n - 1)); break;
        case 'population_variance': out[g] = m2 / n; break;
        case 'population_stddev': out[g] = Math.sqrt(m2 / n); break;
        case 'skewness': out[g] = (Math.sqrt(n) * this.m3[g]) / Math.pow(m2, 1.5); break;
        default: out[g] = (n * this.m4[g]) / (m2 * m2) - 3;
      }
    }
    const minCount = name === 'sample_variance' || name === 'sample_stddev' ? 2 : 1;
    return f64Result(out, groups, (g) => this.n[g] < minCount);
  }

  pointTs(): null {
    return null;
  }
}
