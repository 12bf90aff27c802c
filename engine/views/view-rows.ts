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
import { runAggregate } from '../query/exec/operators/aggregate-operator.js';
import { RunContext } from '../query/exec/run/run-context.js';
import { sliceBatches } from '../query/exec/scan/scan-slices.js';
import type { Listing } from '../query/exec/scan/scan-slices.js';
import { narrowRange } from '../query/plan/time-bounds.js';
import type { TablePlan } from '../query/plan/plan-types.js';
import type { ResultColumn, ResultTable } from '../query/result.js';
import { VIEW_LIMITS } from '../query/plan/plan-view.js';

/**
 * Work between a refresh's pauses, in ms. Longer than a query's 8 ms: a round is a few tens of ms
 * of work, and writers in flight run at every pause, so short slices would spread a round (and
 * the lag of every write it settles) over the time those writes take; at 25 ms a round ends about
 * when its work is done, and a request waits at most that long behind it.
 */
const SLICE_MS = 25;

/**
 * The view rows of range [from, to) (whole buckets) from the source batches `listing` holds: the
 * view's SELECT (`plan`, GROUP BY columns first) run over them; null when no row falls there.
 * Pauses like a query, so other work goes on, but after longer slices (SLICE_MS).
 */
export async function computeRows(plan: TablePlan, listing: Listing, columns: readonly ColumnDef[]): Promise<NormalizedBatch | null> {
  const result = await computeResult(plan, listing);
  return result === null ? null : toRows(result, columns);
}

/** The result of `plan` (a view's SELECT, or its partial states' SELECT) over the batches `listing` holds, in its range. */
export async function computeResult(plan: TablePlan, listing: Listing): Promise<ResultTable | null> {
  const range = plan.timeBounds === null ? listing.range : narrowRange(listing.range, plan.timeBounds);
  const slices = await sliceBatches({ range, batches: listing.batches, floor: listing.floor });
  if (slices.length === 0) return null;
  const ctx = new RunContext(new Deadline(Infinity), VIEW_LIMITS, null, SLICE_MS);
  return runAggregate(plan, plan.aggregate!, ctx, [slices]);
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

/** The view's columns from a result of its SELECT: its outputs are the view's columns, in order. */
function toRows(result: ResultTable, columns: readonly ColumnDef[]): NormalizedBatch {
  const n = result.rowCount;
  return { ts: result.timestamps, columns: columns.map((def, i) => toColumn(result.columns[i], def, n)) };
}

function toColumn(col: ResultColumn, def: ColumnDef, n: number): ColumnValues {
  if (col.type === 'none') return nullColumn(def.type, n);
  switch (def.type) {
    case 'DOUBLE':
      return { type: def.type, values: col.values as Float64Array, nulls: col.nulls };
    case 'INT64':
    case 'TIMESTAMP':
      return { type: def.type, values: col.values as BigInt64Array, nulls: col.nulls };
    case 'STRING':
    case 'SYMBOL':
      return { type: def.type, values: withNulls(col.values as (string | null)[], col.nulls) };
    case 'BLOB':
      return { type: def.type, values: withNulls(col.values as (Uint8Array | null)[], col.nulls) };
    case 'BOOLEAN': {
      const values = col.values as Float64Array;
      return { type: def.type, values: Array.from(values, (v, i) => (col.nulls?.[i] === 1 ? null : v !== 0)) };
    }
  }
}

function withNulls<T>(values: readonly (T | null)[], nulls: Uint8Array | null): (T | null)[] {
  return nulls === null ? [...values] : values.map((v, i) => (nulls[i] === 1 ? null : v));
}

function pick(rows: NormalizedBatch, keep: readonly number[]): NormalizedBatch {
  const perm = Uint32Array.from(keep);
  const ts = new BigInt64Array(perm.length);
  gather64(rows.ts, ts, perm, 0, perm.length);
  return { ts, columns: rows.columns.map((c) => permuteColumn(c, perm, 0, perm.length)) };
}
