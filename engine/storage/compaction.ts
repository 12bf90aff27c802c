// One compaction job: merges sorted sources (a shard's sealed batches overlapping its late runs,
// then the runs in the order they were sealed) into one sorted sequence of new batches, a window
// at a time so the work comes in bounded steps. A window is every row before a time `t` chosen so
// it holds at most `batchRows` rows: all sources are sorted, so the rows before `t` merge without
// looking at the rest, and equal timestamps never straddle two windows. Within a window the
// sources are concatenated in order and stably sorted, so ties keep source order (= insertion
// order). The sources are never written; the job only reads them and builds new batches.
// A step reads source batches through use(), which makes them resident (synchronously, when a
// background compactor did not load them ahead through nextSources()) and pins them until the
// step ends.
import { buildBatch } from './batch-builder.js';
import type { NormalizedBatch } from './batch-input.js';
import { sortPermutation } from './sort-permutation.js';
import { concatRows, permuteRows, sliceRows } from './row-slices.js';
import type { TableLayout } from './table-layout.js';
import { viewRows } from './view-rows.js';
import type { SealedBatch } from './sealed-batch.js';

interface Segment { readonly view: SealedBatch; readonly lo: number; readonly hi: number }

export class Compaction {
  readonly out: SealedBatch[] = [];
  /** Batches the running step loaded and pinned. */
  private readonly used = new Set<SealedBatch>();
  /** Per source: the batch and row where its unmerged rows start. */
  private readonly atBatch: number[];
  private readonly atRow: number[];

  constructor(private readonly layout: TableLayout, readonly sources: readonly (readonly SealedBatch[])[]) {
    this.atBatch = sources.map(() => 0);
    this.atRow = sources.map(() => 0);
  }

  get isDone(): boolean {
    return this.sources.every((s, k) => this.atBatch[k] >= s.length);
  }

  /**
   * The batches the next step reads unless more than `batchRows` rows share one timestamp: per
   * source, from its cursor up to the batch holding its (batchRows + 1)-th unmerged row.
   */
  nextSources(): SealedBatch[] {
    const out: SealedBatch[] = [];
    this.sources.forEach((s, k) => {
      let rows = -this.atRow[k];
      for (let b = this.atBatch[k]; b < s.length && rows <= this.layout.batchRows; b++) {
        out.push(s[b]);
        rows += s[b].rowCount;
      }
    });
    return out;
  }

  /** Merges the next window into `out`: at most `batchRows` rows unless one timestamp has more. */
  step(): void {
    try {
      this.merge();
    } finally {
      for (const b of this.used) b.unpin(b.allColumns);
      this.used.clear();
    }
  }

  private merge(): void {
    const end = this.windowEnd();
    const segments: Segment[] = [];
    for (let k = 0; k < this.sources.length; k++) this.take(k, end, segments);
    if (segments.length === 1 && segments[0].lo === 0 && segments[0].hi === segments[0].view.rowCount) {
      this.out.push(segments[0].view); // A whole batch alone in its window is already merged.
      return;
    }
    const merged = concatRows(segments.map((s) => viewRows(this.use(s.view), this.layout.columns, s.lo, s.hi)));
    const perm = sortPermutation(merged.ts);
    const rows = perm === null ? merged : permuteRows(merged, perm);
    for (let at = 0; at < rows.ts.length; at += this.layout.batchRows) this.build(sliceRows(rows, at, Math.min(rows.ts.length, at + this.layout.batchRows)));
  }

  private build(rows: NormalizedBatch): void {
    this.out.push(buildBatch(this.layout, rows.ts, rows.columns));
  }

  /** The window's exclusive end time, or null when every remaining row fits in one window. */
  private windowEnd(): bigint | null {
    const limit = this.layout.batchRows;
    let lo: bigint | null = null;
    let hi: bigint | null = null;
    for (let k = 0; k < this.sources.length; k++) {
      const s = this.sources[k];
      if (this.atBatch[k] >= s.length) continue;
      const first = this.use(s[this.atBatch[k]]).ts[this.atRow[k]];
      const last = s[s.length - 1].maxTs;
      if (lo === null || first < lo) lo = first;
      if (hi === null || last > hi) hi = last;
    }
    if (lo === null || hi === null || this.count(hi + 1n) <= limit) return null;
    // count(a) = 0 <= limit < count(b): bisect for the last end keeping within the limit.
    let a: bigint = lo;
    let b: bigint = hi + 1n;
    while (b - a > 1n) {
      const mid: bigint = a + (b - a) / 2n;
      if (this.count(mid) <= limit) a = mid;
      else b = mid;
    }
    // Nothing fits: more than `limit` rows share the earliest timestamp; take all of them.
    return this.count(a) === 0 ? b : a;
  }

  /**
   * Unmerged rows of all sources before `t`, or some number above `batchRows` once there are
   * more (the window search only compares it with that): batches past it are not read.
   */
  private count(t: bigint): number {
    const limit = this.layout.batchRows;
    let n = 0;
    for (let k = 0; k < this.sources.length && n <= limit; k++) {
      const s = this.sources[k];
      for (let b = this.atBatch[k], r = this.atRow[k]; b < s.length && n <= limit; b++, r = 0) {
        const view = s[b];
        if (view.maxTs < t) { n += view.rowCount - r; continue; }
        n += lowerBound(this.use(view).ts, r, view.rowCount, t) - r;
        break;
      }
    }
    return n;
  }

  /** `view`, resident and pinned until the step ends. */
  private use(view: SealedBatch): SealedBatch {
    if (!this.used.has(view)) {
      view.loadSync(view.allColumns);
      this.used.add(view);
    }
    return view;
  }

  /** Moves source k's cursor past its rows before `end` (all when null), collecting them. */
  private take(k: number, end: bigint | null, out: Segment[]): void {
    const s = this.sources[k];
    while (this.atBatch[k] < s.length) {
      const view = s[this.atBatch[k]];
      const lo = this.atRow[k];
      const hi = end === null || view.maxTs < end ? view.rowCount : lowerBound(this.use(view).ts, lo, view.rowCount, end);
      if (hi > lo) out.push({ view, lo, hi });
      if (hi < view.rowCount) { this.atRow[k] = hi; return; }
      this.atBatch[k]++;
      this.atRow[k] = 0;
    }
  }
}

/** First index in [lo, hi) of the sorted `ts` at or after `t` (a few BigInt compares per window, not per row). */
export function lowerBound(ts: BigInt64Array, lo: number, hi: number, t: bigint): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (ts[m] < t) lo = m + 1;
    else hi = m;
  }
  return lo;
}
