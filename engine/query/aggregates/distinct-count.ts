// distinct_count: the number of distinct non-null values per group, over any type (a set of
// value keys per group; see value-key.ts for what counts as equal).
import type { Rows, Vec } from '../vector/vec.js';
import { i64Vec } from '../vector/vec.js';
import { RunByRunAccumulator, growList } from './accumulator.js';
import type { ValueKey } from './value-key.js';
import { keyAt } from './value-key.js';

export class DistinctCountAccumulator extends RunByRunAccumulator {
  readonly readsRowTimes = false;
  private readonly sets: (Set<ValueKey> | null)[] = [];

  constructor(private readonly isText: boolean) {
    super();
  }

  reserve(groups: number): void {
    growList(this.sets, groups, null);
  }

  add(g: number, vec: Vec, rows: Rows): void {
    const set = (this.sets[g] ??= new Set());
    const { sel, lo, hi } = rows;
    for (let k = lo; k < hi; k++) {
      const key = keyAt(vec, sel === null ? k : sel[k], this.isText);
      if (key !== null) set.add(key);
    }
  }

  finish(_name: string, groups: number): Vec {
    const out = new BigInt64Array(groups);
    for (let g = 0; g < groups; g++) out[g] = BigInt(this.sets[g]?.size ?? 0);
    return i64Vec(out, null);
  }

  pointTs(): null {
    return null;
  }
}
