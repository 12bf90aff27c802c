// CSV files (RFC 4180: a header line, fields separated by commas, quoted fields with quotes
// doubled, CRLF or LF line ends) into typed columns. Types come from the table when it has the
// column; otherwise from the values of the first SAMPLE_ROWS rows: all integers → INT64, all
// numbers → DOUBLE, all true/false → BOOLEAN, all RFC 3339 times → TIMESTAMP, else STRING (a
// column that later meets a non-integer number becomes DOUBLE). The time column (`$timestamp` or
// `timestamp`) takes RFC 3339 times or integer nanoseconds. An empty unquoted field is null; a
// quoted empty field is the empty string (or blob). A value that does not fit its column fails
// the whole import naming its row (the data row, from 1), its line and the column.
import { SvcError } from '../../errors.js';
import type { ColumnValues } from '../../storage/column-values.js';
import type { ColumnType } from '../../types.js';
import type { FileColumn } from './file-column.js';
import { parseTime } from './time-text.js';

const SAMPLE_ROWS = 1000;
const INT = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|NaN|nan|Infinity|inf|infinity)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface CsvFile {
  readonly columns: readonly FileColumn[];
  readonly values: ColumnValues[];
  readonly rows: number;
}

/** One field: its text and whether it was quoted (a quoted empty field is not null). */
interface Field { readonly text: string; readonly isQuoted: boolean }

/** `text` as typed columns; `known` gives the types of columns the table has (and the time column's). */
export function readCsv(text: string, known: (name: string) => ColumnType | undefined): CsvFile {
  const records = new Records(text);
  const header = records.next();
  if (header === null) throw new SvcError('InvalidArgument', 'the CSV file is empty: it needs a header line naming the columns');
  const names = header.fields.map((f) => f.text);
  const seen = new Set<string>();
  for (const n of names) {
    if (n === '') throw new SvcError('InvalidArgument', 'the CSV header has an empty column name');
    if (seen.has(n)) throw new SvcError('InvalidArgument', `the CSV header names the column '${n}' twice`);
    seen.add(n);
  }
  const sample: { fields: Field[]; line: number }[] = [];
  for (let r = records.next(); r !== null; r = sample.length < SAMPLE_ROWS ? records.next() : null) sample.push(r);
  const types = names.map((n, c) => known(n) ?? infer(sample.map((r) => r.fields[c])));
  const builders = types.map((t, k) => new Builder(t, known(names[k]) === undefined));
  let rows = 0;
  const add = (r: { fields: Field[]; line: number }): void => {
    rows++;
    if (r.fields.length !== names.length) {
      throw new SvcError('InvalidArgument', `row ${rows} (line ${r.line}) has ${r.fields.length} fields, the header ${names.length}`);
    }
    for (let k = 0; k < names.length; k++) {
      const problem = builders[k].add(r.fields[k]);
      if (problem !== null) throw new SvcError('InvalidArgument', `row ${rows} (line ${r.line}), column '${names[k]}': ${problem}`);
    }
  };
  for (const r of sample) add(r);
  for (let r = records.next(); r !== null; r = records.next()) add(r);
  return { columns: names.map((name, k) => ({ name, type: builders[k].type })), values: builders.map((b) => b.values()), rows };
}

function infer(fields: readonly (Field | undefined)[]): ColumnType {
  const texts = fields.filter((f): f is Field => f !== undefined && f.text !== '').map((f) => f.text);
  if (texts.length === 0) return 'STRING';
  if (texts.every((t) => INT.test(t) && fitsInt64(t))) return 'INT64';
  if (texts.every((t) => NUMBER.test(t))) return 'DOUBLE';
  if (texts.every((t) => /^(true|false)$/i.test(t))) return 'BOOLEAN';
  if (texts.every((t) => parseTime(t) !== null)) return 'TIMESTAMP';
  return 'STRING';
}

function fitsInt64(t: string): boolean {
  const v = BigInt(t);
  return v >= INT64_MIN && v <= INT64_MAX;
}

/** The records of a CSV text, one at a time, with the line each starts on. */
class Records {
  private at = 0;
  private line = 1;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.at = 1; // a byte order mark
  }

  next(): { fields: Field[]; line: number } | null {
    const s = this.text;
    const n = s.length;
    // Blank lines between records are skipped (a trailing newline makes one).
    while (this.at < n && (s.charCodeAt(this.at) === 10 || s.charCodeAt(this.at) === 13)) {
      if (s.charCodeAt(this.at) === 10) this.line++;
      this.at++;
    }
    if (this.at >= n) return null;
    const line = this.line;
    const fields: Field[] = [];
    for (;;) {
      let i = this.at;
      if (s.charCodeAt(i) === 34) {
        // "…" with "" for a quote; newlines inside belong to the field
        let text = '';
        let from = i + 1;
        for (;;) {
          const q = s.indexOf('"', from);
          if (q < 0) throw new SvcError('InvalidArgument', `the quoted field starting on line ${line} is never closed`);
          text += s.slice(from, q);
          if (s.charCodeAt(q + 1) === 34) { text += '"'; from = q + 2; continue; }
          i = q + 1;
          break;
        }
        for (let k = this.at; k < i; k++) if (s.charCodeAt(k) === 10) this.line++;
        fields.push({ text, isQuoted: true });
      } else {
        let j = i;
        for (; j < n; j++) {
          const ch = s.charCodeAt(j);
          if (ch === 44 || ch === 10 || ch === 13) break;
        }
        fields.push({ text: s.slice(i, j), isQuoted: false });
        i = j;
      }
      const ch = s.charCodeAt(i);
      if (ch === 44) { this.at = i + 1; continue; }
      if (i < n && ch !== 10 && ch !== 13) throw new SvcError('InvalidArgument', `line ${this.line}: a quoted field must be followed by a comma or the end of the line`);
      this.at = i;
      return { fields, line };
    }
  }
}

/** Values of one column as they are parsed; INT64 widens to DOUBLE when `canWiden` (an inferred type). */
class Builder {
  private numbers: Float64Array | BigInt64Array;
  private nulls: Uint8Array;
  private list: (string | Uint8Array | boolean | null)[] = [];
  private n = 0;

  constructor(public type: ColumnType, private readonly canWiden: boolean) {
    this.numbers = type === 'DOUBLE' ? new Float64Array(1024) : new BigInt64Array(type === 'INT64' || type === 'TIMESTAMP' ? 1024 : 0);
    this.nulls = new Uint8Array(1024);
  }

  /** Appends the field's value; returns why it does not fit, or null. */
  add(f: Field): string | null {
    const i = this.n;
    if (i === this.nulls.length) this.grow();
    const t = f.text;
    const isNull = t === '' && (!f.isQuoted || (this.type !== 'STRING' && this.type !== 'SYMBOL' && this.type !== 'BLOB'));
    this.n++;
    if (isNull) {
      this.nulls[i] = 1;
      if (this.list.length > 0 || this.numbers.length === 0) this.list[i] = null;
      return null;
    }
    switch (this.type) {
      case 'DOUBLE': {
        if (!NUMBER.test(t)) return `'${clip(t)}' is not a number (the column is DOUBLE)`;
        (this.numbers as Float64Array)[i] = number(t);
        return null;
      }
      case 'INT64': {
        if (INT.test(t) && fitsInt64(t)) { (this.numbers as BigInt64Array)[i] = BigInt(t); return null; }
        if (this.canWiden && NUMBER.test(t)) {
          this.widen();
          (this.numbers as Float64Array)[i] = number(t);
          return null;
        }
        return `'${clip(t)}' is not an integer of 64 bits (the column is INT64)`;
      }
      case 'TIMESTAMP': {
        const ns = INT.test(t) && fitsInt64(t) ? BigInt(t) : parseTime(t);
        if (ns === null) return `'${clip(t)}' is not an RFC 3339 time or integer nanoseconds`;
        (this.numbers as BigInt64Array)[i] = ns;
        return null;
      }
      case 'BOOLEAN': {
        const lower = t.toLowerCase();
        if (lower === 'true' || lower === 't' || lower === '1') this.list[i] = true;
        else if (lower === 'false' || lower === 'f' || lower === '0') this.list[i] = false;
        else return `'${clip(t)}' is not true or false (the column is BOOLEAN)`;
        return null;
      }
      case 'BLOB': {
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t)) return `'${clip(t)}' is not base64 (the column is BLOB)`;
        this.list[i] = new Uint8Array(Buffer.from(t, 'base64'));
        return null;
      }
      case 'STRING':
      case 'SYMBOL':
        this.list[i] = t;
        return null;
    }
  }

  values(): ColumnValues {
    const n = this.n;
    const nulls = this.nulls.subarray(0, n).includes(1) ? this.nulls.slice(0, n) : null;
    if (this.type === 'DOUBLE') return { type: 'DOUBLE', values: (this.numbers as Float64Array).slice(0, n), nulls };
    if (this.type === 'INT64' || this.type === 'TIMESTAMP') return { type: this.type, values: (this.numbers as BigInt64Array).slice(0, n), nulls };
    const list = this.list.slice(0, n);
    for (let i = list.length; i < n; i++) list.push(null);
    return { type: this.type, values: list } as ColumnValues;
  }

  private grow(): void {
    const size = this.nulls.length * 2;
    const nulls = new Uint8Array(size);
    nulls.set(this.nulls);
    this.nulls = nulls;
    if (this.numbers.length > 0) {
      const next = this.numbers instanceof Float64Array ? new Float64Array(size) : new BigInt64Array(size);
      next.set(this.numbers as never);
      this.numbers = next;
    }
  }

  /** INT64 → DOUBLE: the integers read so far become doubles. */
  private widen(): void {
    const ints = this.numbers as BigInt64Array;
    this.numbers = Float64Array.from(ints, (v) => Number(v));
    this.type = 'DOUBLE';
  }
}

function number(t: string): number {
  const lower = t.toLowerCase();
  if (lower === 'nan') return NaN;
  if (lower === 'inf' || lower === 'infinity' || lower === '+inf' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  return Number(t);
}

function clip(t: string): string {
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
