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
import { planSelectCached } from '../plan/plan-cache.js';
import type { TablePlan } from '../plan/plan-types.js';
import { narrowRange } from '../plan/time-bounds.js';
import { calendarPieces, spanOf } from '../exec/scan/calendar-pieces.js';
import type { QueryResult, ResultTable } from '../result.js';

export async function runSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, ctx: RunContext): Promise<QueryResult> {
  const plan = planSelectCached(ast, catalog, nowNs, ctx.limits);
  const releases = plan.tables.map((t) => t.table.context.leases.lease());
  try {
    // Every table's batches for every range, listed in one synchronous step: one moment's data.
    const listed = plan.tables.map((t) => {
      const isUnordered = t.aggregate !== null && readsUnordered(t.aggregate);
      return (t.ranges ?? [null]).map((range) => listBatches(t.table, range, isUnordered));
    });
    const rowCounts = plan.tables.map((t) => t.table.rowCount);
    const snapshot: Slice[][][] = [];
    for (let i = 0; i < plan.tables.length; i++) {
      const ranges: Slice[][] = [];
      for (const listing of listed[i]) ranges.push(await rangeSlices(plan.tables[i], listing, rowCounts[i], ctx));
      snapshot.push(ranges);
    }
    const tables: ResultTable[] = [];
    for (let i = 0; i < plan.tables.length; i++) {
      const t = plan.tables[i];
      const table = t.aggregate === null ? await runRows(t, ctx, snapshot[i]) : await runAggregate(t, t.aggregate, ctx, snapshot[i]);
      if (table !== null) tables.push(table);
    }
    return { kind: 'rows', tables, scannedRowsCount: ctx.scannedRowsCount };
  } finally {
    for (const release of releases) release();
  }
}

/**
 * The slices the scan of one range reads, out of the batches listed for it (`rowCount`: the
 * table's rows when listed). Calendar filters cut the range into the pieces they keep; those are
 * what the scan reads.
 */
async function rangeSlices(t: TablePlan, listing: Listing, rowCount: number, ctx: RunContext): Promise<Slice[]> {
  const { range, batches } = listing;
  const chunk = t.where === null ? Infinity : Math.max(MIN_CHUNK_ROWS, Math.floor(TESTS_PER_CHUNK / testsPerRow(t.where)));
  const parts = t.calendar === null || range === null ? [range] : calendarPieces(range, t.calendar, spanOf(await sliceBatches(listing)));
  const slices: Slice[] = [];
  for (const part of parts) slices.push(...await sliceBatches({ range: t.timeBounds === null ? part : narrowRange(part, t.timeBounds), batches }));
  if (t.timeBounds !== null) {
    // The operators count the rows they are given; SPEC §7 counts every row of the range.
    let inRange = rowCount;
    if (range !== null) {
      inRange = 0;
      for (const part of parts) inRange += rowsIn(await sliceBatches({ range: part, batches }));
    }
    ctx.scannedRowsCount += (inRange - rowsIn(slices)) * t.referencedColumns;
  }
  return cut(slices, chunk);
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
