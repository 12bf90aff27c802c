// adjacent_count: the number of differences between successive non-null values of a group, in
// time order (QuasarDB's definition): 1, 1, 2, 1 → 2. The last value of each group is kept
// across segments, so a change at a batch or bucket edge is counted once.
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec } from '../vector/vec.js';
import { RunByRunAccumulator, grow, growList } from './accumulator.js';
import type { ValueKey } from './value-key.js';
import { keyAt, sameKey } from './value-key.js';

export class AdjacentCountAccumulator extends RunByRunAccumulator {
  readonly readsRowTimes = false;
  private counts = new Float64Array(8);
  private readonly lasts: (ValueKey | null)[] = [];

  constructor(private readonly isText: boolean) {
    super();
  }

  reserve(groups: number): void {
    this.counts = grow(this.counts, groups);
    growList(this.lasts, groups, null);
  }

  add(g: number, vec: Vec, rows: Rows): void {
    let last = this.lasts[g];
    let n = 0;
    const { sel, lo, hi } = rows;
    for (let k = lo; k < hi; k++) {
      const key = keyAt(vec, sel === null ? k : sel[k], this.isText);
      if (key === null) continue;
      if (last !== null && !sameKey(last, key)) n++;
      last = key;
    }
    this.lasts[g] = last;
    this.counts[g] += n;
  }

  finish(_name: string, groups: number): Vec {
    const out = new BigInt64Array(groups);
    for (let g = 0; g < groups; g++) out[g] = BigInt(this.counts[g]);
    return i64Vec(out, null);
  }

  pointTs(): null {
    return null;
  }
}
