// abs_min and abs_max: the smallest and largest absolute value, min(|x|) and max(|x|), keeping
// the input type, with the time of the (earliest) row holding it. NaN is skipped, as min/max do.
// int64 values are compared as doubles; only a tie beyond 2^53, where doubles round, is settled
// with BigInt. Batches read as stored (`tiesByTime`: late runs not merged) may bring an earlier
// row after a later one: a tie then goes to the earlier row time, as in time order.
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec } from '../vector/vec.js';
import { RunByRunAccumulator, f64Result, grow, growList, nullBits } from './accumulator.js';
import type { AggregateName } from '../plan/aggregate-registry.js';

const EXACT = 2 ** 53;

export class AbsAccumulator extends RunByRunAccumulator {
  readonly readsRowTimes: boolean;
  private has = new Uint8Array(16);
  private best = new Float64Array(8);
  private readonly bigBest: bigint[] = [];
  private readonly bestTs: bigint[] = [];

  /** Ties go to the earlier row time: only the picked row's time can differ (|x| has one sign). */
  private readonly tiesByTs: boolean;

  constructor(private readonly isMax: boolean, private readonly isInt: boolean, private readonly needsPoint: boolean, tiesByTime = false) {
    super();
    this.tiesByTs = tiesByTime && needsPoint;
    this.readsRowTimes = needsPoint;
  }

  reserve(groups: number): void {
    this.has = grow(this.has, groups);
    this.best = grow(this.best, groups);
    growList(this.bestTs, groups, 0n);
    if (this.isInt) growList(this.bigBest, groups, 0n);
  }

  add(g: number, vec: Vec, rows: Rows, ts: BigInt64Array): void {
    const { sel, lo, hi } = rows;
    const isMax = this.isMax;
    let bi = -1;
    let bd = 0;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      let d: number;
      if (vec.kind === 'f64') {
        if (vec.validity !== null && ((vec.validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
        d = Math.abs(vec.values[i]);
        if (d !== d) continue;
      } else if (vec.kind === 'i64') {
        if (vec.validity !== null && ((vec.validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
        d = Math.abs(vec.hi[(i << 1) | 1] * 4294967296 + vec.lo[i << 1]);
      } else {
        throw new Error(`planner bug: abs_min/abs_max over ${vec.kind}`);
      }
      if (bi < 0 || (isMax ? d > bd : d < bd)) { bd = d; bi = i; continue; }
      if (d === bd && d >= EXACT && vec.kind === 'i64') {
        const x = abs(vec.values[i]);
        const b = abs(vec.values[bi]);
        if (isMax ? x > b : x < b) bi = i;
      }
    }
    if (bi < 0) return;
    const isFirst = this.has[g] === 0;
    this.has[g] = 1;
    const byTs = this.tiesByTs;
    if (vec.kind === 'i64') {
      const x = abs(vec.values[bi]);
      if (isFirst || (isMax ? x > this.bigBest[g] : x < this.bigBest[g]) || (byTs && x === this.bigBest[g] && ts[bi] < this.bestTs[g])) {
        this.bigBest[g] = x;
        if (this.needsPoint) this.bestTs[g] = ts[bi];
      }
    } else if (isFirst || (isMax ? bd > this.best[g] : bd < this.best[g]) || (byTs && bd === this.best[g] && ts[bi] < this.bestTs[g])) {
      this.best[g] = bd;
      if (this.needsPoint) this.bestTs[g] = ts[bi];
    }
  }

  finish(_name: AggregateName, groups: number): Vec {
    const isEmpty = (g: number): boolean => this.has[g] === 0;
    if (this.isInt) {
      const out = new BigInt64Array(groups);
      for (let g = 0; g < groups; g++) out[g] = BigInt.asIntN(64, this.bigBest[g]);
      return i64Vec(out, nullBits(groups, isEmpty));
    }
    return f64Result(this.best.slice(0, groups), groups, isEmpty);
  }

  pointTs(_name: AggregateName, g: number): bigint | null {
    return this.has[g] === 0 ? null : this.bestTs[g];
  }
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}
