// Query answers as named columns, and their comparison: every svc and DuckDB answer is checked
// against the hand-written loop's, so the bench never reports a fast wrong answer. Floats compare
// with a relative tolerance (summation order differs between engines); integers exactly.
import type { QueryResult } from '../engine/index.js';

export type Value = number | bigint | null;

/** Column name (as svc names it: `$timestamp`, `avg(v)`, `v`, …) → values in row order. */
export type Answer = Record<string, ArrayLike<Value>>;

const REL_TOLERANCE = 1e-9;
const TIMESTAMP_NAMES = ['$timestamp', 'timestamp', '$ts'];

/** Differences between `expected` and `actual` in words (at most a few per column); empty when equal. */
export function compareAnswers(expected: Answer, actual: Answer, options: { timestamps?: boolean } = {}): string[] {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(expected)) {
    const isTime = name === '$timestamp';
    if (isTime && options.timestamps === false) continue;
    const got = isTime ? findTimestamps(actual) : actual[name];
    if (got === undefined) {
      problems.push(`column ${name} missing (got ${Object.keys(actual).join(', ') || 'no columns'})`);
      continue;
    }
    if (got.length !== want.length) {
      problems.push(`column ${name}: ${got.length} rows, expected ${want.length}`);
      continue;
    }
    let shown = 0;
    let wrong = 0;
    for (let i = 0; i < want.length; i++) {
      if (isSame(want[i], got[i])) continue;
      wrong++;
      if (shown++ < 3) problems.push(`column ${name} row ${i}: ${show(got[i])}, expected ${show(want[i])}`);
    }
    if (wrong > shown) problems.push(`column ${name}: ${wrong} wrong values in all`);
  }
  return problems;
}

function findTimestamps(actual: Answer): ArrayLike<Value> | undefined {
  for (const n of TIMESTAMP_NAMES) if (actual[n] !== undefined) return actual[n];
  return undefined;
}

function isSame(want: Value, got: Value): boolean {
  if (want === null || got === null) return want === got || (typeof want === 'number' && Number.isNaN(want) && got === null);
  if (typeof want === 'bigint' && typeof got === 'bigint') return want === got;
  const w = Number(want);
  const g = Number(got);
  if (Number.isNaN(w) || Number.isNaN(g)) return Number.isNaN(w) && Number.isNaN(g);
  if (typeof want === 'bigint' || typeof got === 'bigint' || Number.isInteger(w)) return w === g || Math.abs(w - g) <= Math.abs(w) * 1e-15;
  return Math.abs(w - g) <= Math.max(Math.abs(w), Math.abs(g)) * REL_TOLERANCE;
}

function show(v: Value): string {
  return typeof v === 'bigint' ? `${v}n` : String(v);
}

/**
 * A svc `QueryResult` of one source table as an Answer: its columns by name (null where `nulls`
 * says so) plus the row times as `$timestamp` when the query did not select that column itself
 * and the rows have times.
 */
export function svcAnswer(result: QueryResult): Answer {
  if (result.tables.length === 0) return {};
  if (result.tables.length > 1) throw new Error(`expected rows of one table, got ${result.tables.length} tables`);
  const table = result.tables[0];
  const out: Answer = {};
  for (const c of table.columns) out[c.name] = withNulls(c.values as ArrayLike<Value>, c.nulls);
  if (out.$timestamp === undefined && table.timestampNulls === null) out.$timestamp = table.timestamps;
  return out;
}

function withNulls(values: ArrayLike<Value>, nulls: Uint8Array | null): ArrayLike<Value> {
  if (nulls === null) return values;
  return Array.from(values, (v, i) => (nulls[i] === 1 ? null : v));
}
