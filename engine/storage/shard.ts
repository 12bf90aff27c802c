// One time shard of a table: `main`, sealed batches in time order that never overlap; `runs`,
// sealed batches of late rows in the order they were sealed, each sorted but overlapping `main`
// or each other; and a mutable tail taking rows of any time. Ties keep insertion order because
// rows in `main` are older than rows in any run, runs are older than later runs, and the tail is
// newest. An insert only appends to the tail; a sealed tail becomes a run for its late part and
// joins `main` for the rest. Compaction merges the runs into `main`, or small runs with each
// other (compaction-policy.ts), a window at a time (compaction.ts) and swaps the result in at
// the end. No sealed batch is ever changed: the lists are replaced, so anything a reader holds
// stays valid; batches replaced are retired (their memory leaves the budget once no reader pins
// them). The tail's bytes are counted in the memory budget as held data.
import { buildBatch } from './batch-builder.js';
import type { NormalizedBatch } from './batch-input.js';
import { Compaction } from './compaction.js';
import { chooseJob } from './compaction-policy.js';
import type { JobChoice } from './compaction-policy.js';
import { sliceRows } from './row-slices.js';
import { minTimestamp } from './shard-partition.js';
import { Tail } from './tail.js';
import type { SourceRows } from './tail.js';
import type { TableLayout } from './table-layout.js';
import type { SealedBatch } from './sealed-batch.js';
import type { ColumnDef } from '../types.js';

export class Shard {
  private main: readonly SealedBatch[] = [];
  private runs: readonly SealedBatch[] = [];
  private readonly tail: Tail;
  /** The tail materialized as a batch for readers; dropped whenever the tail changes. */
  private tailView: SealedBatch | null = null;
  private job: Compaction | null = null;
  /** Into `main`: where the job's part of `main` starts (`main` only grows at its end while a job runs). */
  private jobStart = 0;
  /** The job merges runs [jobRuns, jobRuns + its sources) with each other; -1: into `main`. */
  private jobRuns = -1;
  /** The latest timestamp of any run (meaningful while runs exist). */
  private runsMaxTs = 0n;
  /** The tail's bytes as last counted in the budget. */
  private tailBytes = 0;

  /** `onRun` is told when a late run appears, so compaction can be scheduled. */
  constructor(private readonly layout: TableLayout, private readonly onRun: (shard: Shard) => void) {
    this.tail = new Tail(layout);
  }

  get rowCount(): number {
    let n = this.tail.length;
    for (const b of this.main) n += b.rowCount;
    for (const b of this.runs) n += b.rowCount;
    return n;
  }

  get hasRuns(): boolean {
    return this.runs.length > 0;
  }

  /**
   * Adds rows [start, end) of a batch (or with `perm`, rows perm[start..end)), all of this shard,
   * to the tail; `isSorted`: they are in time order.
   */
  insert(src: SourceRows, perm: Uint32Array | null, start: number, end: number, isSorted: boolean): void {
    const mainMax = this.main.length === 0 ? null : this.main[this.main.length - 1].maxTs;
    while (start < end) {
      const stop = Math.min(end, start + this.layout.batchRows - this.tail.length);
      const min = isSorted ? src.batch.ts[perm === null ? start : perm[start]] : minTimestamp(src, perm, start, stop);
      this.tail.append(src, perm, start, stop, min, isSorted, mainMax !== null && min < mainMax);
      this.tailView = null;
      if (this.tail.length >= this.layout.batchRows) this.seal();
      start = stop;
    }
    this.countTail();
  }

  /** Brings the budget's count of the tail's bytes up to date (after any change to the tail). */
  countTail(): void {
    const bytes = this.tail.bytes;
    if (bytes === this.tailBytes) return;
    this.layout.budget.holdTail(bytes - this.tailBytes);
    this.tailBytes = bytes;
  }

  /**
   * The tail, opened for `n` rows of an unsorted insert earliest `min` that Tail.scatter() will
   * write, or null when they would fill it (those go through insert(), which seals as it goes).
   */
  openTail(n: number, min: bigint): Tail | null {
    if (this.tail.length + n >= this.layout.batchRows) return null;
    const mainMax = this.main.length === 0 ? null : this.main[this.main.length - 1].maxTs;
    this.tail.open(n, min, mainMax !== null && min < mainMax);
    this.tailView = null;
    return this.tail;
  }

  /**
   * Seals the tail: rows at or after everything sealed (strictly after every run, whose rows
   * are older) extend `main`; the earlier ones become a new run.
   */
  seal(): void {
    if (this.tail.length === 0) return;
    const rows = this.tail.take();
    this.tailView = null;
    const n = rows.ts.length;
    let split = 0;
    if (this.main.length > 0 || this.runs.length > 0) {
      const mainMax = this.main.length === 0 ? rows.ts[0] : this.main[this.main.length - 1].maxTs;
      const bound = this.runs.length > 0 && this.runsMaxTs >= mainMax ? this.runsMaxTs + 1n : mainMax;
      let hi = n;
      while (split < hi) { const m = (split + hi) >>> 1; if (rows.ts[m] < bound) split = m + 1; else hi = m; }
    }
    if (split > 0) this.addRun(this.build(sliceRows(rows, 0, split)));
    if (split < n) this.main = [...this.main, this.build(sliceRows(rows, split, n))];
    this.countTail();
  }

  /**
   * Batches in time order, never overlapping, ties in insertion order: what ordered reads need.
   * Late rows are merged first (finishing the compaction they are waiting for). A fresh array.
   */
  orderedViews(): SealedBatch[] {
    const mainMax = this.main.length === 0 ? null : this.main[this.main.length - 1].maxTs;
    const tailMin = this.tail.minTs;
    if (this.tail.length > 0 && mainMax !== null && (tailMin < mainMax || (this.runs.length > 0 && tailMin <= this.runsMaxTs))) this.seal();
    while (this.runs.length > 0) this.compactStep(true);
    const out = [...this.main];
    if (this.tail.length > 0) out.push(this.viewOfTail());
    return out;
  }

  /** The table's schema grew: the tail takes null columns; sealed batches read them as null. */
  addColumns(columns: readonly ColumnDef[]): void {
    this.tail.addColumns(columns);
    this.tailView = null;
    this.countTail();
  }

  /** Every batch as stored: `main`, then the runs in seal order, then the tail. A fresh array. */
  storedViews(): SealedBatch[] {
    const out = [...this.main, ...this.runs];
    if (this.tail.length > 0) out.push(this.viewOfTail());
    return out;
  }

  /** The tail's rows as a batch (sharing its buffers, counted as the tail's), made once per change. */
  private viewOfTail(): SealedBatch {
    if (this.tailView === null) {
      const rows = this.tail.sorted();
      this.tailView = buildBatch(this.layout, rows.ts, rows.columns, true);
      this.countTail();
    }
    return this.tailView;
  }

  /** Whether the shard holds no row (a removal may leave it so). */
  get isEmpty(): boolean {
    return this.tail.length === 0 && this.main.length === 0 && this.runs.length === 0;
  }

  /**
   * Replaces batches of `main` and the runs, each by a batch of some of its rows (a removal's
   * outcome) or by nothing (null); the tail must be sealed. A compaction under way is dropped
   * (its sources changed) and starts again from the new lists.
   */
  replaceBatches(swaps: ReadonlyMap<SealedBatch, SealedBatch | null>): void {
    this.abortJob();
    const swap = (list: readonly SealedBatch[]): SealedBatch[] => list.flatMap((b) => {
      const r = swaps.get(b);
      if (r === undefined) return [b];
      b.retire();
      return r === null ? [] : [r];
    });
    this.main = swap(this.main);
    this.runs = swap(this.runs);
    this.runsMaxTs = this.runs.reduce((m, r) => (r.maxTs > m ? r.maxTs : m), this.runs.length === 0 ? 0n : this.runs[0].maxTs);
    if (this.runs.length > 0) this.onRun(this);
  }

  /** Drops the compaction job under way: what it built so far leaves the budget. */
  private abortJob(): void {
    if (this.job === null) return;
    for (const b of this.job.out) b.retire();
    this.job = null;
  }

  /** The shard leaves its table (dropped): its batches and tail leave the budget. */
  drop(): void {
    this.abortJob();
    for (const b of this.main) b.retire();
    for (const b of this.runs) b.retire();
    this.main = [];
    this.runs = [];
    this.tailView = null;
    this.layout.budget.holdTail(-this.tailBytes);
    this.tailBytes = 0;
  }

  /**
   * Takes back a batch of storedViews() (in that order): it extends `main` while it does not
   * overlap it, and is a run from the first one that does.
   */
  restore(view: SealedBatch): void {
    const mainMax = this.main.length === 0 ? null : this.main[this.main.length - 1].maxTs;
    if (this.runs.length === 0 && (mainMax === null || view.minTs >= mainMax)) this.main = [...this.main, view];
    else this.addRun(view);
  }

  /**
   * One bounded step of compaction: one window of the current job, started when none runs as
   * compaction-policy.ts chooses (`isForced`: into `main`, for a reader that needs the rows in
   * order). Returns whether more steps are due now; false when the runs are merged, or wait for
   * more runs (or for the compactor to force them in once the shard is quiet).
   */
  compactStep(isForced = false): boolean {
    const job = this.currentJob(isForced);
    if (job === null) return false;
    if (!job.isDone) job.step();
    if (!job.isDone) return true;
    const kept = new Set(job.out);
    for (const source of job.sources) for (const b of source) if (!kept.has(b)) b.retire();
    if (this.jobRuns >= 0) {
      // The merged run takes the place of the runs it merged (runs sealed meanwhile come after).
      const from = this.jobRuns;
      this.runs = [...this.runs.slice(0, from), ...job.out, ...this.runs.slice(from + job.sources.length)];
    } else {
      // Swap in: main = before + merged + after (batches sealed into `main` meanwhile come after).
      const start = this.jobStart;
      this.main = [...this.main.slice(0, start), ...job.out, ...this.main.slice(start + job.sources[0].length)];
      this.runs = this.runs.slice(job.sources.length - 1);
      this.runsMaxTs = this.runs.reduce((m, r) => (r.maxTs > m ? r.maxTs : m), this.runs.length === 0 ? 0n : this.runs[0].maxTs);
    }
    this.job = null;
    return this.nextJob(isForced) !== null;
  }

  /**
   * The batches the next compaction step will read, loaded and pinned (Compaction.nextSources):
   * the background compactor awaits `ready`, runs the step and unpins `batches`. Null when no
   * step is due.
   */
  warmStep(isForced: boolean): { readonly batches: SealedBatch[]; readonly ready: Promise<unknown> | null } | null {
    const job = this.currentJob(isForced);
    if (job === null || job.isDone) return null;
    const batches = job.nextSources();
    const loads = batches.map((b) => b.load(b.allColumns)).filter((p) => p !== null);
    return { batches, ready: loads.length === 0 ? null : Promise.all(loads) };
  }

  /** The job under way, or a new one as compaction-policy.ts chooses (null: nothing to do). */
  private currentJob(isForced: boolean): Compaction | null {
    if (this.job === null) {
      const choice = this.nextJob(isForced);
      if (choice === null) return null;
      this.job = this.startJob(choice);
    }
    return this.job;
  }

  /** What compaction-policy.ts chooses for the runs now. */
  private nextJob(isForced: boolean): JobChoice {
    if (this.runs.length === 0) return null;
    const [start, end] = this.overlapped();
    let mainRows = 0;
    for (let k = start; k < end; k++) mainRows += this.main[k].rowCount;
    return chooseJob(this.runs, mainRows, this.layout.batchRows, isForced);
  }

  /**
   * A job for `choice`. Into `main`: every run sealed so far, with the part of `main` they fall
   * among (overlapped()). Runs with each other: runs [from, end), each its own source in seal
   * order, so ties keep insertion order.
   */
  private startJob(choice: NonNullable<JobChoice>): Compaction {
    if (choice.kind === 'runs') {
      this.jobRuns = choice.from;
      return new Compaction(this.layout, this.runs.slice(choice.from).map((r) => [r]));
    }
    const [start, end] = this.overlapped();
    this.jobStart = start;
    this.jobRuns = -1;
    return new Compaction(this.layout, [this.main.slice(start, end), ...this.runs.map((r) => [r])]);
  }

  /**
   * The batches of `main` [start, end) the runs fall among: from the first batch ending after
   * the earliest run row to the last batch starting at or before the latest one (a batch
   * starting at exactly that time holds older ties, which must come first).
   */
  private overlapped(): [number, number] {
    let min = this.runs[0].minTs;
    for (const r of this.runs) if (r.minTs < min) min = r.minTs;
    const start = this.firstAfter(min);
    let end = start;
    while (end < this.main.length && this.main[end].minTs <= this.runsMaxTs) end++;
    return [start, end];
  }

  /** Index of the first batch of `main` ending after `ts`. */
  private firstAfter(ts: bigint): number {
    let i = 0;
    while (i < this.main.length && this.main[i].maxTs <= ts) i++;
    return i;
  }

  private addRun(view: SealedBatch): void {
    if (this.runs.length === 0 || view.maxTs > this.runsMaxTs) this.runsMaxTs = view.maxTs;
    this.runs = [...this.runs, view];
    this.onRun(this);
  }

  private build(rows: NormalizedBatch): SealedBatch {
    return buildBatch(this.layout, rows.ts, rows.columns);
  }
}
