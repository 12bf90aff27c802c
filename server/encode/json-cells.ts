// Writers of one result cell's JSON, chosen once per column so the per-cell work is a plain loop
// over the column's typed array (SPEC §7): int64/count exact, doubles as JS prints them (a block
// at a time, double-blocks.ts), null/NaN/±Infinity → null, strings and symbols escaped by
// JSON.stringify (control characters, quotes, lone surrogates as \uXXXX, so the bytes stay valid
// UTF-8), blobs as base64, booleans as true/false, timestamps in the caller's style. Both JSON encoders use them.
import type { ResultColumn } from '../../engine/index.js';
import { doubleCellWriter } from './double-blocks.js';
import { exactInt64, int64Words } from './int64-words.js';
import type { JsonBytes } from './json-bytes.js';
import { timeWriter } from './time-json.js';
import type { TimeStyle } from './time-json.js';

/** Writes the JSON of row i of a column. */
export type CellWriter = (w: JsonBytes, i: number) => void;


export function cellWriter(column: ResultColumn, timeStyle: TimeStyle): CellWriter {
  const { nulls } = column;
  switch (column.type) {
    case 'none':
      return writeNull;
    case 'double':
      return doubleCellWriter(column.values as Float64Array, nulls);
    case 'boolean': {
      const values = column.values as Float64Array;
      return (w, i) => {
        if (nulls !== null && nulls[i] !== 0) writeNull(w);
        else w.ascii(values[i] !== 0 ? 'true' : 'false');
      };
    }
    case 'int64':
    case 'count': {
      // Exact int64 without a BigInt per value (see int64-words.ts); wider values via BigInt.
      const values = column.values as BigInt64Array;
      const words = int64Words(values);
      return (w, i) => {
        if (nulls !== null && nulls[i] !== 0) return writeNull(w);
        const exact = words === null ? NaN : exactInt64(words, i);
        if (exact === exact) w.int(exact);
        else w.ascii(String(values[i]));
      };
    }
    case 'timestamp': {
      const time = timeWriter(column.values as BigInt64Array, timeStyle);
      return nulls === null ? time : (w, i) => (nulls[i] !== 0 ? writeNull(w) : time(w, i));
    }
    case 'string':
    case 'symbol': {
      const values = column.values as (string | null)[];
      return (w, i) => {
        const v = values[i];
        if (v === null || (nulls !== null && nulls[i] !== 0)) writeNull(w);
        else w.text(JSON.stringify(v));
      };
    }
    case 'blob': {
      const values = column.values as (Uint8Array | null)[];
      return (w, i) => {
        const v = values[i];
        if (v === null || (nulls !== null && nulls[i] !== 0)) return writeNull(w);
        w.byte(34);
        w.ascii(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'));
        w.byte(34);
      };
    }
  }
}

/** Writes the row times of a table (null where `nulls[i]` is set). */
export function rowTimeWriter(timestamps: BigInt64Array, nulls: Uint8Array | null, timeStyle: TimeStyle): CellWriter {
  const time = timeWriter(timestamps, timeStyle);
  return nulls === null ? time : (w, i) => (nulls[i] !== 0 ? writeNull(w) : time(w, i));
}

function writeNull(w: JsonBytes): void {
  w.ascii('null');
}
