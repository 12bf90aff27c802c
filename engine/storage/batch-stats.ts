// Per-column statistics of a sorted batch, computed once at seal time. They let the executor
// answer count/sum/min/max/first/last/avg over whole batches without reading values — without
// even reading them back from disk, since they carry the times and values those answers report.
import type { ColumnValues } from './column-values.js';
import type { ColumnStats } from '../types.js';

type RowStats = Omit<ColumnStats, 'minTime' | 'maxTime' | 'firstTime' | 'lastTime' | 'first' | 'last'>;

const NO_STATS = { min: null, max: null, minRow: -1, maxRow: -1, sum: null } as const;

/** Statistics of column `col` of a batch whose sorted timestamps are `ts`. */
export function columnStats(col: ColumnValues, ts: BigInt64Array): ColumnStats {
  const n = ts.length;
  switch (col.type) {
    case 'DOUBLE':
      return withPoints(doubleStats(col.values, col.nulls, n), ts, col.values);
    case 'INT64':
    case 'TIMESTAMP':
      return withPoints(bigintStats(col.values, col.nulls, n, col.type === 'INT64'), ts, col.values);
    case 'BOOLEAN':
      return withPoints(booleanStats(col.values, n), ts, null);
    default: {
      let count = 0;
      let firstRow = -1;
      let lastRow = -1;
      const values = col.values;
      for (let i = 0; i < n; i++) {
        if (values[i] === null) continue;
        count++;
        if (firstRow < 0) firstRow = i;
        lastRow = i;
      }
      return withPoints({ count, nullCount: n - count, ...NO_STATS, firstRow, lastRow }, ts, null);
    }
  }
}

/** false < true: min/max are 0/1 at their first row, so min and max answer from statistics. */
function booleanStats(values: readonly (boolean | null)[], n: number): RowStats {
  let count = 0;
  let firstRow = -1;
  let lastRow = -1;
  let minRow = -1;
  let maxRow = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null) continue;
    count++;
    if (firstRow < 0) firstRow = i;
    lastRow = i;
    if (!v && minRow < 0) minRow = i;
    if (v && maxRow < 0) maxRow = i;
  }
  if (count === 0) return { count, nullCount: n, ...NO_STATS, firstRow, lastRow };
  // All true: the minimum is true, at the first row; all false: the maximum is false, likewise.
  if (minRow < 0) minRow = firstRow;
  if (maxRow < 0) maxRow = firstRow;
  const min = values[minRow] ? 1 : 0;
  const max = values[maxRow] ? 1 : 0;
  return { count, nullCount: n - count, min, max, minRow, maxRow, sum: null, firstRow, lastRow };
}

/** Stats of the `$timestamp` column: sorted and never null, so its bounds are its ends. */
export function timestampStats(ts: BigInt64Array): ColumnStats {
  const n = ts.length;
  return withPoints({ count: n, nullCount: 0, min: ts[0], max: ts[n - 1], minRow: 0, maxRow: n - 1, sum: null, firstRow: 0, lastRow: n - 1 }, ts, ts);
}

/**
 * `s` with the times of the rows it names, and the first/last values of a number column. One
 * literal with every field in one order: statistics objects share one shape, so the aggregates
 * reading them per batch stay monomorphic (a spread here made stats-answered GROUP BY 1.6x slower).
 */
function withPoints(s: RowStats, ts: BigInt64Array, values: Float64Array | BigInt64Array | null): ColumnStats {
  const at = (row: number) => (row < 0 ? null : ts[row]);
  return {
    count: s.count, nullCount: s.nullCount, min: s.min, max: s.max, minRow: s.minRow, maxRow: s.maxRow,
    sum: s.sum, firstRow: s.firstRow, lastRow: s.lastRow,
    minTime: at(s.minRow), maxTime: at(s.maxRow), firstTime: at(s.firstRow), lastTime: at(s.lastRow),
    first: values === null || s.firstRow < 0 ? null : values[s.firstRow],
    last: values === null || s.lastRow < 0 ? null : values[s.lastRow],
  };
}

function doubleStats(values: Float64Array, nulls: Uint8Array | null, n: number): RowStats {
  if (nulls === null) return denseDoubleStats(values, n);
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let minRow = -1;
  let maxRow = -1;
  let firstRow = -1;
  let lastRow = -1;
  for (let i = 0; i < n; i++) {
    if (nulls[i] !== 0) continue;
    const v = values[i];
    count++;
    sum += v;
    if (firstRow < 0) firstRow = i;
    lastRow = i;
    // Strict comparisons keep the earliest row on ties and skip NaN.
    if (v < min || (minRow < 0 && v === min)) { min = v; minRow = i; }
    if (v > max || (maxRow < 0 && v === max)) { max = v; maxRow = i; }
  }
  return {
    count, nullCount: n - count,
    min: minRow < 0 ? null : min, max: maxRow < 0 ? null : max, minRow, maxRow,
    sum, firstRow, lastRow,
  };
}

/** The no-null case, the common one at ingestion: a tight loop without per-row branches on nulls. */
function denseDoubleStats(values: Float64Array, n: number): RowStats {
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let minRow = -1;
  let maxRow = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    sum += v;
    if (v < min) { min = v; minRow = i; }
    if (v > max) { max = v; maxRow = i; }
  }
  // Only ±Infinity-only or NaN-only data leaves a row unset: find it the slow way.
  if (minRow < 0) minRow = values.subarray(0, n).indexOf(Infinity);
  if (maxRow < 0) maxRow = values.subarray(0, n).indexOf(-Infinity);
  return {
    count: n, nullCount: 0,
    min: minRow < 0 ? null : min, max: maxRow < 0 ? null : max, minRow, maxRow,
    sum, firstRow: n > 0 ? 0 : -1, lastRow: n - 1,
  };
}

/** Rows whose 32-bit halves are summed in doubles before they are folded into the BigInt sum (exact: 2^20 × 2^32 < 2^53). */
const SUM_BLOCK = 1 << 20;

/**
 * int64 statistics read through the values' 32-bit halves (little-endian, as everywhere in svc):
 * no BigInt is made per row — reading a BigInt64Array element allocates one, which made this loop
 * a tenth of a cluster replica's replay. Comparisons go high half (signed) then low (unsigned);
 * the sum adds each half in a double, folded into the exact BigInt sum every SUM_BLOCK rows.
 */
function bigintStats(values: BigInt64Array, nulls: Uint8Array | null, n: number, hasSum: boolean): RowStats {
  const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  let count = 0;
  let sum = 0n;
  let loSum = 0;
  let hiSum = 0;
  let inBlock = 0;
  let minLo = 0;
  let minHi = 0;
  let maxLo = 0;
  let maxHi = 0;
  let minRow = -1;
  let maxRow = -1;
  let firstRow = -1;
  let lastRow = -1;
  for (let i = 0; i < n; i++) {
    if (nulls !== null && nulls[i] !== 0) continue;
    const lo = halves[2 * i] >>> 0;
    const hi = halves[2 * i + 1];
    count++;
    if (hasSum) {
      loSum += lo;
      hiSum += hi;
      if (++inBlock === SUM_BLOCK) {
        sum += (BigInt(hiSum) << 32n) + BigInt(loSum);
        loSum = 0;
        hiSum = 0;
        inBlock = 0;
      }
    }
    if (firstRow < 0) { firstRow = i; minLo = maxLo = lo; minHi = maxHi = hi; minRow = maxRow = i; }
    lastRow = i;
    if (hi < minHi || (hi === minHi && lo < minLo)) { minLo = lo; minHi = hi; minRow = i; }
    if (hi > maxHi || (hi === maxHi && lo > maxLo)) { maxLo = lo; maxHi = hi; maxRow = i; }
  }
  if (hasSum) sum += (BigInt(hiSum) << 32n) + BigInt(loSum);
  return {
    count, nullCount: n - count,
    min: minRow < 0 ? null : values[minRow], max: maxRow < 0 ? null : values[maxRow], minRow, maxRow,
    sum: hasSum ? sum : null, firstRow, lastRow,
  };
}
