// What the chart draws, built from a result without the DOM (unit-tested in Node): one series per
// numeric column per group of rows, a group being the rows that share the values of the key
// columns (SYMBOL/STRING columns, and the GROUP BY columns whatever their type) in one source
// table. Nulls and NaN become gaps (`null`, which uPlot leaves undrawn and keeps out of the y
// range; NaN would spoil the range and blank the chart), so a series starting with nulls draws
// from its first value. Past `maxSeries` the series with the highest maximum are kept. Series
// whose times differ are put on one x axis (uPlot's data format): the union of their times while
// that stays small, else a grid of `gridPoints` steps across the span holding each step's low and
// high value — finer than the chart's pixels, so the drawn lines are the same.
import { keysOf } from './result.js';
import type { ColumnKeys, ResultColumn, ResultTable } from './result.js';

/** A y array as uPlot reads it: numbers; null is a gap, undefined (a hole) is no point. */
export type YValues = Float64Array | (number | null | undefined)[];

export interface ChartSeries {
  readonly label: string;
  /** Booleans hold their value until the next row: drawn as steps. */
  readonly isStep: boolean;
  /** The largest value (the rule that picks which series stay past the cap); -Infinity if none. */
  readonly peak: number;
}

export interface ChartData {
  /** [x in seconds ascending, y of each series] */
  readonly data: [Float64Array, ...YValues[]];
  readonly series: readonly ChartSeries[];
  /** Series the result has (more than `series` when capped). */
  readonly total: number;
  /** How the series were put on one x axis. */
  readonly alignment: 'shared' | 'union' | 'grid';
}

export interface ChartOptions {
  /** Result column names that split rows into groups whatever their type (GROUP BY columns). */
  readonly keyColumns: ReadonlySet<string>;
  readonly maxSeries: number;
  /** Steps of the grid used when an exact union of times would be too large. */
  readonly gridPoints: number;
  /** Cells (x values × series) an exact union may take. */
  readonly maxUnionCells: number;
}

export const DEFAULT_CHART_OPTIONS: ChartOptions = { keyColumns: new Set(), maxSeries: 100, gridPoints: 8192, maxUnionCells: 4_000_000 };

/** A series before alignment: its own times (seconds, ascending) and values (NaN = null). */
interface RawSeries extends ChartSeries {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly hasGaps: boolean;
}

/** Whether a column splits rows into groups (`$table` does not: each source table is apart already). */
function isKey(c: ResultColumn, keys: ReadonlySet<string>): boolean {
  if (c.kind === 'time' || c.name === '$table') return false;
  return keys.has(c.name) || (c.kind === 'text' && c.type !== 'blob' && c.type !== 'none');
}

/** Row indexes of each group, in row order, and each group's key text. */
function groupRows(table: ResultTable, keyColumns: readonly ResultColumn[]): { rows: Int32Array[]; labels: string[] } {
  const n = table.rowCount;
  // A code per row over all key columns (mixed radix over each column's distinct values).
  const perColumn = keyColumns.map((c) => c.keys() ?? numberKeys(c, n));
  // Groups numbered in order of first appearance; the combined code (null = 0) indexes a table
  // while the key space is small (one SYMBOL column: its dictionary), else a map.
  const space = perColumn.reduce((p, k) => p * (k.labels.length + 1), 1);
  const lookup = space <= 1 << 20 ? new Int32Array(space).fill(-1) : null;
  const ids = new Map<number, number>();
  const groupOf = new Int32Array(n);
  const firstRow: number[] = [];
  const single = perColumn.length === 1 ? perColumn[0]!.codes : null;
  for (let r = 0; r < n; r++) {
    let code = 0;
    if (single !== null) code = single[r]! + 1;
    else for (const k of perColumn) code = code * (k.labels.length + 1) + (k.codes[r]! + 1);
    let g = lookup === null ? ids.get(code) ?? -1 : lookup[code]!;
    if (g < 0) {
      g = firstRow.length;
      if (lookup === null) ids.set(code, g); else lookup[code] = g;
      firstRow.push(r);
    }
    groupOf[r] = g;
  }
  const counts = new Int32Array(firstRow.length);
  for (let r = 0; r < n; r++) counts[groupOf[r]!]!++;
  const rows = Array.from(counts, (c) => new Int32Array(c));
  const filled = new Int32Array(firstRow.length);
  for (let r = 0; r < n; r++) { const g = groupOf[r]!; rows[g]![filled[g]!++] = r; }
  const labels = firstRow.map((r) => keyColumns.map((c, i) => `${c.name}=${c.isNull(r) ? 'null' : perColumn[i]!.labels[perColumn[i]!.codes[r]!]}`).join(' '));
  return { rows, labels };
}

/** Codes of a number or boolean column used as a key (a GROUP BY over an INT64 column). */
function numberKeys(c: ResultColumn, n: number): ColumnKeys {
  return keysOf(n, (r) => (c.isNull(r) ? null : c.exact(r)));
}

/** Times in seconds of the rows (all rows when `rows` is null), rows without a time left out. */
function timesOf(time: Float64Array, rows: Int32Array | null): { x: Float64Array; rows: Int32Array | null } {
  // One tight pass in the common case (no row without a time), kept as it is.
  const n = rows === null ? time.length : rows.length;
  const x = new Float64Array(n);
  let isComplete = true;
  if (rows === null) {
    for (let i = 0; i < n && isComplete; i++) { const t = time[i]!; if (t !== t) isComplete = false; else x[i] = t / 1000; }
  } else {
    for (let i = 0; i < n && isComplete; i++) { const t = time[rows[i]!]!; if (t !== t) isComplete = false; else x[i] = t / 1000; }
  }
  if (isComplete) return sortedByTime(x, rows);
  const kept: number[] = [];
  for (let i = 0; i < n; i++) { const r = rows === null ? i : rows[i]!; if (!Number.isNaN(time[r]!)) kept.push(r); }
  const use = Int32Array.from(kept);
  return sortedByTime(Float64Array.from(use, (r) => time[r]! / 1000), use);
}

/** The rows in time order (results under ORDER BY come in another order). */
function sortedByTime(x: Float64Array, rows: Int32Array | null): { x: Float64Array; rows: Int32Array | null } {
  let isSorted = true;
  for (let i = 1; i < x.length && isSorted; i++) if (x[i]! < x[i - 1]!) isSorted = false;
  if (isSorted) return { x, rows };
  const order = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => x[a]! - x[b]! || a - b);
  return { x: Float64Array.from(order, (i) => x[i]!), rows: Int32Array.from(order, (i) => (rows === null ? i : rows[i]!)) };
}

function valuesOf(numbers: Float64Array, rows: Int32Array | null, length: number): Float64Array {
  if (rows === null) return numbers.length === length ? numbers : numbers.subarray(0, length);
  const y = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) y[i] = numbers[rows[i]!]!;
  return y;
}

/** The largest value and whether any value is NaN (a gap), in one pass. */
function scan(y: Float64Array): { peak: number; hasGaps: boolean } {
  let peak = -Infinity;
  let hasGaps = false;
  for (let i = 0; i < y.length; i++) {
    const v = y[i]!;
    if (v > peak) peak = v;
    else if (v !== v) hasGaps = true;
  }
  return { peak, hasGaps };
}

function rawSeries(tables: readonly ResultTable[], keys: ReadonlySet<string>): RawSeries[] {
  const drawable = tables.filter((t) => t.time !== null && t.rowCount > 0);
  const out: RawSeries[] = [];
  for (const t of drawable) {
    const keyColumns = t.columns.filter((c) => isKey(c, keys));
    const valueColumns = t.columns.filter((c) => (c.kind === 'number' || c.kind === 'boolean') && !isKey(c, keys));
    if (valueColumns.length === 0) continue;
    const groups = keyColumns.length === 0 ? { rows: [null], labels: [''] } : groupRows(t, keyColumns);
    groups.rows.forEach((rows, g) => {
      const { x, rows: ordered } = timesOf(t.time!, rows);
      if (x.length === 0) return;
      for (const c of valueColumns) {
        const y = valuesOf(c.numbers!, ordered, x.length);
        const name = [valueColumns.length > 1 || groups.labels[g] === '' ? c.name : '', groups.labels[g]!].filter((p) => p !== '').join(' · ');
        out.push({ label: drawable.length > 1 ? `${t.name}: ${name}` : name, isStep: c.kind === 'boolean', ...scan(y), x, y });
      }
    });
  }
  return out;
}

/** y with nulls where the values are NaN (gaps); the typed array itself when there are none. */
function withGaps(s: RawSeries): YValues {
  if (!s.hasGaps) return s.y;
  const out: (number | null)[] = new Array<number | null>(s.y.length);
  for (let i = 0; i < s.y.length; i++) out[i] = Number.isNaN(s.y[i]!) ? null : s.y[i]!;
  return out;
}

function isSameX(a: Float64Array, b: Float64Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Every distinct time of the series, ascending. */
function unionOf(series: readonly RawSeries[]): Float64Array {
  const xs = new Set<Float64Array>(series.map((s) => s.x));
  let total = 0;
  for (const x of xs) total += x.length;
  const all = new Float64Array(total);
  let at = 0;
  for (const x of xs) { all.set(x, at); at += x.length; }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i]!;
  return all.slice(0, n);
}

/** A series' values at the union's times: holes where it has no point, null where it is null. */
function onUnion(s: RawSeries, union: Float64Array): YValues {
  const out: (number | null | undefined)[] = new Array<number | null | undefined>(union.length);
  let u = 0;
  for (let i = 0; i < s.x.length; i++) {
    while (union[u]! < s.x[i]!) u++;
    const v = s.y[i]!;
    out[u] = Number.isNaN(v) ? null : v;
  }
  return out;
}

/** The series on a grid of `steps` steps from the first to the last time: each step's low and high. */
function onGrid(series: readonly RawSeries[], steps: number): { x: Float64Array; ys: YValues[] } {
  let min = Infinity;
  let max = -Infinity;
  for (const s of series) { min = Math.min(min, s.x[0]!); max = Math.max(max, s.x[s.x.length - 1]!); }
  const step = (max - min) / steps || 1;
  // Two slots a step: its lowest value at the step's start, its highest at its middle.
  const x = new Float64Array(2 * steps + 2);
  for (let i = 0; i <= steps; i++) { x[2 * i] = min + i * step; x[2 * i + 1] = min + (i + 0.5) * step; }
  const ys = series.map((s) => {
    const out: (number | null | undefined)[] = new Array<number | null | undefined>(x.length);
    for (let i = 0; i < s.x.length; i++) {
      const b = Math.min(steps, Math.floor((s.x[i]! - min) / step));
      const v = s.y[i]!;
      if (Number.isNaN(v)) { if (out[2 * b] === undefined) out[2 * b] = null; continue; }
      const lo = out[2 * b];
      const hi = out[2 * b + 1];
      if (lo === undefined || lo === null || v < lo) out[2 * b] = v;
      if (hi === undefined || hi === null || v > hi) out[2 * b + 1] = v;
    }
    return out;
  });
  return { x, ys };
}

/** The chart of a result, or null when nothing in it can be drawn (no times or no numbers). */
export function chartData(tables: readonly ResultTable[], options: ChartOptions = DEFAULT_CHART_OPTIONS): ChartData | null {
  const all = rawSeries(tables, options.keyColumns);
  if (all.length === 0) return null;
  let kept = all;
  if (all.length > options.maxSeries) {
    const top = new Set([...all].sort((a, b) => b.peak - a.peak).slice(0, options.maxSeries));
    kept = all.filter((s) => top.has(s));
  }
  const series = kept.map(({ label, isStep, peak }) => ({ label, isStep, peak }));
  const x0 = kept[0]!.x;
  if (kept.every((s) => isSameX(s.x, x0))) return { data: [x0, ...kept.map(withGaps)], series, total: all.length, alignment: 'shared' };
  const union = unionOf(kept);
  if (union.length * kept.length <= options.maxUnionCells) {
    return { data: [union, ...kept.map((s) => onUnion(s, union))], series, total: all.length, alignment: 'union' };
  }
  const grid = onGrid(kept, options.gridPoints);
  return { data: [grid.x, ...grid.ys], series, total: all.length, alignment: 'grid' };
}
