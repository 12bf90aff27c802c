// The as-of merge walk of one joined table: a cursor over its rows in time order (the snapshot's
// slices), kept at the last row at or before the time it was last moved to. Driving rows come in
// time order, so the cursor only moves forward: a whole join is one pass over each table, with
// two number comparisons per driving row (timestamps by their 32-bit halves, no BigInt per row)
// and no hash.
import type { Slice } from '../scan/scan-slices.js';
import type { TsHalves } from '../scan/ts-search.js';
import { tsHalves } from '../scan/ts-search.js';

export class AsofCursor {
  /** The slice and batch row of the last row at or before the time moved to; -1 before any. */
  slice = -1;
  row = -1;
  readonly halves: readonly TsHalves[];
  /** The next row's time, as halves (nextHi = +Infinity past the last row). */
  private nextHi: number;
  private nextLo = 0;

  constructor(readonly slices: readonly Slice[]) {
    this.halves = slices.map((s) => tsHalves(s.view.ts));
    this.nextHi = Infinity;
    if (slices.length > 0) this.loadNext(0, slices[0].lo);
  }

  /** The time of the current row (valid when `row >= 0`), as halves. */
  currentHi(): number {
    return this.halves[this.slice].hi[(this.row << 1) | 1];
  }

  currentLo(): number {
    return this.halves[this.slice].lo[this.row << 1];
  }

  /**
   * Fills rows[k] for the driving positions k in [lo, hi) whose times are `times` (ascending):
   * the batch row of this table's last row at or before each, and `runs` with where the slice
   * changes (pairs: first position, slice index or -1 for no row yet).
   */
  match(times: TsHalves, lo: number, hi: number, rows: Int32Array, runs: number[]): void {
    runs.length = 0;
    let slice = this.slice;
    let row = this.row;
    let nextHi = this.nextHi;
    let nextLo = this.nextLo;
    runs.push(lo, slice);
    const th = times.hi;
    const tl = times.lo;
    for (let k = lo; k < hi; k++) {
      const h = th[(k << 1) | 1];
      const l = tl[k << 1];
      if (nextHi < h || (nextHi === h && nextLo <= l)) {
        this.slice = slice;
        this.row = row;
        this.advance(h, l);
        if (this.slice !== slice) runs.push(k, this.slice);
        slice = this.slice;
        row = this.row;
        nextHi = this.nextHi;
        nextLo = this.nextLo;
      }
      rows[k] = row;
    }
    this.slice = slice;
    this.row = row;
  }

  /** Moves to the last row at or before (h, l). */
  advance(h: number, l: number): void {
    while (this.nextHi < h || (this.nextHi === h && this.nextLo <= l)) {
      const next = this.row + 1;
      if (this.slice >= 0 && next < this.slices[this.slice].hi) this.row = next;
      else {
        // The next row is the first of the next slice (or of the first slice, before any).
        this.slice += 1;
        this.row = this.slices[this.slice].lo;
      }
      const after = this.row + 1;
      if (after < this.slices[this.slice].hi) this.loadNext(this.slice, after);
      else if (this.slice + 1 < this.slices.length) this.loadNext(this.slice + 1, this.slices[this.slice + 1].lo);
      else this.nextHi = Infinity;
    }
  }

  private loadNext(slice: number, row: number): void {
    const h = this.halves[slice];
    this.nextHi = h.hi[(row << 1) | 1];
    this.nextLo = h.lo[row << 1];
  }
}
