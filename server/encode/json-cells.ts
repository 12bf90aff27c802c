// JSON text of one result cell, chosen once per column so the per-cell work is a plain loop over
// the column's typed array (SPEC §7): int64/count exact, doubles as JS prints them, null/NaN/
// ±Infinity → null, strings and symbols escaped by JSON.stringify (which escapes control
// characters and lone surrogates, so the text stays valid UTF-8), blobs as base64, timestamps in
// the caller's style. Both JSON encoders use it.
import type { ResultColumn } from '../../engine/index.js';
import { int64Digits, int64Words } from './int64-words.js';
import { timeText } from './time-text.js';
import type { TimeStyle } from './time-text.js';

/** JSON text of row i of a column. */
export type CellText = (i: number) => string;

export function cellText(column: ResultColumn, timeStyle: TimeStyle): CellText {
  const { nulls } = column;
  const isNull = nulls === null ? () => false : (i: number) => nulls[i] !== 0;
  switch (column.type) {
    case 'none':
      return () => 'null';
    case 'double': {
      const values = column.values as Float64Array;
      return (i) => {
        const v = values[i];
        // NaN, ±Infinity: not JSON numbers (v - v is NaN exactly for those).
        return isNull(i) || v - v !== 0 ? 'null' : String(v);
      };
    }
    case 'int64':
    case 'count': {
      const values = column.values as BigInt64Array;
      const words = int64Words(values);
      return (i) => (isNull(i) ? 'null' : int64Digits(values, words, i));
    }
    case 'timestamp': {
      const text = timeText(column.values as BigInt64Array, timeStyle);
      return (i) => (isNull(i) ? 'null' : text(i));
    }
    case 'string':
    case 'symbol': {
      const values = column.values as (string | null)[];
      return (i) => {
        const v = values[i];
        return v === null || isNull(i) ? 'null' : JSON.stringify(v);
      };
    }
    case 'blob': {
      const values = column.values as (Uint8Array | null)[];
      return (i) => {
        const v = values[i];
        return v === null || isNull(i) ? 'null' : `"${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')}"`;
      };
    }
  }
}

/** JSON text of the row times of a table (null where `nulls[i]` is set). */
export function rowTimeText(timestamps: BigInt64Array, nulls: Uint8Array | null, timeStyle: TimeStyle): CellText {
  const text = timeText(timestamps, timeStyle);
  return nulls === null ? text : (i) => (nulls[i] !== 0 ? 'null' : text(i));
}
