// An aggregate's scan split across the worker threads (DESIGN.md, "Every core, one writer"; the
// cluster's query parts in miniature): the slices of a range that read values — not those its
// batches' statistics answer, which stay here — are cut into parts of consecutive slices; each
// part goes to a worker with its columns' shared memory (scan/shared-batch.ts), and the worker
// aggregates it with this very code (aggregate-part-task.ts) into groups, one per batch slice and
// bucket, whose partial states the main thread merges in slice order (Accumulator.mergePartial).
// Merged in that order, each a batch's partial, sums and extremes come out bit for bit as this
// thread alone computes them (it adds each batch's partial to its group in the same order).
// Only what merges that way goes: no GROUP BY column, accumulators with partials (count, sum and
// the means, min/max/spread, first/last), numbers, times and booleans read; a scan reading fewer
// rows than Database.open's parallelScanRows runs here (a part's trip costs ~0.1 ms). At most WINDOW parts per worker are out at
// once, their batches pinned — together at most a ring's share of the memory budget — so a scan
// of data larger than memory holds a bounded window of it, as a scan here does.
import type { AccumulatorPartial } from '../../aggregates/accumulator.js';
import { ReadRing, RING_SHARE } from '../../../memory/index.js';
import type { QueryLimits } from '../../limits.js';
import type { ColumnDef } from '../../../types.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import { isShareableType, shareBatch } from '../scan/shared-batch.js';
import type { BatchShare } from '../scan/shared-batch.js';
import type { AggregateRun } from './aggregate-run.js';
import { maxBuckets } from '../grouping/bucket-segments.js';

/** Rows a part holds at least (unless the scan is smaller: Database.open's parallelScanRows). */
const MIN_PART_ROWS = 1 << 17;
/** Parts per worker: enough to even out slow ones, few enough that each is worth its trip. */
const PARTS_PER_WORKER = 4;
/** Parts out (and their batches pinned) per worker at once. */
const WINDOW = 2;
/** Rows per bucket a GROUP BY duration needs, on average, to be split. */
const MIN_ROWS_PER_BUCKET = 256;

export interface Part {
  /** Slices [from, to) of the range. */
  readonly from: number;
  readonly to: number;
}

export interface Parts {
  readonly list: readonly Part[];
  /** The part each slice is in, or -1: read here. */
  readonly partAt: Int32Array;
}

/** What a worker hands back for a part (aggregate-part-task.ts). */
export interface PartState {
  readonly count: number;
  readonly bucketHi: Int32Array;
  readonly bucketLo: Uint32Array;
  /** One per accumulator of the plan. */
  readonly partials: readonly AccumulatorPartial[];
}

/** What a worker is asked (aggregate-part-task.ts). */
export interface PartInput {
  readonly text: string;
  readonly nowNs: bigint;
  readonly limits: QueryLimits;
  readonly deadlineMs: number;
  readonly tables: readonly { readonly name: string; readonly columns: readonly ColumnDef[] }[];
  /** The result table whose plan runs. */
  readonly table: string;
  readonly isOrdered: boolean;
  readonly slices: readonly PartSlice[];
}

/** A slice of a part: its batch, its rows [lo, hi) and their time bounds. */
export interface PartSlice {
  readonly batch: BatchShare;
  readonly lo: number;
  readonly hi: number;
  readonly minTs: bigint;
  readonly maxTs: bigint;
}

/** The result of a part: merged in, or (its batches not in shared memory) read here after all. */
export type PartResult = PartState | 'here';

/** The parts of a range's slices (none without worker threads or for what does not merge). */
export function partsOf(run: AggregateRun, slices: readonly Slice[], columns: readonly number[], ctx: RunContext): Parts {
  const partAt = new Int32Array(slices.length).fill(-1);
  const parallel = ctx.parallel;
  if (parallel === null || !parallel.pool.isAvailable || !isSplittable(run, columns)) return { list: [], partAt };
  // Slices a worker can take: values to read, in the database's (shared) memory — a tail's view is not.
  const isTaken = (s: Slice): boolean => !run.isStatsAnswerable(s) && s.view.budget?.isShared === true;
  let rows = 0;
  for (const s of slices) if (isTaken(s)) rows += s.hi - s.lo;
  if (rows < parallel.minRows) return { list: [], partAt };
  // Fine buckets over sparse rows make about as many groups as rows: merging them here costs
  // about what the workers save (GROUP BY 1min over a row every ~3 s ran at 0.77× on 2 cores),
  // so such a scan stays here. parallelScanRows below MIN_ROWS_PER_BUCKET lowers the bar with it.
  const bucket = run.agg.bucket;
  if (bucket !== null && rows < Math.min(MIN_ROWS_PER_BUCKET, parallel.minRows) * maxBuckets(slices, bucket)) return { list: [], partAt };
  // Parts out at once pin their batches: together at most a ring's share of the budget.
  const budget = slices.find(isTaken)!.view.budget!;
  const rowBytes = 8 * columns.length + 1;
  const byMemory = Math.floor(budget.limit / (RING_SHARE * WINDOW * parallel.pool.size) / rowBytes);
  const partRows = Math.min(byMemory, Math.max(Math.min(MIN_PART_ROWS, parallel.minRows), Math.ceil(rows / (parallel.pool.size * PARTS_PER_WORKER))));
  const list: Part[] = [];
  let from = -1;
  let inPart = 0;
  const close = (to: number): void => {
    if (from >= 0) list.push({ from, to });
    from = -1;
    inPart = 0;
  };
  for (let k = 0; k < slices.length; k++) {
    const s = slices[k];
    if (!isTaken(s)) { close(k); continue; }
    if (from < 0) from = k;
    partAt[k] = list.length;
    inPart += s.hi - s.lo;
    if (inPart >= partRows) close(k + 1);
  }
  close(slices.length);
  return { list, partAt };
}

/** Whether the run's states merge across parts and its columns can be shared. */
function isSplittable(run: AggregateRun, columns: readonly number[]): boolean {
  if (run.agg.keys.length > 0 || run.accumulators.some((a) => a.partial === undefined || a.mergePartials === undefined)) return false;
  return columns.every((c) => isShareableType(run.plan.columnTypes[c]));
}

/**
 * Starts the parts on the workers, a window at a time: each part's slices are loaded and pinned
 * while it is out. Result i is asked for in order (awaited by the operator as its scan reaches
 * the part); asking for one starts the next ones.
 */
export class PartRunner {
  private readonly results: (Promise<PartResult> | undefined)[] = [];
  private started = 0;
  /** A large read-back goes through a ring of buffers, not the cache (memory/read-ring.ts), as a scan here does. */
  private readonly ring: ReadRing | null;

  constructor(
    private readonly run: AggregateRun,
    private readonly parts: Parts,
    private readonly slices: readonly Slice[],
    private readonly columns: readonly number[],
    private readonly ctx: RunContext,
  ) {
    const budget = slices[parts.list[0].from].view.budget!;
    let bytes = 0;
    for (const p of parts.list) for (let k = p.from; k < p.to; k++) bytes += slices[k].view.bytesToRead(columns);
    this.ring = ReadRing.isFor(budget, bytes) ? new ReadRing(budget) : null;
    this.fill(0);
  }

  /** Part i's result. */
  result(i: number): Promise<PartResult> {
    this.fill(i);
    return this.results[i]!;
  }

  /** Lets parts still out end quietly (the scan stopped): their batches are unpinned when they do. */
  close(): void {
    for (const r of this.results) r?.catch(() => undefined);
    this.ring?.close();
  }

  private fill(i: number): void {
    const window = WINDOW * this.ctx.parallel!.pool.size;
    for (; this.started < this.parts.list.length && this.started < i + window; this.started++) {
      const p = this.start(this.parts.list[this.started]);
      p.catch(() => undefined); // awaited when the scan reaches it; not an unhandled rejection meanwhile
      this.results[this.started] = p;
    }
  }

  private async start(part: Part): Promise<PartResult> {
    const { slices, columns, run, ctx } = this;
    const parallel = ctx.parallel!;
    const views = slices.slice(part.from, part.to).map((s) => s.view);
    const pinned: typeof views = [];
    try {
      for (const view of views) {
        const loading = view.load(columns, this.ring);
        pinned.push(view);
        if (loading !== null) await loading;
      }
      const shared: PartSlice[] = [];
      for (let k = part.from; k < part.to; k++) {
        const { view, lo, hi, minTs, maxTs } = slices[k];
        const batch = shareBatch(view, columns);
        if (batch === null) return 'here';
        shared.push({ batch, lo, hi, minTs, maxTs });
      }
      const input: PartInput = {
        text: parallel.text, nowNs: parallel.nowNs, limits: ctx.limits, deadlineMs: ctx.deadline.remainingMs,
        tables: parallel.tables, table: run.plan.name, isOrdered: run.groups.isCreatedInOrder, slices: shared,
      };
      return await parallel.pool.run<PartState>('aggregatePart', input);
    } finally {
      for (const view of pinned) view.unpin(columns);
    }
  }
}

/** Merges a part's groups into the run's current range, in their order, after what it holds. */
export function mergePart(run: AggregateRun, state: PartState): void {
  const { accumulators, grouper } = run;
  const ids = new Int32Array(state.count);
  for (let k = 0; k < ids.length; k++) ids[k] = grouper.groupOfPart(state.bucketHi[k], state.bucketLo[k]);
  for (let a = 0; a < accumulators.length; a++) accumulators[a].mergePartials!(ids, state.partials[a]);
}
