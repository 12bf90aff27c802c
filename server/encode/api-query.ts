// The `api/query` answer (seed 001 §2, SPEC §4), byte-exact because existing clients compare it:
// compact, column-major, keys in the order data, name, type, no table name —
//   {"tables":[{"columns":[{"data":[…],"name":"count(col)","type":"count"}]}]}
// one table object per source table. The row time is NOT written: SPEC §6 says api/query
// returns exactly the selected columns (`SELECT *` selects `$timestamp` itself). Timestamps are
// RFC 3339 UTC with nanoseconds, trailing zeros trimmed. CREATE, DROP, INSERT and a result
// without rows give {"tables":[]}; a standalone find(...) gives one {"columns":null,"name":alias}
// per matching alias.
import type { QueryResult } from '../../engine/index.js';
import { cellText } from './json-cells.js';
import { CHUNK_CHARS, utf8 } from './text-chunks.js';

export function* encodeApiQuery(result: QueryResult): Generator<Uint8Array, void, undefined> {
  if (result.kind === 'find') {
    const tables = (result.aliases ?? []).map((a) => `{"columns":null,"name":${JSON.stringify(a)}}`);
    yield utf8(`{"tables":[${tables.join(',')}]}`);
    return;
  }
  let out = '{"tables":[';
  const tables = result.kind === 'ok' ? [] : result.tables;
  for (let t = 0; t < tables.length; t++) {
    const table = tables[t];
    out += t === 0 ? '{"columns":[' : ',{"columns":[';
    for (let c = 0; c < table.columns.length; c++) {
      const column = table.columns[c];
      const text = cellText(column, 'rfc3339');
      out += c === 0 ? '{"data":[' : ',{"data":[';
      for (let i = 0; i < table.rowCount; i++) {
        out += i === 0 ? text(i) : `,${text(i)}`;
        if (out.length >= CHUNK_CHARS) {
          yield utf8(out);
          out = '';
        }
      }
      out += `],"name":${JSON.stringify(column.name)},"type":"${column.type}"}`;
    }
    out += ']}';
  }
  yield utf8(`${out}]}`);
}
