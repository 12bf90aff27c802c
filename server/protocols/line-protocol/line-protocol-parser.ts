// The InfluxDB line-protocol parser: a request body (bytes) becomes per-table typed columns —
// measurement → table, tags → SYMBOL columns, fields → DOUBLE / INT64 / STRING / BOOLEAN columns
// — with no object per point. A series key (measurement and tags, as bytes) is looked up in a
// cache kept across requests, so a known series costs one hash of its bytes: its table, tag
// columns and tag strings are ready. Field keys are matched against the series' previous line
// first (same fields in the same order is the common case), else found by hash.
//
// Syntax and escapes as InfluxDB documents them: measurement `\,` `\ `; tag keys, tag values and
// field keys `\,` `\=` `\ `; string field values `\"` `\\`; a backslash before anything else is
// itself. A backslash always keeps the next byte from ending a token. Floats `-?d[.d][e±d]`,
// integers `Ni`, unsigned `Nu` (≤ 2^63 − 1), booleans t T true True TRUE f F false False FALSE.
// Lines starting with '#' and blank lines are skipped; a '\r' before '\n' is ignored.
import { BytesMap, FNV_OFFSET } from '../ingest/bytes-map.js';
import { IngestConflict, TableBuilder } from '../ingest/ingest-batch.js';
import type { IngestTable, SchemaLookup } from '../ingest/ingest-batch.js';
import { floatEnd, floatValue, scanFloat, scanFloatInto, scanInt64 } from './numbers.js';

const NL = 10;
const CR = 13;
const SPACE = 32;
const COMMA = 44;
const EQUALS = 61;
const QUOTE = 34;
const BACKSLASH = 92;
const HASH = 35;
const TAB = 9;

/** Nanoseconds per unit of each precision the write routes accept. */
export const PRECISIONS: Readonly<Record<string, number>> = {
  n: 1, ns: 1, u: 1e3, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9,
};

const MAX_NAME_BYTES = 1024;
const TIMESTAMP_COLUMN = '$timestamp';

/** A request that does not parse or does not fit the tables: nothing of it is applied. */
export class LineProtocolError extends Error {
  constructor(readonly line: number, readonly text: string, readonly reason: string) {
    super(`line ${line}: ${reason}: ${JSON.stringify(text)}`);
    this.name = 'LineProtocolError';
  }
}

/** What LineProtocolParser.numberAt found besides the float (module state: no object per value). */
let numberSuffix = 0;
let numberEnd = 0;

/** A reason without a line yet; parse() adds the line. */
class Reject extends Error {}

interface TableInfo {
  readonly name: string;
  readonly id: number;
  /** Column names by id, and ids by name (ids only grow). */
  readonly names: string[];
  readonly ids: Map<string, number>;
  /** Each column's key as it appears on the wire (escaped), for the field fast path. */
  readonly wireKeys: Uint8Array[];
  readonly wireViews: DataView[];
  readonly fieldKeys: BytesMap<number>;
  /** Rows the last request wrote into this table: the next one's builders start that large. */
  lastRows: number;
}

interface Series {
  readonly table: TableInfo;
  readonly tagIds: readonly number[];
  readonly tagValues: readonly string[];
  /** Column ids of the fields of this series' last line, in order. */
  readonly fields: number[];
  /** The series key's bytes as on the wire (a copy), and a view of them for equalAt. */
  readonly key: Uint8Array;
  readonly keyView: DataView;
  /** The series of the line that followed this series' last line, if any. */
  next: Series | null;
}

export interface ParseOptions {
  /** Nanoseconds per timestamp unit (PRECISIONS). */
  readonly multiplier: number;
  /** Time of rows without a timestamp (the request's arrival), ns. */
  readonly now: bigint;
  readonly schemaOf: SchemaLookup;
}

export interface ParseResult {
  readonly tables: IngestTable[];
  readonly lines: number;
  readonly values: number;
}

export class LineProtocolParser {
  private readonly series = new BytesMap<Series>(1 << 18);
  private readonly tables = new Map<string, TableInfo>();
  private readonly utf8 = new TextDecoder('utf-8');

  /** Parses the whole body; throws LineProtocolError naming the first bad line. */
  parse(body: Uint8Array, options: ParseOptions): ParseResult {
    const state = new RequestState(options);
    const b = body;
    const end = b.length;
    let pos = 0;
    let line = 1;
    let lineStart = 0;
    let lineAtStart = 1;
    let lines = 0;
    let values = 0;
    const nowWords = new Int32Array(new BigInt64Array([options.now]).buffer);
    let previous: Series | null = null;
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    try {
      while (pos < end) {
        lineStart = pos;
        lineAtStart = line;
        // Leading blanks; then blank lines and comments.
        while (pos < end && (b[pos] === SPACE || b[pos] === TAB)) pos++;
        if (pos === end) break;
        let c = b[pos];
        if (c === NL || (c === CR && pos + 1 < end && b[pos + 1] === NL)) {
          pos += c === CR ? 2 : 1;
          line++;
          continue;
        }
        if (c === HASH) {
          while (pos < end && b[pos] !== NL) pos++;
          pos++;
          line++;
          continue;
        }
        // Series key: up to the first unescaped space. First guess: the series that followed the
        // previous line's series last time (clients send their series in a steady order);
        // equal bytes from the key's start scan alike, so equal bytes and a space end it alike.
        let series: Series | undefined;
        const guess: Series | null = previous === null ? null : previous.next;
        if (guess !== null) {
          const key = guess.key;
          const n = key.length;
          if (pos + n < end && b[pos + n] === SPACE) {
            if (equalAt(view, pos, guess.keyView, n)) {
              series = guess;
              pos += n;
            }
          }
        }
        if (series === undefined) {
          const keyStart = pos;
          let h = FNV_OFFSET;
          while (pos < end) {
            c = b[pos];
            if (c === SPACE || c === NL) break;
            h = Math.imul(h ^ c, 16777619);
            if (c === BACKSLASH && pos + 1 < end && b[pos + 1] !== NL) {
              pos++;
              h = Math.imul(h ^ b[pos], 16777619);
            }
            pos++;
          }
          const keyEnd = pos;
          if (pos >= end || b[pos] === NL) throw new Reject(keyEnd === keyStart ? 'missing measurement' : 'missing fields');
          series = this.series.get(b, keyStart, keyEnd, h);
          if (series === undefined) {
            series = this.parseSeriesKey(b, keyStart, keyEnd);
            this.series.set(b, keyStart, keyEnd, h, series);
          }
          if (previous !== null) previous.next = series;
        }
        previous = series;
        const info = series.table;
        const tb = state.builder(info);
        const row = tb.rows;
        tb.ensureRow(row);
        const tagIds = series.tagIds;
        for (let t = 0; t < tagIds.length; t++) {
          const id = tagIds[t];
          let col = tb.cols[id];
          if (col === undefined || col.type !== 'SYMBOL') col = tb.open(id, 'SYMBOL');
          col.ensure(row);
          col.refs[row] = series.tagValues[t];
          col.nulls[row] = 0;
        }
        while (pos < end && b[pos] === SPACE) pos++;
        // Fields.
        const seen = series.fields;
        let k = 0;
        for (;;) {
          if (pos >= end || b[pos] === NL || b[pos] === SPACE) throw new Reject('missing field');
          // The key: the series' previous line's k-th field, or a lookup.
          let id = -1;
          const expected = k < seen.length ? seen[k] : -1;
          if (expected >= 0) {
            const n = info.wireKeys[expected].length;
            if (pos + n < end && b[pos + n] === EQUALS) {
              // Equal bytes from the key's start scan alike, escapes included.
              if (n > 0 && equalAt(view, pos, info.wireViews[expected], n)) {
                id = expected;
                pos += n;
              }
            }
          }
          if (id < 0) {
            const s = pos;
            let fh = FNV_OFFSET;
            while (pos < end) {
              c = b[pos];
              if (c === EQUALS || c === NL || c === SPACE || c === COMMA) break;
              fh = Math.imul(fh ^ c, 16777619);
              if (c === BACKSLASH && pos + 1 < end && b[pos + 1] !== NL) {
                pos++;
                fh = Math.imul(fh ^ b[pos], 16777619);
              }
              pos++;
            }
            if (pos === s) throw new Reject('missing field key');
            if (pos >= end || b[pos] !== EQUALS) throw new Reject('missing field value');
            const known = info.fieldKeys.get(b, s, pos, fh);
            id = known ?? this.fieldId(info, b, s, pos, fh);
            if (k < seen.length) seen[k] = id;
            else seen.push(id);
          }
          pos++; // '='
          if (pos >= end) throw new Reject('missing field value');
          c = b[pos];
          if (c === QUOTE) {
            const s = ++pos;
            let escaped = false;
            while (pos < end && b[pos] !== QUOTE) {
              if (b[pos] === BACKSLASH && pos + 1 < end) {
                escaped = true;
                pos++;
              }
              if (b[pos] === NL) line++;
              pos++;
            }
            if (pos >= end) throw new Reject('unterminated string field value');
            const text = escaped ? unescapeString(this.utf8, b, s, pos) : this.utf8.decode(b.subarray(s, pos));
            pos++;
            let col = tb.cols[id];
            if (col === undefined || col.type !== 'STRING') col = tb.open(id, 'STRING');
            col.ensure(row);
            col.refs[row] = text;
            col.nulls[row] = 0;
          } else if (this.numberAt(b, pos, end) > 0) {
            // A number followed by a delimiter (the common case), scanned once.
            if (numberSuffix === 0) {
              let col = tb.cols[id];
              if (col === undefined || col.type !== 'DOUBLE') col = tb.open(id, 'DOUBLE');
              col.ensure(row);
              col.f64[row] = floatValue[0];
              col.nulls[row] = 0;
            } else {
              putInt64(tb, id, row, b, pos, numberEnd - 1, numberSuffix === 117);
            }
            pos = numberEnd;
          } else {
            const s = pos;
            while (pos < end) {
              c = b[pos];
              if (c === COMMA || c === SPACE || c === NL) break;
              pos++;
            }
            let e = pos;
            if (e > s && b[e - 1] === CR && (pos >= end || b[pos] === NL)) e--;
            const last = b[e - 1];
            const first = b[s];
            if (first === 116 || first === 84 || first === 102 || first === 70) {
              const v = booleanValue(b, s, e);
              if (v < 0) throw new Reject('invalid field value');
              let col = tb.cols[id];
              if (col === undefined || col.type !== 'BOOLEAN') col = tb.open(id, 'BOOLEAN');
              col.ensure(row);
              col.bytes[row] = v;
              col.nulls[row] = 0;
            } else if (last === 105 /* i */ || last === 117 /* u */) {
              putInt64(tb, id, row, b, s, e - 1, last === 117);
            } else {
              const v = scanFloat(b, s, e);
              if (v !== v) throw new Reject('invalid field value');
              let col = tb.cols[id];
              if (col === undefined || col.type !== 'DOUBLE') col = tb.open(id, 'DOUBLE');
              col.ensure(row);
              col.f64[row] = v;
              col.nulls[row] = 0;
            }
          }
          values++;
          k++;
          if (pos < end && b[pos] === COMMA) {
            pos++;
            continue;
          }
          break;
        }
        // Timestamp, or the request's time.
        while (pos < end && b[pos] === SPACE) pos++;
        const s = pos;
        while (pos < end && b[pos] !== NL) pos++;
        let e = pos;
        while (e > s && (b[e - 1] === SPACE || b[e - 1] === CR)) e--;
        if (e === s) {
          tb.ts[2 * row] = nowWords[0];
          tb.ts[2 * row + 1] = nowWords[1];
        } else if (!scanInt64(b, s, e, options.multiplier, tb.ts, row, false)) {
          throw new Reject('invalid timestamp');
        }
        tb.rows = row + 1;
        lines++;
        pos++;
        line++;
      }
    } catch (e) {
      if (e instanceof Reject || e instanceof IngestConflict) {
        throw new LineProtocolError(lineAtStart, lineText(this.utf8, b, lineStart), e.message);
      }
      throw e;
    }
    return { tables: state.finish(), lines, values };
  }

  /** A series key seen for the first time: its measurement and tags as strings. */
  private parseSeriesKey(b: Uint8Array, s: number, e: number): Series {
    let pos = s;
    while (pos < e && b[pos] !== COMMA) pos += b[pos] === BACKSLASH ? 2 : 1;
    const measurementEnd = Math.min(pos, e);
    if (measurementEnd === s) throw new Reject('missing measurement');
    const name = unescape(this.utf8, b, s, measurementEnd, false);
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Reject(`measurement over ${MAX_NAME_BYTES} bytes`);
    const table = this.tableInfo(name);
    const tagIds: number[] = [];
    const tagValues: string[] = [];
    while (pos < e) {
      pos++; // ','
      const keyStart = pos;
      while (pos < e && b[pos] !== EQUALS && b[pos] !== COMMA) pos += b[pos] === BACKSLASH ? 2 : 1;
      if (pos === keyStart) throw new Reject('missing tag key');
      if (pos >= e || b[pos] !== EQUALS) throw new Reject('missing tag value');
      const key = unescape(this.utf8, b, keyStart, pos, true);
      const valueStart = ++pos;
      while (pos < e && b[pos] !== COMMA) pos += b[pos] === BACKSLASH ? 2 : 1;
      if (pos === valueStart) throw new Reject(`missing tag value for '${key}'`);
      const id = this.columnId(table, key, b, keyStart, keyStart);
      if (tagIds.includes(id)) throw new Reject(`duplicate tag '${key}'`);
      tagIds.push(id);
      tagValues.push(unescape(this.utf8, b, valueStart, Math.min(pos, e), true));
    }
    const key = new Uint8Array(b.subarray(s, e));
    return { table, tagIds, tagValues, fields: [], key, keyView: new DataView(key.buffer), next: null };
  }

  /**
   * 1 when a field value starting at b[s] is a number (float, or digits with an `i`/`u` suffix)
   * ending at a delimiter — a comma, space, newline, `\r\n` or the body's end — else 0 (the
   * caller then takes the general path, which reads such a value alike). Sets floatValue[0] (a
   * float), numberSuffix (0, `i` or `u`) and numberEnd (the delimiter's position).
   */
  private numberAt(b: Uint8Array, s: number, end: number): number {
    const c = b[s];
    if (!((c >= 48 && c <= 57) || c === 45 || c === 46)) return 0;
    const valid = scanFloatInto(b, s, end);
    let t = floatEnd;
    let suffix = 0;
    if (t < end && (b[t] === 105 || b[t] === 117)) {
      suffix = b[t];
      t++;
    }
    if (t < end) {
      const d = b[t];
      if (!(d === COMMA || d === SPACE || d === NL || (d === CR && (t + 1 >= end || b[t + 1] === NL)))) return 0;
    }
    if (suffix === 0 && !valid) return 0;
    numberSuffix = suffix;
    numberEnd = t;
    return 1;
  }

  private tableInfo(name: string): TableInfo {
    let info = this.tables.get(name);
    if (info === undefined) {
      info = { name, id: this.tables.size, names: [], ids: new Map(), wireKeys: [], wireViews: [], fieldKeys: new BytesMap(1 << 12), lastRows: 0 };
      this.tables.set(name, info);
    }
    return info;
  }

  /** The id of field key b[s..e) (hash h) in `info`, registered on first sight. */
  private fieldId(info: TableInfo, b: Uint8Array, s: number, e: number, h: number): number {
    const key = unescape(this.utf8, b, s, e, true);
    const id = this.columnId(info, key, b, s, e);
    info.fieldKeys.set(b, s, e, h, id);
    return id;
  }

  private columnId(info: TableInfo, name: string, b: Uint8Array, s: number, e: number): number {
    if (name === TIMESTAMP_COLUMN) throw new Reject(`'${TIMESTAMP_COLUMN}' is the time index, not a tag or field`);
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Reject(`key over ${MAX_NAME_BYTES} bytes`);
    let id = info.ids.get(name);
    if (id === undefined) {
      id = info.names.length;
      info.names.push(name);
      info.ids.set(name, id);
      info.wireKeys.push(new Uint8Array(b.subarray(s, e)));
      info.wireViews.push(new DataView(info.wireKeys[id].buffer));
    } else if (e > s && info.wireKeys[id].length === 0) {
      info.wireKeys[id] = new Uint8Array(b.subarray(s, e));
      info.wireViews[id] = new DataView(info.wireKeys[id].buffer);
    }
    return id;
  }
}

/** Per-request state: the table builders this request writes. */
class RequestState {
  private readonly builders: (TableBuilder | undefined)[] = [];
  private readonly touched: TableBuilder[] = [];
  private readonly infos: TableInfo[] = [];

  constructor(private readonly options: ParseOptions) {}

  builder(info: TableInfo): TableBuilder {
    const had = this.builders[info.id];
    if (had !== undefined) return had;
    let schema: ReadonlyMap<string, string> | null;
    try {
      schema = this.options.schemaOf(info.name);
    } catch (e) {
      throw new Reject((e as Error).message);
    }
    const tb = new TableBuilder(info.name, info.names, schema, info.lastRows);
    this.builders[info.id] = tb;
    this.touched.push(tb);
    this.infos.push(info);
    return tb;
  }

  finish(): IngestTable[] {
    for (let i = 0; i < this.infos.length; i++) this.infos[i].lastRows = this.touched[i].rows;
    return this.touched.map((tb) => tb.finish());
  }
}

/** Whether the n bytes at `pos` of a body equal those of `key` (4 at a time). */
function equalAt(body: DataView, pos: number, key: DataView, n: number): boolean {
  let j = 0;
  for (; j + 4 <= n; j += 4) if (body.getInt32(pos + j, true) !== key.getInt32(j, true)) return false;
  for (; j < n; j++) if (body.getUint8(pos + j) !== key.getUint8(j)) return false;
  return true;
}

/** 1 / 0 for the boolean spellings InfluxDB accepts, -1 for anything else. */
function booleanValue(b: Uint8Array, s: number, e: number): number {
  const n = e - s;
  const c = b[s];
  if (n === 1) return c === 116 || c === 84 ? 1 : c === 102 || c === 70 ? 0 : -1;
  const word = Buffer.from(b.buffer, b.byteOffset + s, n).toString('latin1');
  switch (word) {
    case 'true': case 'True': case 'TRUE': return 1;
    case 'false': case 'False': case 'FALSE': return 0;
    default: return -1;
  }
}

/** Measurement (`\,` `\ `) or key/tag value (`\,` `\=` `\ `) text with its escapes removed. */
function unescape(utf8: TextDecoder, b: Uint8Array, s: number, e: number, withEquals: boolean): string {
  let plain = true;
  for (let i = s; i < e; i++) if (b[i] === BACKSLASH) plain = false;
  if (plain) return utf8.decode(b.subarray(s, e));
  const out = new Uint8Array(e - s);
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c === BACKSLASH && i + 1 < e) {
      const next = b[i + 1];
      if (next === COMMA || next === SPACE || (withEquals && next === EQUALS)) {
        out[n++] = next;
        i++;
        continue;
      }
      // Not an escape: the backslash stays, and the byte after it is taken as it is.
      out[n++] = c;
      out[n++] = next;
      i++;
      continue;
    }
    out[n++] = c;
  }
  return utf8.decode(out.subarray(0, n));
}

/** A string field value with `\"` and `\\` unescaped (other backslashes stay). */
function unescapeString(utf8: TextDecoder, b: Uint8Array, s: number, e: number): string {
  const out = new Uint8Array(e - s);
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c === BACKSLASH && i + 1 < e && (b[i + 1] === QUOTE || b[i + 1] === BACKSLASH)) {
      out[n++] = b[++i];
      continue;
    }
    out[n++] = c;
  }
  return utf8.decode(out.subarray(0, n));
}

const MAX_SHOWN = 256;

function lineText(utf8: TextDecoder, b: Uint8Array, s: number): string {
  let e = s;
  while (e < b.length && b[e] !== NL && e - s < MAX_SHOWN) e++;
  if (e > s && b[e - 1] === CR) e--;
  return utf8.decode(b.subarray(s, e));
}

/**
 * The integer in b[s, e) (its `i`/`u` suffix excluded) into row `row` of field `id`'s INT64
 * column: the one place both readers of a field value (the number fast path and the general one)
 * write integers, so their errors read the same.
 */
function putInt64(tb: TableBuilder, id: number, row: number, b: Uint8Array, s: number, e: number, isUnsigned: boolean): void {
  let col = tb.cols[id];
  if (col === undefined || col.type !== 'INT64') col = tb.open(id, 'INT64');
  col.ensure(row);
  if (!scanInt64(b, s, e, 1, col.words, row, isUnsigned)) {
    throw new Reject(isUnsigned ? 'invalid unsigned integer (0 … 9223372036854775807)' : 'invalid integer (out of int64)');
  }
  col.nulls[row] = 0;
}
