// SELECT: plan against the catalog, take the snapshot, then run each table plan with the row or
// aggregate operator. The snapshot is every table's batch list for every range, taken before the
// first pause: sealed batches never change, but the lists do (inserts add batches, late rows
// replace some), so a query that yields to the event loop keeps reading the data as it was when
// it started — concurrent inserts neither break it nor leak into it. Operators may pause only
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
import { rowsIn, scanSlices } from '../exec/scan/scan-slices.js';
import type { Slice } from '../exec/scan/scan-slices.js';
import { sliceScan } from '../exec/scan/chunk.js';
import type { RangeScan } from '../exec/scan/chunk.js';
import { historySlices, joinScan } from '../exec/join/join-scan.js';
import type { Table } from '../../storage/table.js';
import { planSelectCached } from '../plan/plan-cache.js';
import type { JoinPlan, TimeRange } from '../plan/plan-types.js';
import { narrowRange } from '../plan/time-bounds.js';
import { calendarPieces, spanOf } from '../exec/scan/calendar-pieces.js';
import type { QueryResult, ResultTable } from '../result.js';

export async function runSelect(ast: Select, catalog: QueryCatalog, nowNs: bigint, ctx: RunContext): Promise<QueryResult> {
  const plan = planSelectCached(ast, catalog, nowNs, ctx.limits);
  const snapshot = plan.tables.map((t) => {
    const chunk = t.where === null ? Infinity : Math.max(MIN_CHUNK_ROWS, Math.floor(TESTS_PER_CHUNK / testsPerRow(t.where)));
    const isUnordered = t.aggregate !== null && t.join === null && readsUnordered(t.aggregate);
    return (t.ranges ?? [null]).map((range): RangeScan => {
      // Calendar filters cut the range into the pieces they keep; those are what the scan reads.
      const parts = t.calendar === null || range === null ? [range] : calendarPieces(range, t.calendar, spanOf(scanSlices(t.table, range, true)));
      const narrowed = (part: TimeRange | null): TimeRange | null => (t.timeBounds === null ? part : narrowRange(part, t.timeBounds));
      const read = (table: Table): Slice[] => (parts.length === 1 ? scanSlices(table, narrowed(parts[0]), isUnordered)
        : parts.flatMap((part) => scanSlices(table, narrowed(part), isUnordered)));
      if (t.join !== null) return joinSnapshot(t.join, (table) => cut(read(table), chunk), range === null ? null : narrowed(range));
      const slices = read(t.table);
      if (t.timeBounds !== null) {
        // The operators count the rows they are given; SPEC §7 counts every row of the range.
        const inRange = range === null ? t.table.rowCount : parts.reduce((n, p) => n + rowsIn(scanSlices(t.table, p, true)), 0);
        ctx.scannedRowsCount += (inRange - rowsIn(slices)) * t.referencedColumns;
      }
      return sliceScan(cut(slices, chunk));
    });
  });
  const tables: ResultTable[] = [];
  for (let i = 0; i < plan.tables.length; i++) {
    const t = plan.tables[i];
    const table = t.aggregate === null ? await runRows(t, ctx, snapshot[i]) : await runAggregate(t, t.aggregate, ctx, snapshot[i]);
    if (table !== null) tables.push(table);
  }
  return { kind: 'rows', tables, scannedRowsCount: ctx.scannedRowsCount };
}

/**
 * A join's rows in one range: the driving tables' rows in the range's pieces, and every table's
 * history up to the range's end (the rows a driving row may be matched to).
 */
function joinSnapshot(join: JoinPlan, driving: (table: Table) => Slice[], range: TimeRange | null): RangeScan {
  const drives = (i: number): boolean => join.type === 'full' || (join.type === 'right' ? i === 1 : i === 0);
  // A table's history is what other tables' rows are matched to: every table's in FULL, else the looked-up ones'.
  const isLookedUp = (i: number): boolean => join.type === 'full' || !drives(i);
  return joinScan(join.type, join.sides.map((side, i) => ({
    firstColumn: side.firstColumn,
    types: ['TIMESTAMP', ...side.table.columns.map((c) => c.type)],
    history: isLookedUp(i) ? historySlices(side.table, range) : [],
    driving: drives(i) ? driving(side.table) : null,
  })));
}

/** Term tests between two chances to pause (a few ms of work), and the fewest rows worth a slice. */
const TESTS_PER_CHUNK = 1 << 20;
const MIN_CHUNK_ROWS = 1024;

/** `slices` cut into pieces of at most `rows` rows (the operators take any part of a batch). */
function cut(slices: Slice[], rows: number): Slice[] {
  if (slices.every((s) => s.hi - s.lo <= rows)) return slices;
  const out: Slice[] = [];
  for (const s of slices) for (let lo = s.lo; lo < s.hi; lo += rows) out.push({ view: s.view, lo, hi: Math.min(s.hi, lo + rows) });
  return out;
}
