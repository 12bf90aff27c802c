// CSV as RFC 4180 writes it: a header line of the column names, one line per row, CRLF line
// ends, fields holding a comma, a quote, CR or LF quoted with quotes doubled. A null is an empty
// field; an empty string is `""`, so the two read back apart (DuckDB and svc's CSV import do).
// Times are RFC 3339 with nanoseconds, blobs base64 (text-values.ts). Values are written straight
// into the chunk's buffer, so no string of the whole chunk is built; doubles are formatted a
// block at a time by JSON.stringify (one C++ call per 1,024 values, about twice as fast as
// String(v) on random doubles) and copied up to each comma, with no string per value.
import type { ResultColumn } from '../../query/result.js';
import type { ExportChunk, ExportSchema } from '../export-schema.js';
import { textOf } from '../text-values.js';
import type { FormatWriter } from './format-writer.js';

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;
/** Types whose text is always ASCII (numbers, times, booleans, base64). */
const ASCII_TYPES = new Set(['int64', 'count', 'timestamp', 'boolean', 'blob']);
const COMMA = 44;
const CR = 13;
const LF = 10;
/** The most bytes a double's text takes ("-1.2345678901234567e-308") and the block it is in. */
const DOUBLE_BYTES = 24;
const DOUBLE_BLOCK = 1024;

/** Writes row i's field into `out` (which has room for it); returns the new end. */
type FieldWriter = (out: Out, i: number) => void;

interface Out {
  buf: Buffer;
  pos: number;
}

export function csvWriter(schema: ExportSchema): FormatWriter {
  return {
    begin: () => [Buffer.from(`${schema.columns.map((c) => field(c.name)).join(',')}\r\n`)],
    write: (chunk: ExportChunk) => {
      const fields = chunk.columns.map(fieldWriter);
      const last = fields.length - 1;
      const out: Out = { buf: Buffer.allocUnsafe(Math.max(4096, chunk.rowCount * 24 * fields.length)), pos: 0 };
      for (let i = 0; i < chunk.rowCount; i++) {
        for (let c = 0; c <= last; c++) {
          fields[c](out, i);
          reserve(out, 2);
          if (c === last) { out.buf[out.pos++] = CR; out.buf[out.pos++] = LF; } else out.buf[out.pos++] = COMMA;
        }
      }
      return [out.buf.subarray(0, out.pos)];
    },
    end: () => [],
  };
}

function fieldWriter(column: ResultColumn): FieldWriter {
  if (column.type === 'double') return doubleFields(column.values as Float64Array, column.nulls);
  const text = textOf(column);
  const encoding = ASCII_TYPES.has(column.type) ? 'latin1' : 'utf8';
  return (out, i) => {
    const v = text(i);
    if (v === null) return;
    const t = encoding === 'latin1' ? v : v === '' ? '""' : field(v);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    reserve(out, 3 * t.length);
    out.pos += out.buf.write(t, out.pos, encoding);
  };
}

/**
 * A double column's fields, rows taken in order: each block's JSON text is written once into a
 * byte buffer with a comma after every value, and each row copies its bytes up to its comma.
 * JSON writes null for NaN and ±Infinity: those rows write String(v) instead, null rows nothing.
 */
function doubleFields(values: Float64Array, nulls: Uint8Array | null): FieldWriter {
  const text = Buffer.allocUnsafe(DOUBLE_BLOCK * (DOUBLE_BYTES + 1) + 2);
  let end = 0;
  let at = 0;
  return (out, i) => {
    if (i >= end) {
      end = Math.min(values.length, i + DOUBLE_BLOCK);
      const n = text.write(JSON.stringify(Array.from(values.subarray(i, end))), 0, 'latin1');
      text[n - 1] = COMMA; // the closing bracket: every value ends at a comma
      at = 1;
    }
    const v = values[i];
    const isNull = nulls !== null && nulls[i] !== 0;
    reserve(out, DOUBLE_BYTES);
    if (!isNull && !Number.isFinite(v)) out.pos += out.buf.write(String(v), out.pos, 'latin1');
    const { buf } = out;
    let p = out.pos;
    let q = at;
    if (isNull || !Number.isFinite(v)) while (text[q++] !== COMMA);
    else for (let ch = text[q++]; ch !== COMMA; ch = text[q++]) buf[p++] = ch;
    out.pos = p;
    at = q;
  };
}

function reserve(out: Out, bytes: number): void {
  if (out.pos + bytes <= out.buf.length) return;
  const next = Buffer.allocUnsafe(Math.max(out.buf.length * 2, out.pos + bytes));
  out.buf.copy(next, 0, 0, out.pos);
  out.buf = next;
}

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}
