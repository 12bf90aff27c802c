// SELECT: plan against the catalog, take the snapshot, then run each table plan with the row or
// aggregate operator. The snapshot is every table's batch list for every range, taken at one
// moment, before the first pause: sealed batches never change, but the lists do (inserts add
// batches, late rows replace some), so a query that yields to the event loop keeps reading the
// data as it was when it started — concurrent inserts neither break it nor leak into it. Batches
// may be on disk only; a lease keeps their checkpoint files until the query ends, and the edge
// batches of each range are cut once their timestamps are read back. Operators may pause only
// between slices, so under a wide WHERE (thousands of terms, seconds per batch) the slices are
// cut shorter, to about a million term tests each. Aggregates that do not need rows in time order
// read the batches as stored (aggregates/row-order.ts), so they never wait for late runs to merge.
import type { Select } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { readsUnordered } from '../aggregates/row-order.js';
import { runAggregate } from '../exec/operators/aggregate-operator.js';
import type { RunContext } from '../exec/run/run-context.js';
import { testsPerRow } from '../exec/kernels/eval-condition.js';
import { runRows } from '../exec/operators/row-operator.js';
import { listBatches, rowsIn, sliceBatches } from '../exec/scan/scan-slices.js';
import type { Listing, Slice } from '../exec/scan/scan-slices.js';
import { columnsRead } from '../exec/scan/slice-reader.js';
import { historySlices, joinScan } from '../exec/join/join-scan.js';
import type { JoinSideScan, RangeRows } from '../exec/join/join-scan.js';
import { INT64_MIN } from '../../../grammar/index.js';
import { planSelectCached } from '../plan/plan-cache.js';
import type { JoinPlan, SelectPlan, TablePlan, TimeRange } from '../plan/plan-types.js';
import { narrowRange } from '../plan/time-bounds.js';
import { calendarPieces, spanOf } from '../exec/scan/calendar-pieces.js';
import type { QueryResult, ResultTable } from '../result.js';

export async function runSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, ctx: RunContext): Promise<QueryResult> {
  return runPlan(planSelectCached(ast, catalog, nowNs, ctx.limits), nowNs, ctx);
}

/**
 * Runs the table plans of `plan` (a SELECT's, or some of them: run-placed-select.ts) at `nowNs`,
 * which also places each table's TTL cutoff (rows before now − TTL are read by nothing). The
 * cutoff is the run's, never the plan's: a cached plan runs again at a later now.
 */
export async function runPlan(plan: SelectPlan, nowNs: bigint, ctx: RunContext): Promise<QueryResult> {
  if (ctx.parallel !== null) ctx.parallel.tables = plan.tables.map((t) => ({ name: t.table.name, columns: t.table.columns }));
  const releases = plan.tables.flatMap((t) => (t.join === null ? [t.table] : t.join.sides.map((s) => s.table)).map((table) => table.context.leases.lease()));
  try {
    // Every table's batches for every range, listed in one synchronous step: one moment's data.
    const listed = plan.tables.map((t) => {
      const isUnordered = t.aggregate !== null && t.join === null && readsUnordered(t.aggregate);
      return (t.ranges ?? [null]).map((range) => (t.join === null ? listBatches(t.table, range, t.table.visibleFrom(nowNs), isUnordered) : listJoin(t.join, range, nowNs)));
    });
    const snapshot: RangeRows[][] = [];
    for (let i = 0; i < plan.tables.length; i++) {
      const ranges: RangeRows[] = [];
      for (const listing of listed[i]) {
        ranges.push('sides' in listing ? await joinRows(plan.tables[i], listing, ctx) : await rangeSlices(plan.tables[i], listing, ctx));
      }
      snapshot.push(ranges);
    }
    const tables: ResultTable[] = [];
    for (let i = 0; i < plan.tables.length; i++) {
      const t = plan.tables[i];
      const table = t.aggregate === null ? await runRows(t, ctx, snapshot[i]) : await runAggregate(t, t.aggregate, ctx, snapshot[i]);
      // A streamed run (ctx.sink) hands its tables over, the rows' in chunks already.
      if (table !== null && ctx.sink !== null) await ctx.sink(table);
      else if (table !== null) tables.push(table);
    }
    return { kind: 'rows', tables, scannedRowsCount: ctx.scannedRowsCount };
  } finally {
    for (const release of releases) release();
  }
}

/**
 * The slices the scan of one range reads, out of the batches listed for it. Calendar filters cut
 * the range into the pieces they keep; those are what the scan reads.
 */
async function rangeSlices(t: TablePlan, listing: Listing, ctx: RunContext): Promise<Slice[]> {
  const { range, batches, floor } = listing;
  const chunk = t.where === null ? Infinity : Math.max(MIN_CHUNK_ROWS, Math.floor(TESTS_PER_CHUNK / testsPerRow(t.where)));
  const parts = t.calendar === null || range === null ? [range] : calendarPieces(range, t.calendar, spanOf(await sliceBatches(listing)));
  const slices: Slice[] = [];
  for (const part of parts) slices.push(...await sliceBatches({ range: t.timeBounds === null ? part : narrowRange(part, t.timeBounds), batches, floor }));
  if (t.timeBounds !== null) {
    // The operators count the rows they are given; SPEC §7 counts every row of the range (rows
    // a TTL took are gone: not counted).
    let inRange = 0;
    for (const part of parts) inRange += rowsIn(await sliceBatches({ range: part, batches, floor }));
    ctx.scannedRowsCount += (inRange - rowsIn(slices)) * t.referencedColumns;
  }
  return cut(slices, chunk);
}

/** A join's batches for one range: each table's in the range when it drives, up to its end when looked up. */
interface JoinListing {
  readonly range: TimeRange | null;
  readonly sides: readonly { readonly driving: Listing | null; readonly history: Listing | null }[];
}

/** Which tables' rows are output rows (drive), and which are matched to other tables' rows. */
function joinRoles(join: JoinPlan): { drives: (i: number) => boolean; isLookedUp: (i: number) => boolean } {
  const drives = (i: number): boolean => join.type === 'full' || (join.type === 'right' ? i === 1 : i === 0);
  return { drives, isLookedUp: (i) => join.type === 'full' || !drives(i) };
}

function listJoin(join: JoinPlan, range: TimeRange | null, nowNs: bigint): JoinListing {
  const { drives, isLookedUp } = joinRoles(join);
  return {
    range,
    sides: join.sides.map((side, i) => {
      // Each table's own TTL: a row a TTL took neither drives nor is matched.
      const floor = side.table.visibleFrom(nowNs);
      return {
        driving: drives(i) ? listBatches(side.table, range, floor) : null,
        history: isLookedUp(i) ? listBatches(side.table, range === null ? null : { from: INT64_MIN, to: range.to }, floor) : null,
      };
    }),
  };
}

/**
 * A join's rows in one range: the driving tables' slices of the range's pieces, and every
 * looked-up table's history up to the range's end; each table reads the columns of its block the
 * plan reads, and its `$timestamp`.
 */
async function joinRows(t: TablePlan, listing: JoinListing, ctx: RunContext): Promise<RangeRows> {
  const join = t.join!;
  const read = columnsRead(t, true);
  const sides: JoinSideScan[] = [];
  for (let i = 0; i < join.sides.length; i++) {
    const side = join.sides[i];
    const { driving, history } = listing.sides[i];
    const width = 1 + side.table.columns.length;
    const columns = [0, ...read.filter((c) => c > side.firstColumn && c < side.firstColumn + width).map((c) => c - side.firstColumn)];
    sides.push({
      firstColumn: side.firstColumn,
      types: ['TIMESTAMP', ...side.table.columns.map((c) => c.type)],
      columns,
      history: history === null ? [] : await historySlices(history, listing.range),
      driving: driving === null ? null : await rangeSlices(t, driving, ctx),
    });
  }
  return joinScan(join.type, sides);
}

/** Term tests between two chances to pause (a few ms of work), and the fewest rows worth a slice. */
const TESTS_PER_CHUNK = 1 << 20;
const MIN_CHUNK_ROWS = 1024;

/** `slices` cut into pieces of at most `rows` rows (the operators take any part of a batch). */
function cut(slices: Slice[], rows: number): Slice[] {
  if (slices.every((s) => s.hi - s.lo <= rows)) return slices;
  const out: Slice[] = [];
  // Each piece keeps its slice's time bounds (still bounds of its rows).
  for (const s of slices) for (let lo = s.lo; lo < s.hi; lo += rows) out.push({ ...s, lo, hi: Math.min(s.hi, lo + rows) });
  return out;
}
