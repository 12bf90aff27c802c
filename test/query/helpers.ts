// Helpers of the query tests: results as plain rows [time, ...values] for deep comparisons.
import type { QueryResult, ResultTable } from '../../engine/query/index.js';

export type Cell = number | bigint | string | Uint8Array | null;

/** The rows of one result table: [time, ...values], values as JS scalars (null for null). */
export function rowsOf(table: ResultTable): Cell[][] {
  const rows: Cell[][] = [];
  for (let r = 0; r < table.rowCount; r++) {
    const row: Cell[] = [table.timestampNulls?.[r] === 1 ? null : table.timestamps[r]];
    for (const c of table.columns) row.push(c.nulls?.[r] === 1 ? null : (c.values[r] as Cell));
    rows.push(row);
  }
  return rows;
}

/** Every table of a result as { name: rows }. */
export function tablesOf(result: QueryResult): Record<string, Cell[][]> {
  return Object.fromEntries(result.tables.map((t) => [t.name, rowsOf(t)]));
}

/** Cell equality of the differential tests: doubles within rounding (NaN equals NaN), bytes by content. */
export function sameCell(a: Cell, b: Cell): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (a === b) return true;
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) || Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b;
}
