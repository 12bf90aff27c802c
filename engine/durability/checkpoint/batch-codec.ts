// A batch's columns as a checkpoint writes them (column-file.ts), and the series order they may
// be written in. A batch with SYMBOL columns whose rows fall into few series (at least
// MIN_ROWS_PER_SERIES rows each: a fleet's devices, hosts) is written in series-major order
// (engine/codecs/series-order.ts): its other columns encoded series by series — a timestamp or a
// walk predicted from the same series' previous value — and its SYMBOL columns as the series
// table alone. Raw columns stay in time order, read straight into their buffers.
import type { Data } from 'apache-arrow';
import { encodeSeriesOrder, seriesMajor, seriesOf } from '../../codecs/series-order.js';
import type { ColumnType } from '../../types.js';
import { isValid } from '../../types.js';
import { encodeColumn } from './column-codec.js';
import { columnLayout } from './column-layout.js';
import type { EncodedColumn } from './column-codec.js';

/** Series must average this many rows of a batch for series-major order (fewer: time order). */
const MIN_ROWS_PER_SERIES = 8;

/**
 * A batch to write: its series order (null: time order) and columns; a raw column's chunks are
 * views of the batch, which `release` unpins once they are written.
 */
export interface EncodedBatch {
  readonly order: Uint8Array | null;
  readonly columns: readonly EncodedColumn[];
  readonly release?: () => void;
}

/**
 * Encodes a batch's columns (`types[0]` is `$timestamp`'s), in series-major order where that applies.
 * @example
 * const encoded = encodeBatch(types.map((_, c) => batch.column(c)), types, batch.rowCount, true);
 */
export function encodeBatch(columns: readonly Data[], types: readonly ColumnType[], rows: number, compress: boolean): EncodedBatch {
  const symbols = types.flatMap((t, c) => (c > 0 && t === 'SYMBOL' ? [c] : []));
  const order = compress && symbols.length > 0 && rows >= 8 * MIN_ROWS_PER_SERIES
    ? seriesOf(symbols.map((c) => columns[c].values as Int32Array), (k, row) => isValid(validityOf(columns[symbols[k]]), row), rows, MIN_ROWS_PER_SERIES)
    : null;
  if (order === null) return { order: null, columns: columns.map((d, c) => encodeColumn(d, types[c], rows, compress, null)) };
  const rowsAt = seriesMajor(order.ids, order.series);
  return {
    order: encodeSeriesOrder(order),
    columns: columns.map((d, c) => (symbols.includes(c)
      ? { codec: 'series', chunks: [], size: 0, decodedBytes: columnLayout('SYMBOL', rows, d.nullCount).bytes }
      : encodeColumn(d, types[c], rows, compress, rowsAt))),
  };
}

/** A column's null bits, or null when it has no null. */
function validityOf(d: Data): Uint8Array | null {
  return d.nullCount === 0 ? null : (d.nullBitmap as Uint8Array);
}
