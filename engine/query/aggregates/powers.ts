// The power-sum family: harmonic_mean = n / Σ(1/x), geometric_mean = exp(Σ ln x / n),
// quadratic_mean = √(Σx² / n), sum_of_squares = Σx², product = Πx. All are doubles (int64
// inputs are read as doubles: products and squares overflow int64 quickly). Only the sums some
// selected aggregate needs are computed, each in its own loop.
import type { Rows, Vec } from '../vector/vec.js';
import { RunByRunAccumulator, f64Result, forEachNumber, grow } from './accumulator.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

export class PowersAccumulator extends RunByRunAccumulator {
  readonly readsRowTimes = false;
  private counts = new Float64Array(8);
  private inverses = new Float64Array(8);
  private logs = new Float64Array(8);
  private squares = new Float64Array(8);
  private products = new Float64Array(8);
  /** Groups whose product slot is initialized. */
  private ready = 0;
  private readonly needs: { inv: boolean; log: boolean; sq: boolean; prod: boolean };

  constructor(names: ReadonlySet<AggregateName>) {
    super();
    this.needs = {
      inv: names.has('harmonic_mean'),
      log: names.has('geometric_mean'),
      sq: names.has('quadratic_mean') || names.has('sum_of_squares'),
      prod: names.has('product'),
    };
  }

  reserve(groups: number): void {
    this.counts = grow(this.counts, groups);
    this.inverses = grow(this.inverses, groups);
    this.logs = grow(this.logs, groups);
    this.squares = grow(this.squares, groups);
    this.products = grow(this.products, groups);
    // A product starts at 1 (the empty product); new slots of a typed array start at 0.
    if (groups > this.ready) { this.products.fill(1, this.ready, groups); this.ready = groups; }
  }

  add(g: number, vec: Vec, rows: Rows): void {
    let n = 0;
    let inv = 0;
    let log = 0;
    let sq = 0;
    let prod = 1;
    const needs = this.needs;
    forEachNumber(vec, rows, (x) => {
      n++;
      if (needs.inv) inv += 1 / x;
      if (needs.log) log += Math.log(x);
      if (needs.sq) sq += x * x;
      if (needs.prod) prod *= x;
    });
    this.counts[g] += n;
    this.inverses[g] += inv;
    this.logs[g] += log;
    this.squares[g] += sq;
    this.products[g] *= prod;
  }

  finish(name: AggregateName, groups: number): Vec {
    const out = new Float64Array(groups);
    for (let g = 0; g < groups; g++) {
      const n = this.counts[g];
      switch (name) {
        case 'harmonic_mean': out[g] = n / this.inverses[g]; break;
        case 'geometric_mean': out[g] = Math.exp(this.logs[g] / n); break;
        case 'quadratic_mean': out[g] = Math.sqrt(this.squares[g] / n); break;
        case 'sum_of_squares': out[g] = this.squares[g]; break;
        default: out[g] = this.products[g];
      }
    }
    return f64Result(out, groups, (g) => this.counts[g] === 0);
  }

  pointTs(): null {
    return null;
  }
}
