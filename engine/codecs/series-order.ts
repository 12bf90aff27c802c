// Series-major order inside a batch. A batch of a fleet's rows interleaves its series (one row per
// device per tick); each series' values are predictable from its own previous ones (a random walk's
// step, a fixed timestamp step), not from the row before (another device). So a checkpoint may
// store a batch's columns in series-major order — series = the combination of its SYMBOL columns'
// codes, rows of a series in time order (a stable counting sort) — with, once per batch, the
// series each row belongs to in time order; decoding puts every column back in time order with
// the permutation those ids imply (exact: rows of one series keep their order, ties included).
// The SYMBOL columns themselves are then a table of codes per series, not a column per row.
// Series ids in time order repeat with a fleet's cycle, so they are coded against the id one
// cycle (`period` = the series count) earlier: mostly 0, packed to nothing, exceptions apart
// (VictoriaMetrics and InfluxDB order by series then time for the same reason).
//
// Stream: u32 rows, u32 series, u32 SYMBOL columns, u8 period-coded; the series' codes per SYMBOL
// column (encodeInt32, -1 for null), then the ids (encodeInt32, of ids or of id − id one period earlier).
import { ByteReader, encoded } from './byte-stream.js';
import { decodeInt32, encodeInt32, encodeInt32Into } from './int32-codec.js';

/** Series ids per row and each series' SYMBOL codes. */
export interface SeriesOrder {
  readonly ids: Int32Array;
  readonly series: number;
  /** Per SYMBOL column, its code in each series (-1: null). */
  readonly codes: readonly Int32Array[];
}

/**
 * The series of each row from SYMBOL code columns (`valid(k, row)` false: null), or null when the
 * batch has too few rows per series for series-major order to pay (`minRowsPerSeries`).
 */
export function seriesOf(columns: readonly Int32Array[], valid: (k: number, row: number) => boolean, rows: number, minRowsPerSeries: number): SeriesOrder | null {
  if (columns.length === 0 || rows === 0) return null;
  const ids = new Int32Array(rows);
  const keys = new Map<string | number, number>();
  const tuple: number[] = new Array(columns.length);
  const limit = Math.floor(rows / minRowsPerSeries);
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < columns.length; k++) tuple[k] = valid(k, r) ? columns[k][r] : -1;
    const key = columns.length === 1 ? tuple[0] : tuple.join(',');
    let id = keys.get(key);
    if (id === undefined) {
      id = keys.size;
      if (id >= limit) return null;
      keys.set(key, id);
    }
    ids[r] = id;
  }
  const series = keys.size;
  const codes = columns.map(() => new Int32Array(series));
  const seen = new Uint8Array(series);
  for (let r = 0; r < rows; r++) {
    const id = ids[r];
    if (seen[id] === 1) continue;
    seen[id] = 1;
    for (let k = 0; k < columns.length; k++) codes[k][id] = valid(k, r) ? columns[k][r] : -1;
  }
  return { ids, series, codes };
}

/**
 * For each position of the series-major order, the time-order row there: a stable counting sort
 * of the rows by series.
 */
export function seriesMajor(ids: Int32Array, series: number): Int32Array {
  const starts = new Int32Array(series + 1);
  for (let i = 0; i < ids.length; i++) starts[ids[i] + 1]++;
  for (let s = 0; s < series; s++) starts[s + 1] += starts[s];
  const rows = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) rows[starts[ids[i]]++] = i;
  return rows;
}

/**
 * @example
 * const order = seriesOf([codes], () => true, rows, 8);
 * const bytes = encodeSeriesOrder(order!);
 * decodeSeriesOrder(bytes); // the same ids and codes
 */
export function encodeSeriesOrder(order: SeriesOrder): Uint8Array {
  const { ids, series, codes } = order;
  const rows = ids.length;
  const periodic = new Int32Array(rows);
  for (let i = 0; i < rows; i++) periodic[i] = i < series ? ids[i] : ids[i] - ids[i - series];
  const plain = encodeInt32(ids, [0, 1]);
  const cyclic = encodeInt32(periodic, [0]);
  const isPeriodic = cyclic.length < plain.length;
  return encoded((out) => {
    out.u32(rows);
    out.u32(series);
    out.u32(codes.length);
    out.u8(isPeriodic ? 1 : 0);
    for (const c of codes) out.part((w) => encodeInt32Into(c, w, [0]));
    const ids = isPeriodic ? cyclic : plain;
    out.part((w) => w.raw(ids));
  });
}

/** Decodes what encodeSeriesOrder wrote (bytes 8-byte aligned); RangeError when damaged. */
export function decodeSeriesOrder(bytes: Uint8Array): SeriesOrder {
  const input = new ByteReader(bytes);
  const rows = input.u32();
  const series = input.u32();
  const columns = input.u32();
  const isPeriodic = input.u8() === 1;
  if (series > rows || columns > 4096) throw new RangeError('series order out of range');
  const codes = Array.from({ length: columns }, () => {
    const c = new Int32Array(series);
    decodeInt32(input.part(), c);
    return c;
  });
  const ids = new Int32Array(rows);
  decodeInt32(input.part(), ids);
  if (isPeriodic) for (let i = series; i < rows; i++) ids[i] += ids[i - series];
  for (let i = 0; i < rows; i++) if (ids[i] < 0 || ids[i] >= series) throw new RangeError(`series id ${ids[i]} of ${series}`);
  if (!input.isDone) throw new RangeError('bytes left after the series order');
  return { ids, series, codes };
}
