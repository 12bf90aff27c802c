// Newline-delimited JSON: one object per row, keys in column order. As in `api/query` (SPEC §7):
// int64 values are exact JSON integers, times RFC 3339 strings with nanoseconds, blobs base64,
// and null, NaN and ±Infinity are `null` (JSON has no NaN).
import type { ExportChunk, ExportSchema } from '../export-schema.js';
import { textOf } from '../text-values.js';
import type { FormatWriter } from './format-writer.js';

const NOT_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);
/** Types whose text is a JSON number or literal as it is; the others are JSON strings. */
const BARE = new Set(['double', 'int64', 'count', 'boolean']);

export function ndjsonWriter(schema: ExportSchema): FormatWriter {
  const keys = schema.columns.map((c, i) => `${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`);
  return {
    begin: () => [],
    write: (chunk: ExportChunk) => {
      const cells = chunk.columns.map((column) => {
        const text = textOf(column);
        if (column.type === 'double') return (i: number) => { const v = text(i); return v === null || NOT_FINITE.has(v) ? 'null' : v; };
        if (BARE.has(column.type)) return (i: number) => text(i) ?? 'null';
        return (i: number) => { const v = text(i); return v === null ? 'null' : JSON.stringify(v); };
      });
      let out = '';
      for (let i = 0; i < chunk.rowCount; i++) {
        for (let c = 0; c < cells.length; c++) out += keys[c] + cells[c](i);
        out += '}\n';
      }
      return [Buffer.from(out)];
    },
    end: () => [],
  };
}
