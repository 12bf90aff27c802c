// The ASOF JOIN as the operators read it: chunks of joined rows in time order, made by a merge of
// the tables' sorted batches (asof-cursor.ts) as the operators ask for them. LEFT and inner joins
// are driven by the FROM table's batches, RIGHT by the joined table's: a chunk is one driving
// batch slice, whose own columns are read in place, and each other table contributes its last row
// at or before each row's time (inner drops the rows before every table has one). FULL merges the
// rows of all tables into chunks of its own, a row dropped when an earlier table has a row at its
// exact time (that row, as of itself, already shows it).
// Batches are reached through the batch door like every scan's: the driving slices through the
// SliceReader, the others pinned as the walk reaches them (the slices starting at or before the
// chunk's last time, found from their time bounds) and released once it has passed them, so a
// join holds a few batches of each table, not the tables.
import { INT64_MIN } from '../../../../grammar/index.js';
import type { ColumnType } from '../../../types.js';
import type { JoinPlan, TimeRange } from '../../plan/plan-types.js';
import type { Rows } from '../../vector/vec.js';
import { i64Vec, splitInt64 } from '../../vector/vec.js';
import type { Scratch } from '../run/scratch.js';
import type { Chunk } from '../scan/chunk.js';
import { BatchFrame } from '../scan/frame.js';
import type { Listing, Slice } from '../scan/scan-slices.js';
import { sliceBatches } from '../scan/scan-slices.js';
import { SliceReader } from '../scan/slice-reader.js';
import type { TsHalves } from '../scan/ts-search.js';
import { tsHalves } from '../scan/ts-search.js';
import { AsofCursor, MatchRuns } from './asof-cursor.js';
import { JoinFrame } from './join-frame.js';
import type { SideView } from './join-frame.js';

/** One table of a join, as the snapshot took it for one range. */
export interface JoinSideScan {
  /** Batch column index of its `$timestamp` in the joined rows; its columns follow. */
  readonly firstColumn: number;
  /** Its own batch column types: [TIMESTAMP, …schema]. */
  readonly types: readonly ColumnType[];
  /** Its own batch columns the query reads, `$timestamp` (0) among them. */
  readonly columns: readonly number[];
  /** Its rows up to the range's end, in time order: the rows other tables' rows are matched to. */
  readonly history: readonly Slice[];
  /** Its rows in the range, in time order, when they drive output rows; else null. */
  readonly driving: readonly Slice[] | null;
}

/** The joined rows of one range, made as they are read. */
export interface JoinScan {
  chunks(scratch: Scratch): AsyncGenerator<Chunk>;
}

/** The rows of one range for the operators: a plain table's batch slices, or a join's merge. */
export type RangeRows = readonly Slice[] | JoinScan;

export function isSlices(rows: RangeRows): rows is readonly Slice[] {
  return Array.isArray(rows);
}

/** Output rows of a FULL join per chunk. */
const FULL_CHUNK = 65_536;

export function joinScan(type: JoinPlan['type'], sides: readonly JoinSideScan[]): JoinScan {
  return { chunks: (scratch) => (type === 'full' ? fullChunks(sides, scratch) : drivenChunks(type, sides, scratch)) };
}

/**
 * A table's rows a join may match for driving rows in `range` (null: every row): its rows before
 * the range's end, from the last batch that starts before the range on (earlier rows are never
 * the last row at or before a driving row's time). `listing`: the table's batches up to the end.
 */
export async function historySlices(listing: Listing, range: TimeRange | null): Promise<Slice[]> {
  const batches = listing.batches;
  let first = 0;
  if (range !== null) for (let i = 0; i < batches.length; i++) if (batches[i].minTs < range.from) first = i;
  return sliceBatches({ range: range === null ? null : { from: INT64_MIN, to: range.to }, batches: first === 0 ? batches : batches.slice(first), floor: listing.floor });
}

/** Slices pinned in order as a walk reaches them, released once it has passed them. */
class PinnedSlices {
  /** Slices [released, started) are pinned; loads not yet awaited are kept. */
  private started = 0;
  private released = 0;
  private readonly loads: (Promise<void> | null)[] = [];

  constructor(private readonly slices: readonly Slice[], private readonly columns: readonly number[]) {}

  /** The last slice starting at or before `t` (-1: none). */
  lastStartingBy(t: bigint, from: number): number {
    let k = Math.max(from, 0);
    while (k < this.slices.length && this.slices[k].minTs <= t) k++;
    return k - 1;
  }

  /** Pins slices through `last`; the promise resolves when they are resident (null: they are). */
  through(last: number): Promise<void> | null {
    const end = Math.min(last + 1, this.slices.length);
    for (; this.started < end; this.started++) {
      const loading = this.slices[this.started].view.load(this.columns);
      loading?.catch(() => undefined);
      this.loads[this.started] = loading;
    }
    let waits: Promise<void>[] | null = null;
    for (let k = this.released; k < end; k++) {
      const loading = this.loads[k];
      if (loading === null) continue;
      (waits ??= []).push(loading);
      this.loads[k] = null;
    }
    return waits === null ? null : Promise.all(waits).then(() => undefined);
  }

  /** Releases the slices before `k`. */
  releaseBefore(k: number): void {
    for (; this.released < Math.min(k, this.started); this.released++) this.slices[this.released].view.unpin(this.columns);
  }

  close(): void {
    this.releaseBefore(this.started);
  }
}

/** Batch frames of a table's slices, made when first read. */
function framesOf(slices: readonly Slice[], types: readonly ColumnType[], scratch: Scratch): (slice: number) => BatchFrame {
  const frames: BatchFrame[] = [];
  return (i) => (frames[i] ??= new BatchFrame(slices[i].view, types, scratch));
}

/** LEFT, inner and RIGHT: one chunk per slice of the driving table. */
async function* drivenChunks(type: JoinPlan['type'], sides: readonly JoinSideScan[], scratch: Scratch): AsyncGenerator<Chunk> {
  const d = type === 'right' ? 1 : 0;
  const driving = sides[d].driving!;
  const reader = new SliceReader(driving, sides[d].columns, sides[d].types, scratch);
  const pinned = sides.map((s, i) => (i === d ? null : new PinnedSlices(s.history, s.columns)));
  const cursors = sides.map((s, i) => (i === d ? null : new AsofCursor(s.history)));
  const frames = sides.map((s) => framesOf(s.history, s.types, scratch));
  const matches = sides.map(() => new MatchRuns());
  const reached = sides.map(() => -1);
  try {
    for (let k = 0; k < driving.length; k++) {
      const slice = driving[k];
      const loaded = reader.frame(k);
      const direct = loaded instanceof BatchFrame ? loaded : await loaded;
      const halves = tsHalves(slice.view.ts);
      let lo = slice.lo;
      const views: SideView[] = [];
      for (let i = 0; i < sides.length; i++) {
        const s = sides[i];
        if (i === d) {
          views.push({ firstColumn: s.firstColumn, types: s.types, direct, frame: frames[i], matches: matches[i] });
          continue;
        }
        reached[i] = pinned[i]!.lastStartingBy(slice.maxTs, reached[i]);
        const loading = pinned[i]!.through(reached[i]);
        if (loading !== null) await loading;
        cursors[i]!.match(halves, slice.lo, slice.hi, matches[i]);
        if (type === 'inner') lo = Math.max(lo, firstMatched(matches[i], slice.hi));
        views.push({ firstColumn: s.firstColumn, types: s.types, direct: null, frame: frames[i], matches: matches[i] });
      }
      if (lo < slice.hi) {
        const rows: Rows = { sel: null, lo, hi: slice.hi };
        yield { frame: new JoinFrame(slice.view.rowCount, scratch, direct.column(0), views, rows), ts: slice.view.ts, lo, hi: slice.hi };
      }
      // The chunk is done with: the walk never goes back before its current slices.
      for (let i = 0; i < sides.length; i++) pinned[i]?.releaseBefore(cursors[i]!.slice);
    }
  } finally {
    reader.close();
    for (const p of pinned) p?.close();
  }
}

/** The first position with a match (only runs before the table's first row have none). */
function firstMatched(matches: MatchRuns, hi: number): number {
  for (let r = 0; r < matches.count; r++) if (matches.slices[r] >= 0) return matches.starts[r];
  return hi;
}

/** A table's driving rows, walked in time order (the current slice must be loaded). */
class DrivingRows {
  slice = 0;
  row: number;
  private halves: TsHalves | null = null;

  constructor(readonly slices: readonly Slice[]) {
    this.row = slices.length > 0 ? slices[0].lo : 0;
  }

  get isDone(): boolean {
    return this.slice >= this.slices.length;
  }

  /** The current row's time, as halves. */
  hi(): number {
    return (this.halves ??= tsHalves(this.slices[this.slice].view.ts)).hi[(this.row << 1) | 1];
  }

  lo(): number {
    return (this.halves ??= tsHalves(this.slices[this.slice].view.ts)).lo[this.row << 1];
  }

  next(): void {
    if (++this.row < this.slices[this.slice].hi) return;
    this.slice++;
    this.halves = null;
    if (this.slice < this.slices.length) this.row = this.slices[this.slice].lo;
  }
}

/**
 * FULL: every table's rows drive, merged by time (ties in table order). Each chunk runs up to
 * the earliest end of the tables' current driving slices, so the slices it reads are pinned first.
 */
async function* fullChunks(sides: readonly JoinSideScan[], scratch: Scratch): AsyncGenerator<Chunk> {
  const cursors = sides.map((s) => new AsofCursor(s.history));
  const driving = sides.map((s) => new DrivingRows(s.driving ?? []));
  const pinnedHistory = sides.map((s) => new PinnedSlices(s.history, s.columns));
  const pinnedDriving = sides.map((s) => new PinnedSlices(s.driving ?? [], s.columns));
  // A side's matches index its history slices, then its driving slices.
  const frames = sides.map((s) => framesOf([...s.history, ...(s.driving ?? [])], s.types, scratch));
  const matches = sides.map(() => new MatchRuns());
  const reachedHistory = sides.map(() => -1);
  const reachedDriving = sides.map(() => -1);
  try {
    for (;;) {
      let horizon: bigint | null = null;
      for (const rows of driving) {
        if (!rows.isDone && (horizon === null || rows.slices[rows.slice].maxTs < horizon)) horizon = rows.slices[rows.slice].maxTs;
      }
      if (horizon === null) return;
      for (let i = 0; i < sides.length; i++) {
        reachedDriving[i] = Math.max(driving[i].slice, pinnedDriving[i].lastStartingBy(horizon, reachedDriving[i]));
        reachedHistory[i] = pinnedHistory[i].lastStartingBy(horizon, reachedHistory[i]);
        for (const loading of [pinnedDriving[i].through(reachedDriving[i]), pinnedHistory[i].through(reachedHistory[i])]) if (loading !== null) await loading;
      }
      const { hi: horizonHi, lo: horizonLo } = splitInt64(horizon);
      const times = scratch.i64(-1, FULL_CHUNK, 'join');
      for (const m of matches) m.count = 0;
      const lastSlice = sides.map(() => NaN);
      const lastRow = sides.map(() => NaN);
      let n = 0;
      while (n < FULL_CHUNK) {
        let best = -1;
        let bh = 0;
        let bl = 0;
        for (let i = 0; i < driving.length; i++) {
          const rows = driving[i];
          if (rows.isDone || rows.slices[rows.slice].minTs > horizon) continue;
          const h = rows.hi();
          const l = rows.lo();
          if (best < 0 || h < bh || (h === bh && l < bl)) { best = i; bh = h; bl = l; }
        }
        if (best < 0 || bh > horizonHi || (bh === horizonHi && bl > horizonLo)) break;
        let isShadowed = false;
        for (let j = 0; j < cursors.length; j++) {
          cursors[j].advance(bh, bl);
          if (j < best && cursors[j].row >= 0 && cursors[j].currentHi() === bh && cursors[j].currentLo() === bl) isShadowed = true;
        }
        if (!isShadowed) {
          times.lo[n << 1] = bl;
          times.hi[(n << 1) | 1] = bh;
          for (let j = 0; j < sides.length; j++) {
            const own = j === best;
            const slice = own ? sides[j].history.length + driving[j].slice : cursors[j].slice;
            const row = own ? driving[j].row : cursors[j].row;
            if (slice !== lastSlice[j] || row !== lastRow[j]) {
              matches[j].push(n, slice, row);
              lastSlice[j] = slice;
              lastRow[j] = row;
            }
          }
          n++;
        }
        driving[best].next();
      }
      if (n > 0) {
        const views: SideView[] = sides.map((s, j) => ({ firstColumn: s.firstColumn, types: s.types, direct: null, frame: frames[j], matches: matches[j] }));
        const ts = times.values.subarray(0, n);
        yield { frame: new JoinFrame(n, scratch, i64Vec(ts, null), views, { sel: null, lo: 0, hi: n }), ts, lo: 0, hi: n };
      }
      for (let i = 0; i < sides.length; i++) {
        pinnedDriving[i].releaseBefore(driving[i].slice);
        pinnedHistory[i].releaseBefore(cursors[i].slice);
      }
    }
  } finally {
    for (const p of [...pinnedHistory, ...pinnedDriving]) p.close();
  }
}
