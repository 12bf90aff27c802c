// The `api/query` answer (seed 001 §2, SPEC §4), byte-exact because existing clients compare it:
// compact, column-major, keys in the order data, name, type, no table name —
//   {"tables":[{"columns":[{"data":[…],"name":"count(col)","type":"count"}]}]}
// one table object per source table. The row time is NOT written: SPEC §6 says api/query
// returns exactly the selected columns (`SELECT *` selects `$timestamp` itself). Timestamps are
// RFC 3339 UTC with nanoseconds, trailing zeros trimmed. CREATE, DROP, INSERT and a result
// without rows give {"tables":[]}; a standalone find(...) gives one {"columns":null,"name":alias}
// per matching alias. Double columns are written a block at a time (double-blocks.ts).
import type { QueryResult } from '../../engine/index.js';
import { DOUBLE_BLOCK, doubleBlockText } from './double-blocks.js';
import { cellWriter } from './json-cells.js';
import { JsonBytes } from './json-bytes.js';

/** A guess at one cell's bytes, for the first buffer's size. */
const BYTES_PER_VALUE = 24;

export function* encodeApiQuery(result: QueryResult): Generator<Uint8Array, void, undefined> {
  const aliases = result.kind === 'find' ? result.aliases ?? [] : [];
  const tables = result.kind === 'rows' ? result.tables : [];
  const w = new JsonBytes(64 + tables.reduce((n, t) => n + t.columns.length * (64 + t.rowCount * BYTES_PER_VALUE), 0) + aliases.length * 128);
  w.ascii('{"tables":[');
  for (let a = 0; a < aliases.length; a++) w.text(`${a > 0 ? ',' : ''}{"columns":null,"name":${JSON.stringify(aliases[a])}}`);
  for (let t = 0; t < tables.length; t++) {
    const table = tables[t];
    w.ascii(t === 0 ? '{"columns":[' : ',{"columns":[');
    for (let c = 0; c < table.columns.length; c++) {
      const column = table.columns[c];
      w.ascii(c === 0 ? '{"data":[' : ',{"data":[');
      if (column.type === 'double') {
        const values = column.values as Float64Array;
        for (let i = 0; i < table.rowCount; i += DOUBLE_BLOCK) {
          if (i > 0) w.byte(44); // ','
          w.ascii(doubleBlockText(values, column.nulls, i, Math.min(table.rowCount, i + DOUBLE_BLOCK)));
          if (w.isFull) yield w.take();
        }
      } else {
        const cell = cellWriter(column, 'rfc3339');
        for (let i = 0; i < table.rowCount; i++) {
          if (i > 0) w.byte(44);
          cell(w, i);
          if (w.isFull) yield w.take();
        }
      }
      w.text(`],"name":${JSON.stringify(column.name)},"type":"${column.type}"}`);
    }
    w.ascii(']}');
  }
  w.ascii(']}');
  yield w.take();
}
