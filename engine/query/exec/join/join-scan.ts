// The ASOF JOIN as the operators read it: chunks of joined rows in time order, made by a merge of
// the tables' sorted batches (asof-cursor.ts) as the operators ask for them. LEFT and inner joins
// are driven by the FROM table's batches, RIGHT by the joined table's: a chunk is one driving
// batch slice, whose own columns are read in place, and each other table contributes its last row
// at or before each row's time (inner drops the rows before every table has one). FULL merges the
// rows of all tables into chunks of its own, a row dropped when an earlier table has a row at its
// exact time (that row, as of itself, already shows it).
import { INT64_MIN } from '../../../../grammar/index.js';
import type { Table } from '../../../storage/table.js';
import type { ColumnType } from '../../../types.js';
import type { JoinPlan, TimeRange } from '../../plan/plan-types.js';
import type { Rows } from '../../vector/vec.js';
import { i64Vec } from '../../vector/vec.js';
import type { Scratch } from '../run/scratch.js';
import type { Chunk, RangeScan } from '../scan/chunk.js';
import { BatchFrame } from '../scan/frame.js';
import type { Slice } from '../scan/scan-slices.js';
import { scanSlices } from '../scan/scan-slices.js';
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
  /** Its rows up to the range's end, in time order: the rows other tables' rows are matched to. */
  readonly history: readonly Slice[];
  /** Its rows in the range, in time order, when they drive output rows; else null. */
  readonly driving: readonly Slice[] | null;
}

/**
 * A table's rows a join may match for driving rows in [from, to) (null: every row): its rows
 * before `to`, from the last batch slice that starts before `from` on (earlier rows are never the
 * last row at or before a driving row's time).
 */
export function historySlices(table: Table, range: TimeRange | null): Slice[] {
  const all = scanSlices(table, range === null ? null : { from: INT64_MIN, to: range.to });
  if (range === null) return all;
  let first = 0;
  for (let i = 0; i < all.length; i++) if (all[i].view.ts[all[i].lo] < range.from) first = i;
  return first === 0 ? all : all.slice(first);
}

/** Output rows of a FULL join per chunk. */
const FULL_CHUNK = 65_536;

export function joinScan(type: JoinPlan['type'], sides: readonly JoinSideScan[]): RangeScan {
  return { slices: null, chunks: (_types, scratch) => (type === 'full' ? fullChunks(sides, scratch) : drivenChunks(type, sides, scratch)) };
}

/** Batch frames of a table's slices, made when first read. */
function framesOf(slices: readonly Slice[], types: readonly ColumnType[], scratch: Scratch): (slice: number) => BatchFrame {
  const frames: BatchFrame[] = [];
  return (i) => (frames[i] ??= new BatchFrame(slices[i].view, types, scratch));
}

/** LEFT, inner and RIGHT: one chunk per slice of the driving table. */
function* drivenChunks(type: JoinPlan['type'], sides: readonly JoinSideScan[], scratch: Scratch): Generator<Chunk> {
  const d = type === 'right' ? 1 : 0;
  const cursors = sides.map((s, i) => (i === d ? null : new AsofCursor(s.history)));
  const frames = sides.map((s) => framesOf(s.history, s.types, scratch));
  const matches = sides.map(() => new MatchRuns());
  for (const slice of sides[d].driving!) {
    const view = slice.view;
    const halves = tsHalves(view.ts);
    const direct = new BatchFrame(view, sides[d].types, scratch);
    let lo = slice.lo;
    const views: SideView[] = sides.map((s, i) => {
      if (i === d) return { firstColumn: s.firstColumn, types: s.types, direct, frame: frames[i], matches: matches[i] };
      cursors[i]!.match(halves, slice.lo, slice.hi, matches[i]);
      if (type === 'inner') lo = Math.max(lo, firstMatched(matches[i], slice.hi));
      return { firstColumn: s.firstColumn, types: s.types, direct: null, frame: frames[i], matches: matches[i] };
    });
    if (lo >= slice.hi) continue;
    const rows: Rows = { sel: null, lo, hi: slice.hi };
    yield { frame: new JoinFrame(view.rowCount, scratch, direct.column(0), views, rows), ts: view.ts, lo, hi: slice.hi, slice: null };
  }
}

/** The first position with a match (only runs before the table's first row have none). */
function firstMatched(matches: MatchRuns, hi: number): number {
  for (let r = 0; r < matches.count; r++) if (matches.slices[r] >= 0) return matches.starts[r];
  return hi;
}

/** A table's driving rows, walked in time order. */
class DrivingRows {
  slice = 0;
  row: number;
  private readonly halves: TsHalves[];

  constructor(readonly slices: readonly Slice[]) {
    this.halves = slices.map((s) => tsHalves(s.view.ts));
    this.row = slices.length > 0 ? slices[0].lo : 0;
  }

  get isDone(): boolean {
    return this.slice >= this.slices.length;
  }

  hi(): number {
    return this.halves[this.slice].hi[(this.row << 1) | 1];
  }

  lo(): number {
    return this.halves[this.slice].lo[this.row << 1];
  }

  next(): void {
    if (++this.row < this.slices[this.slice].hi) return;
    this.slice++;
    if (this.slice < this.slices.length) this.row = this.slices[this.slice].lo;
  }
}

/** FULL: every table's rows drive, merged by time (ties in table order), in chunks of FULL_CHUNK. */
function* fullChunks(sides: readonly JoinSideScan[], scratch: Scratch): Generator<Chunk> {
  const cursors = sides.map((s) => new AsofCursor(s.history));
  const driving = sides.map((s) => new DrivingRows(s.driving ?? []));
  // A side's matches index its history slices, then its driving slices.
  const frames = sides.map((s) => framesOf([...s.history, ...(s.driving ?? [])], s.types, scratch));
  const matches = sides.map(() => new MatchRuns());
  for (;;) {
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
        if (driving[i].isDone) continue;
        const h = driving[i].hi();
        const l = driving[i].lo();
        if (best < 0 || h < bh || (h === bh && l < bl)) { best = i; bh = h; bl = l; }
      }
      if (best < 0) break;
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
    if (n === 0) return;
    const views: SideView[] = sides.map((s, j) => ({ firstColumn: s.firstColumn, types: s.types, direct: null, frame: frames[j], matches: matches[j] }));
    const ts = times.values.subarray(0, n);
    yield { frame: new JoinFrame(n, scratch, i64Vec(ts, null), views, { sel: null, lo: 0, hi: n }), ts, lo: 0, hi: n, slice: null };
    if (n < FULL_CHUNK) return;
  }
}
