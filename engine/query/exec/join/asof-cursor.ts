// The as-of merge walk of one joined table: a cursor over its rows in time order (the snapshot's
// slices), kept at the last row at or before the time it was last moved to. Driving rows come in
// time order, so the cursor only moves forward: a whole join is one pass over each table (a
// search per run of driving rows matched to one row), timestamps compared by their 32-bit
// halves (no BigInt per row), no hash. It reads a slice's times only once it walks into it and
// learns where the next slice starts from its time bounds, so the slices ahead may stay on disk.
import type { Slice } from '../scan/scan-slices.js';
import type { TsHalves } from '../scan/ts-search.js';
import { tsHalves } from '../scan/ts-search.js';
import { splitInt64 } from '../../vector/vec.js';

/**
 * Matches of driving positions, as runs: run r covers positions [starts[r], starts[r + 1]) (the
 * last one up to the chunk's end), all matched to batch row rows[r] of slice slices[r] (-1: no row).
 */
export class MatchRuns {
  count = 0;
  starts = new Int32Array(64);
  slices = new Int32Array(64);
  rows = new Int32Array(64);

  push(start: number, slice: number, row: number): void {
    let n = this.count;
    // A later run at the same position replaces the earlier one.
    if (n > 0 && this.starts[n - 1] === start) n--;
    if (n === this.starts.length) this.grow();
    this.starts[n] = start;
    this.slices[n] = slice;
    this.rows[n] = row;
    this.count = n + 1;
  }

  /** The end of run r within a chunk ending at `hi`. */
  end(r: number, hi: number): number {
    return r + 1 < this.count ? this.starts[r + 1] : hi;
  }

  grow(): void {
    const size = this.starts.length * 2;
    for (const key of ['starts', 'slices', 'rows'] as const) {
      const a = new Int32Array(size);
      a.set(this[key]);
      this[key] = a;
    }
  }
}

/** Whether driving position i is before the time (nh, nl): it keeps the current match. */
function isBefore(th: Int32Array, tl: Uint32Array, i: number, nh: number, nl: number): boolean {
  const h = th[(i << 1) | 1];
  return h < nh || (h === nh && tl[i << 1] < nl);
}

const EMPTY: TsHalves = { hi: new Int32Array(0), lo: new Uint32Array(0) };

export class AsofCursor {
  /** The slice and batch row of the last row at or before the time moved to; -1 before any. */
  slice = -1;
  row = -1;
  /** Each slice's row times as halves, read once the walk enters it (the slice is loaded then). */
  private readonly halves: (TsHalves | undefined)[] = [];
  /** Each slice's first row time (its minTs: metadata, no load), as halves. */
  private readonly firstHi: Int32Array;
  private readonly firstLo: Uint32Array;
  /** The next row's time, as halves (nextHi = +Infinity past the last row). */
  private nextHi: number;
  private nextLo = 0;

  constructor(readonly slices: readonly Slice[]) {
    this.firstHi = new Int32Array(slices.length);
    this.firstLo = new Uint32Array(slices.length);
    slices.forEach((s, i) => {
      const t = splitInt64(s.minTs);
      this.firstHi[i] = t.hi;
      this.firstLo[i] = t.lo;
    });
    this.nextHi = slices.length > 0 ? this.firstHi[0] : Infinity;
    if (slices.length > 0) this.nextLo = this.firstLo[0];
  }

  /** The row times of slice s (which must be loaded), as halves. */
  private halvesOf(s: number): TsHalves {
    return (this.halves[s] ??= tsHalves(this.slices[s].view.ts));
  }

  /** The time of the current row (valid when `row >= 0`), as halves. */
  currentHi(): number {
    return this.halvesOf(this.slice).hi[(this.row << 1) | 1];
  }

  currentLo(): number {
    return this.halvesOf(this.slice).lo[this.row << 1];
  }

  /**
   * Matches the driving positions [lo, hi), whose times are `times` (ascending): for each, this
   * table's last row at or before it, written to `out` as runs (a run per matched row, so the
   * walk writes only when the match changes, about once per row of the sparser table). The
   * slices the walk enters (those starting at or before the last position's time) must be loaded.
   */
  match(times: TsHalves, lo: number, hi: number, out: MatchRuns): void {
    out.count = 0;
    out.push(lo, this.slice, this.row);
    // The walk keeps its state in locals (a method call or a property write per step costs
    // more than the comparison itself): the current slice's end and times, the next row's time.
    const slices = this.slices;
    const lastSlice = slices.length - 1;
    let slice = this.slice;
    let row = this.row;
    let sliceEnd = slice >= 0 ? slices[slice].hi : -1;
    let cur = slice >= 0 ? this.halvesOf(slice) : EMPTY;
    let nextHi = this.nextHi;
    let nextLo = this.nextLo;
    const th = times.hi;
    const tl = times.lo;
    // The runs are appended in place too: a call per change costs ~10 ns, a row ~3.
    let n = out.count;
    let starts = out.starts;
    let runSlices = out.slices;
    let runRows = out.rows;
    // Each run is found by a search, not row by row: from the guess of the previous run's length,
    // galloping on or bisecting back, so a run of r positions costs about log2(r) comparisons.
    let guess = 1;
    let k = lo;
    while (k < hi) {
      let end: number;
      if (nextHi === Infinity) end = hi;
      else if (!isBefore(th, tl, k, nextHi, nextLo)) end = k;
      else {
        let a = k + 1;
        let b = hi;
        const g = k + guess < hi ? k + guess : hi - 1;
        if (isBefore(th, tl, g, nextHi, nextLo)) {
          let step = 1;
          a = g + 1;
          while (g + step < hi && isBefore(th, tl, g + step, nextHi, nextLo)) { a = g + step + 1; step <<= 1; }
          b = g + step < hi ? g + step : hi;
        } else b = g;
        while (a < b) {
          const m = (a + b) >>> 1;
          if (isBefore(th, tl, m, nextHi, nextLo)) a = m + 1;
          else b = m;
        }
        end = a;
      }
      if (end >= hi) break;
      if (end > k) guess = end - k;
      // Position `end` is at or after the next row: step to its last row at or before it.
      const h = th[(end << 1) | 1];
      const l = tl[end << 1];
      do {
        if (row + 1 < sliceEnd) row++;
        else {
          slice++;
          row = slices[slice].lo;
          sliceEnd = slices[slice].hi;
          cur = this.halvesOf(slice);
        }
        const after = row + 1;
        if (after < sliceEnd) {
          nextHi = cur.hi[(after << 1) | 1];
          nextLo = cur.lo[after << 1];
        } else if (slice < lastSlice) {
          nextHi = this.firstHi[slice + 1];
          nextLo = this.firstLo[slice + 1];
        } else nextHi = Infinity;
      } while (nextHi < h || (nextHi === h && nextLo <= l));
      if (n > 0 && starts[n - 1] === end) n--;
      if (n === starts.length) {
        out.count = n;
        out.grow();
        starts = out.starts;
        runSlices = out.slices;
        runRows = out.rows;
      }
      starts[n] = end;
      runSlices[n] = slice;
      runRows[n] = row;
      n++;
      k = end;
    }
    out.count = n;
    this.slice = slice;
    this.row = row;
    this.nextHi = nextHi;
    this.nextLo = nextLo;
  }

  /** Moves to the last row at or before (h, l) (the slices it enters must be loaded). */
  advance(h: number, l: number): void {
    while (this.nextHi < h || (this.nextHi === h && this.nextLo <= l)) {
      if (this.slice >= 0 && this.row + 1 < this.slices[this.slice].hi) this.row++;
      else {
        // The next row is the first of the next slice (or of the first slice, before any).
        this.slice += 1;
        this.row = this.slices[this.slice].lo;
      }
      const after = this.row + 1;
      if (after < this.slices[this.slice].hi) {
        const cur = this.halvesOf(this.slice);
        this.nextHi = cur.hi[(after << 1) | 1];
        this.nextLo = cur.lo[after << 1];
      } else if (this.slice + 1 < this.slices.length) {
        this.nextHi = this.firstHi[this.slice + 1];
        this.nextLo = this.firstLo[this.slice + 1];
      } else this.nextHi = Infinity;
    }
  }
}
