// A view's rows for some buckets: computed by running its SELECT over the source's rows in those
// buckets with the query engine's own operators (so a bucket holds exactly what that SELECT
// answers there), then put in place of the view's rows there. The source is read whole, its TTL
// aside: rows a source's TTL hides stay in its views (SPEC §14) until the source drops them.
import type { NormalizedBatch } from '../storage/batch-input.js';
import type { ColumnValues } from '../storage/column-values.js';
import { gather64, nullColumn, permuteColumn } from '../storage/column-values.js';
import type { RowRemoval, TimePiece } from '../storage/row-removal.js';
import type { Table } from '../storage/table.js';
import type { ColumnDef } from '../types.js';
import { Deadline } from '../query/deadline.js';
import { aggregateGroups, runAggregate } from '../query/exec/operators/aggregate-operator.js';
import { RunContext } from '../query/exec/run/run-context.js';
import { sliceBatches } from '../query/exec/scan/scan-slices.js';
import type { Listing, Slice } from '../query/exec/scan/scan-slices.js';
import { scalarAt } from '../query/vector/scalars.js';
import type { Scalar, Vec } from '../query/vector/vec.js';
import { narrowRange } from '../query/plan/time-bounds.js';
import type { TablePlan } from '../query/plan/plan-types.js';
import type { ResultTable } from '../query/result.js';
import type { Accumulator } from '../query/aggregates/accumulator.js';
import type { GroupTable } from '../query/exec/grouping/group-table.js';
import { VIEW_LIMITS } from '../query/plan/plan-view.js';

/**
 * Work between a refresh's pauses, in ms: a trade between the writers in flight, which run at
 * every pause (longer slices stall their pipeline: ingest with a view 0.74-0.77x without at 25 ms),
 * and the lag of the writes a round settles, which its pauses spread over the writers' time (p99
 * 1.1 s at a query's 8 ms). At 12 ms: 0.80-0.85x and p99 0.6-0.9 s (20 M rows, fsync, 8 writes in
 * flight, rounds of 512 K rows; a shared, noisy 2-core machine).
 */
const SLICE_MS = 12;

/**
 * The view rows of range [from, to) (whole buckets) from the source batches `listing` holds: the
 * view's SELECT (`plan`, GROUP BY columns first) run over them; null when no row falls there.
 * Pauses like a query, so other work goes on, but after longer slices (SLICE_MS).
 */
export async function computeRows(plan: TablePlan, listing: Listing, columns: readonly ColumnDef[]): Promise<NormalizedBatch | null> {
  const slices = await slicesOf(plan, listing);
  if (slices.length === 0) return null;
  const agg = plan.aggregate!;
  const ctx = refreshContext();
  try {
    const { groups, accumulators } = await aggregateGroups(plan, agg, ctx, [slices]);
    return viewBatchOf(plan, columns, groups, accumulators);
  } finally {
    ctx.close();
  }
}

/**
 * The groups' rows as the view stores them. Taken by group as they are: the view's table orders
 * its rows, and its columns are the plan's outputs — GROUP BY keys and aggregate calls — so
 * neither result order nor evaluation is needed. Accumulators and groups own their arrays (not
 * the run's scratch), so the rows outlive the run.
 */
function viewBatchOf(plan: TablePlan, columns: readonly ColumnDef[], groups: GroupTable, accumulators: readonly Accumulator[]): NormalizedBatch | null {
  const agg = plan.aggregate!;
  const n = groups.count;
  if (n === 0) return null;
  return {
    ts: groups.bucketStarts(),
    columns: plan.outputs.map((o, i) => {
      const e = o.expr;
      if (e.kind === 'groupKey') return fromScalars(columns[i], n, (g) => groups.keys[g][e.slot]);
      if (e.kind !== 'aggregate') throw new Error(`a view's output is a ${e.kind}, not a key or an aggregate`);
      const call = agg.calls[e.slot];
      return fromVec(accumulators[call.accumulator].finish(call.name, n), columns[i], n);
    }),
  };
}

/** The result of `plan` (a view's SELECT, or its partial states' SELECT) over the batches `listing` holds, in its range. */
export async function computeResult(plan: TablePlan, listing: Listing): Promise<ResultTable | null> {
  const slices = await slicesOf(plan, listing);
  if (slices.length === 0) return null;
  const ctx = refreshContext();
  try {
    return await runAggregate(plan, plan.aggregate!, ctx, [slices]);
  } finally {
    // The run's scratch goes back to the pool queries take theirs from.
    ctx.close();
  }
}

/** The slices of the listed batches in its range (narrowed by the WHERE's time terms), from its floor. */
function slicesOf(plan: TablePlan, listing: Listing): Promise<Slice[]> {
  const range = plan.timeBounds === null ? listing.range : narrowRange(listing.range, plan.timeBounds);
  return sliceBatches({ range, batches: listing.batches, floor: listing.floor });
}

function refreshContext(): RunContext {
  return new RunContext(new Deadline(Infinity), VIEW_LIMITS, null, SLICE_MS);
}

/**
 * Puts `rows` (sorted by bucket) in place of the view's rows in `parts` (ascending, whole
 * buckets): every row there leaves, then the computed rows of those buckets come in. Synchronous:
 * a reader sees the view before or after, never between.
 */
export function replaceRows(table: Table, parts: readonly TimePiece[], rows: NormalizedBatch | null): void {
  table.removeRows(everyRowIn(parts));
  if (rows === null) return;
  const keep: number[] = [];
  let k = 0;
  for (let i = 0; i < rows.ts.length; i++) {
    const t = rows.ts[i];
    while (k < parts.length && parts[k].to <= t) k++;
    if (k < parts.length && parts[k].from <= t) keep.push(i);
  }
  if (keep.length === 0) return;
  table.insert(keep.length === rows.ts.length ? rows : pick(rows, keep));
}

/** Removes every row of `parts`. */
function everyRowIn(parts: readonly TimePiece[]): RowRemoval {
  return {
    ranges: parts,
    piecesIn: (from, to) => parts.filter((p) => p.to > from && p.from < to).map((p) => ({ from: p.from < from ? from : p.from, to: p.to > to ? to : p.to })),
    columns: [],
    match: null,
    duplicate: null,
  };
}

/** An aggregate's values by group as a column of the view (its numbers as they are, a null mask from the validity). */
function fromVec(vec: Vec, def: ColumnDef, n: number): ColumnValues {
  if (vec.kind === 'f64' && def.type === 'DOUBLE') return { type: def.type, values: vec.values.subarray(0, n), nulls: nullMask(vec.validity, n) };
  if (vec.kind === 'i64' && (def.type === 'INT64' || def.type === 'TIMESTAMP')) return { type: def.type, values: vec.values.subarray(0, n), nulls: nullMask(vec.validity, n) };
  return fromScalars(def, n, (g) => scalarAt(vec, g, def.type !== 'BLOB'));
}

/** A column of the view from one value per group. */
function fromScalars(def: ColumnDef, n: number, at: (g: number) => Scalar): ColumnValues {
  const col = nullColumn(def.type, n);
  if ('nulls' in col) {
    for (let g = 0; g < n; g++) {
      const v = at(g);
      if (v === null) continue;
      col.nulls![g] = 0;
      (col.values as Float64Array | BigInt64Array)[g] = (typeof v === 'boolean' ? Number(v) : v) as never;
    }
    return col;
  }
  const values = col.values as unknown[];
  for (let g = 0; g < n; g++) {
    const v = at(g);
    values[g] = def.type === 'BOOLEAN' && typeof v === 'number' ? v !== 0 : v;
  }
  return col;
}

/** A byte-per-row null mask from a validity bitmap (null: no nulls). */
function nullMask(validity: Uint8Array | null, n: number): Uint8Array | null {
  if (validity === null) return null;
  const nulls = new Uint8Array(n);
  for (let g = 0; g < n; g++) nulls[g] = (validity[g >> 3] >> (g & 7)) & 1 ? 0 : 1;
  return nulls;
}

function pick(rows: NormalizedBatch, keep: readonly number[]): NormalizedBatch {
  const perm = Uint32Array.from(keep);
  const ts = new BigInt64Array(perm.length);
  gather64(rows.ts, ts, perm, 0, perm.length);
  return { ts, columns: rows.columns.map((c) => permuteColumn(c, perm, 0, perm.length)) };
}
