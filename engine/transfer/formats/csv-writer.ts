// CSV as RFC 4180 writes it: a header line of the column names, one line per row, CRLF line
// ends, fields holding a comma, a quote, CR or LF quoted with quotes doubled. A null is an empty
// field; an empty string is `""`, so the two read back apart (DuckDB and svc's CSV import do).
// Times are RFC 3339 with nanoseconds, blobs base64 (text-values.ts).
import type { ExportChunk, ExportSchema } from '../export-schema.js';
import { textOf } from '../text-values.js';
import type { FormatWriter } from './format-writer.js';

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

export function csvWriter(schema: ExportSchema): FormatWriter {
  return {
    begin: () => [Buffer.from(`${schema.columns.map((c) => field(c.name)).join(',')}\r\n`)],
    write: (chunk: ExportChunk) => {
      const texts = chunk.columns.map(textOf);
      const last = texts.length - 1;
      let out = '';
      for (let i = 0; i < chunk.rowCount; i++) {
        for (let c = 0; c <= last; c++) {
          const v = texts[c](i);
          if (v !== null) out += v === '' ? '""' : field(v);
          out += c === last ? '\r\n' : ',';
        }
      }
      return [Buffer.from(out)];
    },
    end: () => [],
  };
}

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}
