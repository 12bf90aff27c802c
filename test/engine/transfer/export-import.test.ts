// Export and import against an independent engine (issue 29's "done when"): DuckDB reads svc's
// Parquet and agrees on every value and type (nulls, BOOLEAN, SYMBOL, BLOB, nanosecond times);
// CSV, Arrow and Parquet exports round-trip through svc's import; svc imports a Parquet file
// written by DuckDB and a CSV with RFC 3339 times and agrees; a bad row fails the whole import
// naming its row and column, with nothing stored.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { parquetMetadata } from 'hyparquet';
import { Database } from '../../../engine/index.js';
import type { ExportFormat, QueryResult } from '../../../engine/index.js';
import { prng, tempDir } from '../helpers.js';

const ROWS = 3000;
const T0 = 1_700_000_000_123_456_789n;

async function exported(db: Database, query: string, format: ExportFormat): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of db.export(query, { format })) parts.push(p);
  return Buffer.concat(parts);
}

/** Rows of a result as plain values (bigints as strings, blobs as hex), for comparing. */
function plain(r: QueryResult): unknown[][] {
  const t = r.tables[0];
  return Array.from({ length: t.rowCount }, (_, i) => t.columns.map((c) => {
    if (c.nulls !== null && c.nulls[i] === 1) return null;
    const v = c.values[i];
    if (v === null) return null;
    if (typeof v === 'bigint') return String(v);
    if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
    return c.type === 'boolean' ? v === 1 : v;
  }));
}

describe('export and import', () => {
  let dir: string;
  let db: Database;
  before(async () => {
    dir = await tempDir('svc-transfer-');
    db = await Database.open({ dataDir: join(dir, 'db'), durability: 'none' });
    await db.createTable('t', [
      { name: 'd', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }, { name: 'sym', type: 'SYMBOL' }, { name: 'str', type: 'STRING' },
      { name: 'b', type: 'BOOLEAN' }, { name: 'bl', type: 'BLOB' }, { name: 'at', type: 'TIMESTAMP' },
    ]);
    const ts = new BigInt64Array(ROWS);
    const d: (number | null)[] = []; const n: (bigint | null)[] = []; const sym: (string | null)[] = []; const str: (string | null)[] = [];
    const b: (boolean | null)[] = []; const bl: (Uint8Array | null)[] = []; const at: (bigint | null)[] = [];
    for (let i = 0; i < ROWS; i++) {
      ts[i] = T0 + BigInt(i) * 1_000_000_007n;
      d.push(i % 7 === 0 ? null : i / 3 - 100);
      n.push(i % 11 === 0 ? null : BigInt(i) * 3_000_000_000_000n - (2n ** 62n));
      sym.push(i % 5 === 0 ? null : `s${i % 13}`);
      str.push(i % 6 === 0 ? null : i % 6 === 1 ? '' : `x,"${i}"\n${'é'.repeat(i % 3)}`);
      b.push(i % 4 === 0 ? null : i % 3 === 0);
      bl.push(i % 9 === 0 ? null : new Uint8Array([i & 255, 0, 255].slice(0, i % 4)));
      at.push(i % 8 === 0 ? null : T0 - BigInt(i) * 999n);
    }
    await db.insert('t', { $timestamp: ts, d, n, sym, str, b, bl, at });
  });
  after(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('DuckDB reads the Parquet export and agrees on every value and type', async () => {
    const file = join(dir, 't.parquet');
    await writeFile(file, await exported(db, 'SELECT * FROM t', 'parquet'));
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const types = (await duck.runAndReadAll(`SELECT name, type, logical_type FROM parquet_schema('${file}') WHERE name != 'schema'`)).getRowObjectsJson();
    assert.deepEqual(types.map((r) => [r['name'], r['type']]), [
      ['$timestamp', 'INT64'], ['d', 'DOUBLE'], ['n', 'INT64'], ['sym', 'BYTE_ARRAY'], ['str', 'BYTE_ARRAY'], ['b', 'BOOLEAN'], ['bl', 'BYTE_ARRAY'], ['at', 'INT64'],
    ]);
    for (const name of ['$timestamp', 'at']) {
      const logical = String(types.find((r) => r['name'] === name)!['logical_type']);
      assert.match(logical, /TimestampType\(isAdjustedToUTC=1, unit=TimeUnit\(MILLIS=<null>, MICROS=<null>, NANOS=NanoSeconds\(\)\)\)/);
    }
    const described = (await duck.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`)).getRowObjectsJson().map((r) => r['column_type']);
    assert.deepEqual(described, ['TIMESTAMP WITH TIME ZONE', 'DOUBLE', 'BIGINT', 'VARCHAR', 'VARCHAR', 'BOOLEAN', 'BLOB', 'TIMESTAMP WITH TIME ZONE']);
    // DuckDB turns UTC-adjusted nanosecond times into microseconds: compared at that precision
    // here, and to the nanosecond from the file's own INT64 values below.
    const rows = (await duck.runAndReadAll(`SELECT epoch_us("$timestamp")::VARCHAR, d, n::VARCHAR, sym, str, b, hex(bl), epoch_us("at")::VARCHAR FROM '${file}'`)).getRows();
    const svc = plain(await db.query('SELECT * FROM t'));
    assert.equal(rows.length, ROWS);
    const us = (v: unknown): string | null => (v === null ? null : String(BigInt(v as string) / 1000n));
    for (let i = 0; i < ROWS; i++) {
      const [ts, d, n, sym, str, b, bl, at] = svc[i];
      assert.deepEqual(rows[i], [us(ts), d, n, sym, str, b, bl === null ? null : String(bl).toUpperCase(), us(at)], `row ${i}`);
    }
  });

  it('compresses a Parquet column chunk only where Snappy shrinks it, and every reader reads both kinds', async () => {
    const rows = 200_000;
    await db.createTable('noise', [{ name: 'r', type: 'DOUBLE' }, { name: 'c', type: 'DOUBLE' }]);
    const ts = new BigInt64Array(rows);
    const r = new Float64Array(rows);
    const c = new Float64Array(rows);
    const random = prng(29);
    for (let i = 0; i < rows; i++) {
      ts[i] = T0 + BigInt(i) * 1_000_000_000n;
      r[i] = random() + random() / 4294967296; // every mantissa bit random: no repeated bytes Snappy could use
      c[i] = i % 3; // three values over and over
    }
    await db.insert('noise', { $timestamp: ts, r, c });
    const file = join(dir, 'noise.parquet');
    const bytes = await exported(db, 'SELECT * FROM noise', 'parquet');
    await writeFile(file, bytes);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const codecs = (await duck.runAndReadAll(`SELECT DISTINCT path_in_schema, compression FROM parquet_metadata('${file}') ORDER BY 1`)).getRows();
    assert.deepEqual(codecs, [['$timestamp', 'SNAPPY'], ['c', 'SNAPPY'], ['r', 'UNCOMPRESSED']]);
    // Every value as svc holds it (the sums of DuckDB and svc round differently: values compared instead).
    const back = (await duck.runAndReadAll(`SELECT r, c FROM '${file}'`)).getRows();
    assert.equal(back.length, rows);
    for (let i = 0; i < rows; i++) if (back[i][0] !== r[i] || back[i][1] !== c[i]) assert.fail(`row ${i}: DuckDB read ${back[i].join(', ')}, svc holds ${r[i]}, ${c[i]}`);
    await db.import('noise_back', bytes, { format: 'parquet' });
    assert.deepEqual(plain(await db.query('SELECT * FROM noise_back')), plain(await db.query('SELECT * FROM noise')));
  });

  it('keeps nanosecond times in the Parquet file and SYMBOL in its footer', async () => {
    const bytes = await exported(db, 'SELECT * FROM t', 'parquet');
    const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    assert.equal(Number(meta.num_rows), ROWS);
    assert.ok(meta.key_value_metadata?.some((kv) => kv.key === 'svc:columns' && kv.value?.includes('"SYMBOL"')));
    await db.import('t_parquet', bytes, { format: 'parquet' });
    assert.deepEqual(db.describeTable('t_parquet').columns, db.describeTable('t').columns);
    assert.deepEqual(plain(await db.query('SELECT * FROM t_parquet')), plain(await db.query('SELECT * FROM t')));
  });

  it('round-trips CSV through the import (SYMBOL read back as STRING, BLOB as base64 text)', async () => {
    const csv = await exported(db, 'SELECT $timestamp, d, n, sym, str, b, at FROM t', 'csv');
    assert.match(csv.toString('utf8', 0, 80), /^\$timestamp,d,n,sym,str,b,at\r\n2023-11-14T22:13:20.123456789Z,/);
    const r = await db.import('t_csv', csv, { format: 'csv' });
    assert.deepEqual(r, { table: 't_csv', rows: ROWS, isCreated: true });
    assert.deepEqual(db.describeTable('t_csv').columns.map((c) => c.type), ['DOUBLE', 'INT64', 'STRING', 'STRING', 'BOOLEAN', 'TIMESTAMP']);
    assert.deepEqual(plain(await db.query('SELECT * FROM t_csv')), plain(await db.query('SELECT $timestamp, d, n, sym, str, b, at FROM t')));
  });

  it('writes an Arrow IPC stream that apache-arrow reads back whole', async () => {
    const table = tableFromIPC(await exported(db, 'SELECT * FROM t WHERE d > 0', 'arrow'));
    const svc = plain(await db.query('SELECT * FROM t WHERE d > 0'));
    assert.equal(table.numRows, svc.length);
    assert.deepEqual(table.schema.fields.map((f) => f.name), ['$timestamp', 'd', 'n', 'sym', 'str', 'b', 'bl', 'at']);
    const times = table.getChildAt(0)!.data.flatMap((chunk) => [...(chunk.values as BigInt64Array)]);
    for (let i = 0; i < svc.length; i += 97) {
      const row = table.get(i)!.toArray() as unknown[];
      const [ts, d, n, sym, str, b, bl] = svc[i];
      assert.deepEqual([String(times[i]), row[1], row[2] === null ? null : String(row[2]), row[3], row[4], row[5], row[6] === null ? null : Buffer.from(row[6] as Uint8Array).toString('hex')],
        [ts, d, n, sym, str, b, bl], `row ${i}`);
    }
  });

  it('streams NDJSON with exact integers and null for NaN', async () => {
    await db.createTable('nd', [{ name: 'v', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }]);
    await db.insert('nd', { $timestamp: new BigInt64Array([1n, 2n]), v: [NaN, 0.1], n: [2n ** 62n + 1n, null] });
    const text = (await exported(db, 'SELECT v, n FROM nd', 'ndjson')).toString();
    assert.equal(text, '{"$timestamp":"1970-01-01T00:00:00.000000001Z","v":null,"n":4611686018427387905}\n{"$timestamp":"1970-01-01T00:00:00.000000002Z","v":0.1,"n":null}\n');
  });

  it('streams a result in chunks and honours OFFSET and LIMIT across them', async () => {
    await db.createTable('big', [{ name: 'v', type: 'INT64' }]);
    const n = 200_000;
    await db.insert('big', { $timestamp: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)), v: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)) });
    const csv = (await exported(db, 'SELECT v FROM big LIMIT 100000 OFFSET 70000', 'csv')).toString().trimEnd().split('\r\n');
    assert.equal(csv.length, 100_001);
    assert.equal(csv[1], '1970-01-01T00:00:00.00007Z,70000');
    assert.equal(csv.at(-1), '1970-01-01T00:00:00.000169999Z,169999');
    // A reader that stops early cancels the query; the database goes on serving.
    for await (const _ of db.export('SELECT * FROM big', { format: 'csv' })) break;
    assert.equal((await db.query('SELECT count(v) FROM big')).tables[0].columns[0].values[0], BigInt(n));
  });

  it('imports a Parquet file written by DuckDB and agrees with it', async () => {
    const file = join(dir, 'duck.parquet');
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run(`COPY (SELECT TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS "timestamp", i::BIGINT AS n, i::INTEGER AS small, i / 8.0 AS d,
      CASE WHEN i % 3 = 0 THEN NULL ELSE 'k' || (i % 5) END AS s, i % 2 = 0 AS b, DATE '2020-01-01' + (i % 10)::INTEGER AS day
      FROM range(50000) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 20000)`);
    const r = await db.import('duck', file, { format: 'parquet' });
    assert.deepEqual(r, { table: 'duck', rows: 50_000, isCreated: true });
    assert.deepEqual(db.describeTable('duck').columns, [
      { name: 'n', type: 'INT64' }, { name: 'small', type: 'INT64' }, { name: 'd', type: 'DOUBLE' }, { name: 's', type: 'STRING' }, { name: 'b', type: 'BOOLEAN' }, { name: 'day', type: 'TIMESTAMP' },
    ]);
    const expected = (await duck.runAndReadAll(`SELECT (epoch_us("timestamp") * 1000)::VARCHAR, n::VARCHAR, small::VARCHAR, d, s, b, (epoch_us(day::TIMESTAMP) * 1000)::VARCHAR FROM '${file}' ORDER BY "timestamp"`)).getRows();
    assert.deepEqual(plain(await db.query('SELECT * FROM duck')), expected);
  });

  it('imports a CSV with RFC 3339 times (offsets, fractions) and integer nanoseconds', async () => {
    const csv = 'timestamp,price,venue\r\n2024-03-01T10:00:00Z,1.5,X\n2024-03-01T12:00:00.123456789+02:00,2,"Y, Z"\n1709287200000000001,,\n2024-03-01 10:00:01.5,3e2,""\n';
    await db.import('rfc', Buffer.from(csv), { format: 'csv' });
    assert.deepEqual(plain(await db.query('SELECT * FROM rfc')), [
      ['1709287200000000000', 1.5, 'X'],
      ['1709287200000000001', null, null],
      ['1709287200123456789', 2, 'Y, Z'],
      ['1709287201500000000', 300, ''],
    ]);
  });

  it('refuses a file with a bad row, naming row and column, and stores nothing', async () => {
    const before = db.describeTable('rfc').rowCount;
    await assert.rejects(db.import('rfc', Buffer.from('timestamp,price\n2024-03-02T00:00:00Z,1\n2024-03-02T00:00:01Z,abc\n'), { format: 'csv' }),
      { code: 'InvalidArgument', message: "row 2 (line 3), column 'price': 'abc' is not a number (the column is DOUBLE)" });
    await assert.rejects(db.import('fresh', Buffer.from('timestamp,v\n2024-03-02T00:00:00Z,1\n2024-13-02T00:00:01Z,2\n'), { format: 'csv' }), /row 2 \(line 3\), column 'timestamp'/);
    await assert.rejects(db.import('fresh', Buffer.from('v\n1\n'), { format: 'csv' }), /needs a time column/);
    await assert.rejects(db.import('fresh', Buffer.from('not parquet'), { format: 'parquet' }), /not a Parquet file/);
    assert.equal(db.describeTable('rfc').rowCount, before);
    assert.throws(() => db.describeTable('fresh'), { code: 'TableNotFound' });
  });

  it('refuses an export of anything but a SELECT, and tables of different columns', async () => {
    assert.throws(() => db.export('SELECT * FROM t', { format: 'xlsx' as ExportFormat }), { code: 'InvalidArgument' });
    await assert.rejects(exported(db, 'DROP TABLE t', 'csv'), { code: 'InvalidArgument' });
    await assert.rejects(exported(db, 'SELECT * FROM t, nd', 'csv'), /writes one table/);
    assert.ok(db.describeTable('t'));
  });
});

