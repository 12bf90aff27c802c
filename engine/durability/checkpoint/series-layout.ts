// A batch's columns in series-major order (batch-codec.ts): gathered into that order before they
// are encoded, and put back in time order after they are decoded (position p of the series-major
// order is time-order row rowsAt[p]); a SYMBOL column of such a batch is its series table.
import type { SeriesOrder } from '../../codecs/index.js';
import type { ColumnType } from '../../types.js';
import { columnLayout, layoutOfBytes } from './column-layout.js';
import type { ColumnParts } from './column-layout.js';

/** A batch in series-major order, as its read-back needs it: the rows at each position, and SYMBOL codes per series. */
export interface RowOrder {
  readonly order: SeriesOrder;
  /** rowsAt[p]: the time-order row of series-major position p. */
  readonly rowsAt: Int32Array;
}

function bitAt(bits: Uint8Array, i: number): number {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

function gatherBits(bits: Uint8Array, rowsAt: Int32Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(rowsAt.length / 8));
  for (let p = 0; p < rowsAt.length; p++) out[p >> 3] |= bitAt(bits, rowsAt[p]) << (p & 7);
  return out;
}

/** `parts` with row p of the result taken from row rowsAt[p] (series-major order). */
export function gathered(parts: ColumnParts, type: ColumnType, rowsAt: Int32Array): ColumnParts {
  const rows = rowsAt.length;
  const validity = parts.validity === null ? null : gatherBits(parts.validity, rowsAt);
  if (parts.offsets !== null) {
    const offsets = new Int32Array(rows + 1);
    for (let p = 0; p < rows; p++) offsets[p + 1] = offsets[p] + parts.offsets[rowsAt[p] + 1] - parts.offsets[rowsAt[p]];
    const bytes = new Uint8Array(offsets[rows]);
    for (let p = 0; p < rows; p++) bytes.set(parts.bytes!.subarray(parts.offsets[rowsAt[p]], parts.offsets[rowsAt[p] + 1]), offsets[p]);
    return { validity, values: null, offsets, bytes };
  }
  if (type === 'BOOLEAN') return { validity, values: gatherBits(parts.values as Uint8Array, rowsAt), offsets: null, bytes: null };
  const v = parts.values!;
  const words = v.BYTES_PER_ELEMENT / 4;
  const from = new Int32Array(v.buffer, v.byteOffset, words * rows);
  const to = new Int32Array(words * rows);
  if (words === 2) {
    for (let p = 0; p < rows; p++) {
      to[2 * p] = from[2 * rowsAt[p]];
      to[2 * p + 1] = from[2 * rowsAt[p] + 1];
    }
  } else {
    for (let p = 0; p < rows; p++) to[p] = from[rowsAt[p]];
  }
  const values = type === 'DOUBLE' ? new Float64Array(to.buffer) : type === 'SYMBOL' ? to : new BigInt64Array(to.buffer);
  return { validity, values, offsets: null, bytes: null };
}

/** A SYMBOL column of a series-major batch: each row's code from its series (-1: null). */
export function symbolsOfSeries({ order }: RowOrder, symbol: number, rows: number, nullCount: number, into: Uint8Array): void {
  const layout = columnLayout('SYMBOL', rows, nullCount);
  const codes = order.codes[symbol];
  const out = new Int32Array(into.buffer, into.byteOffset + layout.values, rows);
  const validity = into.subarray(0, layout.validity);
  validity.fill(0);
  let nulls = 0;
  for (let r = 0; r < rows; r++) {
    const code = codes[order.ids[r]];
    if (code < 0) {
      out[r] = 0;
      nulls++;
    } else {
      out[r] = code;
      if (nullCount > 0) validity[r >> 3] |= 1 << (r & 7);
    }
  }
  if (nulls !== nullCount) throw new RangeError(`the series table gives ${nulls} nulls, the statistics ${nullCount}`);
}

/** A decoded column in series-major order (`sm`) put into `into` in time order: position p is row rowsAt[p]. */
export function scatter(sm: Uint8Array, into: Uint8Array, type: ColumnType, rows: number, nullCount: number, rowsAt: Int32Array): void {
  const layout = layoutOfBytes(type, rows, nullCount, into.length);
  const scatterBits = (from: number, bytes: number) => {
    const src = sm.subarray(from, from + bytes);
    const dst = into.subarray(from, from + bytes);
    dst.fill(0);
    for (let p = 0; p < rows; p++) dst[rowsAt[p] >> 3] |= bitAt(src, p) << (rowsAt[p] & 7);
  };
  if (nullCount > 0) scatterBits(0, layout.validity);
  if (type === 'BOOLEAN') return scatterBits(layout.values, layout.valueBytes);
  if (type === 'STRING' || type === 'BLOB') {
    const from = new Int32Array(sm.buffer, sm.byteOffset + layout.values, rows + 1);
    const to = new Int32Array(into.buffer, into.byteOffset + layout.values, rows + 1);
    for (let p = 0; p < rows; p++) to[rowsAt[p] + 1] = from[p + 1] - from[p];
    to[0] = 0;
    for (let r = 0; r < rows; r++) to[r + 1] += to[r];
    const data = into.subarray(layout.data);
    const src = sm.subarray(layout.data);
    for (let p = 0; p < rows; p++) data.set(src.subarray(from[p], from[p + 1]), to[rowsAt[p]]);
    return;
  }
  const words = type === 'SYMBOL' ? 1 : 2;
  const from = new Int32Array(sm.buffer, sm.byteOffset + layout.values, words * rows);
  const to = new Int32Array(into.buffer, into.byteOffset + layout.values, words * rows);
  if (words === 2) {
    for (let p = 0; p < rows; p++) {
      const r = rowsAt[p];
      to[2 * r] = from[2 * p];
      to[2 * r + 1] = from[2 * p + 1];
    }
  } else {
    for (let p = 0; p < rows; p++) to[rowsAt[p]] = from[p];
  }
}

