// Shared by the encoder tests: seeded random QueryResults of every column type (nulls, NaN,
// ±Infinity, int64 and time extremes, escapes, lone surrogates, empty strings and blobs), and a
// naive reference encoder of both JSON shapes written the obvious way (a BigInt per value, Date
// for calendar dates, string concatenation), which the fast encoders must match byte for byte.
import type { QueryResult, ResultColumn, ResultTable, ResultType } from '../../engine/index.js';
import { prng } from '../prng.js';
import type { Rng } from '../prng.js';

export const MIN_I64 = -(2n ** 63n);
export const MAX_I64 = 2n ** 63n - 1n;
export const T2017 = 1_483_228_800_000_000_000n; // 2017-01-01T00:00:00Z

/** Concatenated chunks of an encoder as one buffer. */
export function collect(chunks: Iterable<Uint8Array>): Buffer {
  return Buffer.concat([...chunks].map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
}

// ---- reference encoder ---------------------------------------------------------------------

type Style = 'js' | 'native' | 'rfc3339';

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a < q * b ? q - 1n : q;
}

export function refTime(ns: bigint, style: Style): string {
  const sec = floorDiv(ns, 1_000_000_000n);
  const nsec = ns - sec * 1_000_000_000n;
  if (style === 'native') return `{"tv_sec":${sec},"tv_nsec":${nsec}}`;
  const iso = new Date(Number(sec) * 1000).toISOString().slice(0, 19);
  if (style === 'js') return `"${iso}.${String(nsec / 1_000_000n).padStart(3, '0')}Z"`;
  const fraction = nsec === 0n ? '' : `.${String(nsec).padStart(9, '0').replace(/0+$/, '')}`;
  return `"${iso}${fraction}Z"`;
}

function refCell(c: ResultColumn, i: number, style: Style): string {
  if (c.type === 'none' || (c.nulls !== null && c.nulls[i] === 1)) return 'null';
  const v = c.values[i];
  if (v === null) return 'null';
  switch (c.type) {
    case 'double': return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'int64': case 'count': return (v as bigint).toString();
    case 'timestamp': return refTime(v as bigint, style);
    case 'string': case 'symbol': return JSON.stringify(v);
    case 'blob': return `"${Buffer.from(v as Uint8Array).toString('base64')}"`;
    case 'boolean': return v !== 0 ? 'true' : 'false';
  }
}

export function refApiQuery(r: QueryResult): string {
  if (r.kind === 'find') return `{"tables":[${(r.aliases ?? []).map((a) => `{"columns":null,"name":${JSON.stringify(a)}}`).join(',')}]}`;
  const tables = r.kind === 'ok' ? [] : r.tables.map((t) => {
    const columns = t.columns.map((c) => {
      const data = Array.from({ length: t.rowCount }, (_, i) => refCell(c, i, 'rfc3339'));
      return `{"data":[${data.join(',')}],"name":${JSON.stringify(c.name)},"type":"${c.type}"}`;
    });
    return `{"columns":[${columns.join(',')}]}`;
  });
  return `{"tables":[${tables.join(',')}]}`;
}

export function refQueryExp(query: string, r: QueryResult, style: 'js' | 'native'): string {
  const tables = r.kind === 'find'
    ? (r.aliases ?? []).map((a) => `{"table_name":${JSON.stringify(a)},"rows_count":0,"columns_count":0,"columns_names":[],"results":[]}`)
    : r.kind === 'ok' ? [] : r.tables.map((t) => {
      const rows = Array.from({ length: t.rowCount }, (_, i) => {
        const time = t.timestampNulls !== null && t.timestampNulls[i] === 1 ? 'null' : refTime(t.timestamps[i], style);
        return `[${[time, ...t.columns.map((c) => refCell(c, i, style))].join(',')}]`;
      });
      const names = ['timestamp', ...t.columns.map((c) => c.name)];
      return `{"table_name":${JSON.stringify(t.name)},"rows_count":${t.rowCount},"columns_count":${names.length},"columns_names":${JSON.stringify(names)},"results":[${rows.join(',')}]}`;
    });
  return `{"query":${JSON.stringify(query)},"scanned_rows_count":${r.scannedRowsCount},"tables_count":${tables.length},"tables":[${tables.join(',')}]}`;
}

// ---- random results ------------------------------------------------------------------------

const DOUBLES = [NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, Number.MAX_VALUE, 1e21, -1e21, 1e-7, 0.1, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 2 ** 32, -1.5, 123.456];
const INT64S = [MIN_I64, MAX_I64, MIN_I64 + 1n, 0n, -1n, 1n, 2n ** 53n, 2n ** 53n - 1n, 2n ** 53n + 1n, -(2n ** 53n), -(2n ** 53n) - 1n, 2n ** 32n, -(2n ** 32n), 2n ** 62n, -(2n ** 62n)];
const TIMES = [MIN_I64, MAX_I64, -1n, 0n, 1n, T2017, T2017 + 500_000_000n, T2017 + 1n, T2017 - 1n, 2n ** 62n, -(2n ** 62n), 2n ** 62n - 1n, -(2n ** 62n) + 1n, 951_782_400_000_000_000n /* 2000-02-29 */];
const PIECES = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u0001', '\u001f', '\u007f', '\u0080', 'é', '€', '😀', '\ud800', '\udfff', '\ud83d', '\u2028', '\u2029', '\ufeff', '<', '\''];
const SYMBOLS = ['aapl', 'msft', '', 'é"x', '\u0000'];
export const TYPES: readonly ResultType[] = ['double', 'int64', 'count', 'timestamp', 'string', 'symbol', 'blob', 'boolean', 'none'];

function pick<T>(rand: Rng, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function randomI64(rand: Rng): bigint {
  const hi = BigInt(Math.floor(rand() * 2 ** 32));
  const lo = BigInt(Math.floor(rand() * 2 ** 32));
  return BigInt.asIntN(64, (hi << 32n) | lo);
}

function randomDouble(rand: Rng): number {
  const k = rand();
  if (k < 0.3) return pick(rand, DOUBLES);
  if (k < 0.6) return Math.round((rand() - 0.5) * 1e6) / 100;
  return (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
}

function randomInt64(rand: Rng): bigint {
  const k = rand();
  if (k < 0.3) return pick(rand, INT64S);
  if (k < 0.6) return BigInt(Math.floor((rand() - 0.5) * 2e6));
  return randomI64(rand);
}

function randomTime(rand: Rng): bigint {
  const k = rand();
  if (k < 0.3) return pick(rand, TIMES);
  if (k < 0.7) return T2017 + BigInt(Math.floor(rand() * 4e8)) * BigInt(Math.floor(rand() * 1e9) + 1);
  return randomI64(rand);
}

export function randomString(rand: Rng, options: { wellFormed?: boolean } = {}): string {
  let s = '';
  const n = Math.floor(rand() * 8);
  for (let k = 0; k < n; k++) s += pick(rand, PIECES);
  // wellFormed: text that survives a UTF-8 round trip through apache-arrow's reader, whose
  // TextDecoder also drops a leading U+FEFF (a BOM) — tested on the raw bytes in arrow.test.ts.
  return options.wellFormed ? wellFormed(s).replace(/^\ufeff/, 'x') : s;
}

/** The string with each lone surrogate replaced by U+FFFD, as any UTF-8 encoder writes it. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** A column of `rows` values of `type`; nulls as flags and/or (string, blob) null values. */
export function randomColumn(rand: Rng, type: ResultType, rows: number, name: string, options: { wellFormed?: boolean } = {}): ResultColumn {
  const nulls = rand() < 0.5 ? null : Uint8Array.from({ length: rows }, () => (rand() < 0.3 ? 1 : 0));
  const valueType = type === 'none' ? pick(rand, ['double', 'int64', 'string'] as const) : type;
  let values: ResultColumn['values'];
  switch (valueType) {
    case 'double': values = Float64Array.from({ length: rows }, () => randomDouble(rand)); break;
    case 'boolean': values = Float64Array.from({ length: rows }, () => (rand() < 0.5 ? 1 : 0)); break;
    case 'int64': case 'count': values = BigInt64Array.from({ length: rows }, () => randomInt64(rand)); break;
    case 'timestamp': values = BigInt64Array.from({ length: rows }, () => randomTime(rand)); break;
    case 'string': values = Array.from({ length: rows }, () => (rand() < 0.1 ? null : randomString(rand, options))); break;
    case 'symbol': values = Array.from({ length: rows }, () => (rand() < 0.1 ? null : pick(rand, SYMBOLS))); break;
    case 'blob': values = Array.from({ length: rows }, () => (rand() < 0.1 ? null : Uint8Array.from({ length: Math.floor(rand() * 6) }, () => Math.floor(rand() * 256)))); break;
  }
  return { name, type, values, nulls: type === 'none' ? Uint8Array.from({ length: rows }, () => 1) : nulls };
}

/** One table of random rows, with random row-time nulls, every type once (in random order). */
export function randomTable(rand: Rng, name: string, options: { wellFormed?: boolean } = {}): ResultTable {
  const rows = Math.floor(rand() * 40);
  const types = [...TYPES].sort(() => rand() - 0.5).slice(0, 1 + Math.floor(rand() * TYPES.length));
  const timestampNulls = rand() < 0.7 ? null : Uint8Array.from({ length: rows }, () => (rand() < 0.3 ? 1 : 0));
  return {
    name,
    rowCount: rows,
    timestamps: BigInt64Array.from({ length: rows }, () => randomTime(rand)),
    timestampNulls,
    columns: types.map((t, k) => randomColumn(rand, t, rows, k === 0 ? `${t}(x)` : `c${k} ${randomString(rand, options)}`, options)),
  };
}

export function randomResult(seed: number, options: { wellFormed?: boolean } = {}): QueryResult {
  const rand = prng(seed);
  const k = rand();
  if (k < 0.05) return { kind: 'ok', tables: [], scannedRowsCount: 0 };
  if (k < 0.1) return { kind: 'find', tables: [], scannedRowsCount: 0, aliases: Array.from({ length: Math.floor(rand() * 4) }, () => randomString(rand, options)) };
  const tables = Array.from({ length: Math.floor(rand() * 4) }, (_, t) => randomTable(rand, `t${t}.${randomString(rand, options)}`, options));
  return { kind: 'rows', tables, scannedRowsCount: Math.floor(rand() * 1e6) };
}
