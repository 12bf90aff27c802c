// Table-driven query tests against a real Database: query text → rows (time first, then the
// selected columns), column names and types, and the logical scanned count. Covers the example
// queries of SPEC §6 and the seeds, and each documented decision of the executor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../engine/database.js';
import { APPLE, openExampleDb, S, T0, T1, T2, T3, T4, T6, T7 } from './db-fixture.js';
import type { Cell } from './helpers.js';
import { tablesOf } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const W = 86_400n * S;
const CLOSES = APPLE.map((r) => r[2]);

interface Case {
  readonly query: string;
  readonly tables: Record<string, Cell[][]>;
  /** [name, type] of each column of the first table. */
  readonly columns?: [string, string][];
  readonly scanned?: number;
  readonly now?: bigint;
}

const CASES: Case[] = [
  // --- SPEC §6 examples
  { query: 'SELECT * FROM stocks.apple IN RANGE(2017, -1s)', scanned: 7,
    columns: [['$timestamp', 'timestamp'], ['open', 'double'], ['close', 'double'], ['volume', 'int64'], ['sym', 'symbol'], ['note', 'string'], ['raw', 'blob']],
    tables: { 'stocks.apple': [[T0, T0, 1, 1.5, 100n, 'x', 'late', enc('ab')]] } },
  { query: 'SELECT count(*) FROM stocks.apple', scanned: 48,
    columns: [['count(open)', 'count'], ['count(close)', 'count'], ['count(volume)', 'count'], ['count(sym)', 'count'], ['count(note)', 'count'], ['count(raw)', 'count']],
    tables: { 'stocks.apple': [[null, 7n, 8n, 7n, 7n, 6n, 6n]] } },
  { query: 'select SUM(close) from stocks.apple in range(2017, +1d);', columns: [['sum(close)', 'double']], scanned: 3,
    tables: { 'stocks.apple': [[T1, 33]] } },
  { query: 'SELECT sum(close) / count(close) FROM stocks.apple IN RANGE(2017-01-01, 2017-01-03)', columns: [['(sum(close)/count(close))', 'double']],
    tables: { 'stocks.apple': [[T1, 12]] } },
  { query: 'SELECT $timestamp, avg(close) AS mean FROM stocks.apple IN RANGE(2017-01-01, 2017-01-03) GROUP BY day',
    columns: [['$timestamp', 'timestamp'], ['mean', 'double']], tables: { 'stocks.apple': [[T1, T1, 11], [T4, T4, 13.5]] } },
  { query: 'SELECT count(close) FROM stocks.apple IN RANGE(2017-01-01, 2017-01-02) GROUP BY 1h30min',
    tables: { 'stocks.apple': [[T1, 2n], [T3, 1n]] } },
  // Weeks start on Monday: 2017-01-01 is a Sunday, so it joins the week of Monday 2016-12-26.
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1w',
    tables: { 'stocks.apple': [[T1 - 6n * W, 4n], [T4, 2n], [T4 + 7n * W, 1n], [T7 - 2n * W, 1n]] } },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY month',
    tables: { 'stocks.apple': [[T1 - 31n * W, 1n], [T1, 6n], [T7, 1n]] } },
  // --- row time of a lone first/last/min/max/abs_*: the picked row
  { query: 'SELECT max(close) FROM stocks.apple', tables: { 'stocks.apple': [[T7, 21]] } },
  { query: 'SELECT min(open) FROM stocks.apple IN RANGE(2017, 2018)', tables: { 'stocks.apple': [[T6, 9]] } },
  { query: 'SELECT first(note) FROM stocks.apple IN RANGE(2017, 2018)', tables: { 'stocks.apple': [[T1, 'first']] } },
  { query: 'SELECT last(raw) FROM stocks.apple', columns: [['last(raw)', 'blob']], tables: { 'stocks.apple': [[T7, enc('f')]] } },
  { query: 'SELECT abs_min(close) FROM stocks.apple', tables: { 'stocks.apple': [[T0, 1.5]] } },
  { query: 'SELECT max(close), min(close) FROM stocks.apple IN RANGE(2017, 2018)', tables: { 'stocks.apple': [[T1, 21, 9]] } },
  // --- x [NOT] IN (…): `x = a OR x = b …` / `x != a AND x != b …`; null x matches neither
  { query: 'SELECT close FROM stocks.apple WHERE volume IN (100, 2000, 7)', tables: { 'stocks.apple': [[T0, 1.5], [T2, 12]] } },
  { query: 'SELECT close FROM stocks.apple WHERE volume NOT IN (100, 2000)', tables: { 'stocks.apple': [[T1, 11], [T3, 10], [T4, 14], [T6, 9], [T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple WHERE volume IN (100, NULL)', tables: { 'stocks.apple': [[T0, 1.5]] } },
  { query: 'SELECT close FROM stocks.apple WHERE volume NOT IN (100, NULL)', tables: {} },
  { query: 'SELECT close FROM stocks.apple WHERE NOT (volume IN (100, 1000, 2000, 1500, 10, 4000))', tables: { 'stocks.apple': [[T4, 13], [T4, 14]] } },
  { query: 'SELECT close FROM stocks.apple WHERE volume IN (1000, 2.0e3, 2.5)', tables: { 'stocks.apple': [[T1, 11], [T2, 12]] } },
  { query: 'SELECT close FROM stocks.apple WHERE open IN (10, 12.0)', tables: { 'stocks.apple': [[T1, 11], [T3, 10], [T4, 13]] } },
  { query: 'SELECT close FROM stocks.apple WHERE open NOT IN (10, 12.0)', tables: { 'stocks.apple': [[T0, 1.5], [T2, 12], [T6, 9], [T7, 21]] } },
  { query: "SELECT close FROM stocks.apple WHERE sym IN ('x', 'nope')", tables: { 'stocks.apple': [[T0, 1.5], [T3, 10], [T6, 9]] } },
  { query: "SELECT close FROM stocks.apple WHERE sym NOT IN ('x')", tables: { 'stocks.apple': [[T1, 11], [T2, 12], [T4, 13], [T7, 21]] } },
  { query: "SELECT close FROM stocks.apple WHERE note IN ('late', 'feb', 'nope')", tables: { 'stocks.apple': [[T0, 1.5], [T7, 21]] } },
  { query: "SELECT close FROM stocks.apple WHERE raw IN ('abc', 'q', '')", tables: { 'stocks.apple': [[T1, 11], [T4, 13], [T6, 9]] } },
  { query: 'SELECT close FROM stocks.apple WHERE $timestamp IN (2017-01-02, 2017-01-01)', tables: { 'stocks.apple': [[T1, 11], [T4, 13], [T4, 14]] } },
  { query: 'SELECT close FROM stocks.apple WHERE close IN (open, 1.5)', tables: { 'stocks.apple': [[T0, 1.5], [T6, 9]] } },
  { query: "SELECT close FROM stocks.apple WHERE note NOT IN (sym, 'late', 'next')", tables: { 'stocks.apple': [[T1, 11], [T3, 10], [T6, 9], [T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple WHERE close = 11 OR close = 12 OR close = 9 OR open = 20', tables: { 'stocks.apple': [[T1, 11], [T2, 12], [T6, 9], [T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple WHERE close != 11 AND close != 1.5 AND volume != 2000 AND volume != 10', tables: { 'stocks.apple': [[T3, 10], [T4, 14], [T7, 21]] } },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY sym HAVING count(close) IN (1, 3)', tables: { 'stocks.apple': [[null, 3n], [null, 1n]] } },
  { query: "SELECT count(close) FROM stocks.apple GROUP BY sym HAVING sym NOT IN ('x')", tables: { 'stocks.apple': [[null, 4n]] } },
  // --- GROUP BY column, HAVING, ORDER BY, LIMIT, OFFSET
  { query: 'SELECT sym, count(close), sum(volume) FROM stocks.apple GROUP BY sym',
    columns: [['sym', 'symbol'], ['count(close)', 'count'], ['sum(volume)', 'int64']],
    tables: { 'stocks.apple': [[null, 'aapl', 4n, 7000n], [null, 'x', 3n, 1610n], [null, null, 1n, 500n]] } },
  { query: 'SELECT sym, count(close) FROM stocks.apple GROUP BY sym HAVING count(close) > 1 ORDER BY 2',
    tables: { 'stocks.apple': [[null, 'x', 3n], [null, 'aapl', 4n]] } },
  { query: 'SELECT sym, count(close) AS n FROM stocks.apple GROUP BY sym HAVING n > 1 AND n < 4',
    tables: { 'stocks.apple': [[null, 'x', 3n]] } },
  { query: 'SELECT close FROM stocks.apple ORDER BY close DESC LIMIT 3 OFFSET 1', scanned: 8,
    tables: { 'stocks.apple': [[T4, 14], [T4, 13], [T2, 12]] } },
  { query: 'SELECT volume FROM stocks.apple ORDER BY volume LIMIT 2 OFFSET 6', tables: { 'stocks.apple': [[T7, 4000n], [T4, null]] } },
  { query: 'SELECT close AS c FROM stocks.apple IN RANGE(2017, +1d) ORDER BY c DESC', tables: { 'stocks.apple': [[T2, 12], [T1, 11], [T3, 10]] } },
  { query: 'SELECT sym, max(close) FROM stocks.apple GROUP BY sym ORDER BY max(close) DESC LIMIT 1', tables: { 'stocks.apple': [[null, 'aapl', 21]] } },
  { query: 'SELECT close FROM stocks.apple LIMIT 2', scanned: 8, tables: { 'stocks.apple': [[T0, 1.5], [T1, 11]] } },
  // --- regex on strings, symbols and blobs
  { query: "SELECT note FROM stocks.apple WHERE note ~ '^f'", tables: { 'stocks.apple': [[T1, 'first'], [T7, 'feb']] } },
  { query: "SELECT note FROM stocks.apple WHERE note !~ 'e'", tables: { 'stocks.apple': [[T1, 'first'], [T3, 'noon']] } },
  { query: "SELECT count(close) FROM stocks.apple WHERE sym ~* '^AA'", tables: { 'stocks.apple': [[null, 4n]] } },
  { query: "SELECT count(close) FROM stocks.apple WHERE sym !~* '^AA'", tables: { 'stocks.apple': [[null, 3n]] } },
  { query: "SELECT close FROM stocks.apple WHERE raw ~ 'b'", tables: { 'stocks.apple': [[T0, 1.5], [T1, 11]] } },
  // --- nulls: comparisons with null are false, so NOT keeps them
  { query: 'SELECT volume FROM stocks.apple WHERE NOT (volume > 600)', tables: { 'stocks.apple': [[T0, 100n], [T4, null], [T4, 500n], [T6, 10n]] } },
  { query: 'SELECT count(close) FROM stocks.apple WHERE volume != 100', tables: { 'stocks.apple': [[null, 6n]] } },
  { query: 'SELECT count(close) FROM stocks.apple WHERE volume = NULL OR note = note', tables: { 'stocks.apple': [[null, 6n]] } },
  // --- arithmetic: double ÷ 0 → NaN, int64 ÷ 0 → null, int64 ⊕ double → double
  { query: 'SELECT close / 0, volume / 0, volume * 2, open + volume, volume / 3 FROM stocks.apple IN RANGE(2017, +2h)',
    columns: [['(close/0)', 'double'], ['(volume/0)', 'none'], ['(volume*2)', 'int64'], ['(open+volume)', 'double'], ['(volume/3)', 'int64']],
    tables: { 'stocks.apple': [[T1, NaN, null, 2000n, 1010, 333n], [T2, NaN, null, 4000n, 2011, 666n]] } },
  { query: "SELECT -close, close * -1.5, 'k', NULL FROM stocks.apple IN RANGE(2017, +1h)",
    columns: [['-close', 'double'], ['(close*-1.5)', 'double'], ["'k'", 'string'], ['NULL', 'none']], tables: { 'stocks.apple': [[T1, -11, -16.5, 'k', null]] } },
  // --- time arithmetic, calendar months, now
  { query: 'SELECT close FROM stocks.apple WHERE $timestamp >= 2017-01-02 - 1h AND $timestamp < 2017-01-01 + 1mon',
    tables: { 'stocks.apple': [[T4, 13], [T4, 14], [T6, 9]] } },
  { query: 'SELECT close FROM stocks.apple WHERE $timestamp > now - 1d', now: T7, tables: { 'stocks.apple': [[T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple IN RANGE(yesterday, tomorrow)', now: T7 + S, tables: { 'stocks.apple': [[T7, 21]] } },
  { query: 'SELECT $timestamp - 2017-01-01, $timestamp + 1mon FROM stocks.apple IN RANGE(2017-01-09, +1d)',
    columns: [['($timestamp-2017-01-01T00:00:00Z)', 'int64'], ['($timestamp+1mon)', 'timestamp']],
    tables: { 'stocks.apple': [[T6, T6 - T1, T6 + 31n * W]] } },
  // --- several tables: each is its own group and its own result table
  { query: 'SELECT * FROM stocks.apple, stocks.msft IN RANGE(2017-02-01, +1d)',
    columns: [['$timestamp', 'timestamp'], ['$table', 'string'], ['open', 'double'], ['close', 'double'], ['volume', 'int64'], ['sym', 'symbol'], ['note', 'string'], ['raw', 'blob']],
    tables: { 'stocks.apple': [[T7, T7, 'stocks.apple', 20, 21, 4000n, 'aapl', 'feb', enc('f')]], 'stocks.msft': [[T7, T7, 'stocks.msft', 62]] } },
  { query: "SELECT $table, count(close) FROM FIND(tag='nasdaq' AND NOT tag='none') GROUP BY $table",
    tables: { 'stocks.apple': [[null, 'stocks.apple', 8n]], 'stocks.msft': [[null, 'stocks.msft', 2n]] } },
  { query: "SELECT close FROM FIND(tag='nasdaq' AND type=blob)", tables: {} },
  { query: 'SELECT close FROM stocks.msft, stocks.msft IN RANGE(2017, +1s)', tables: { 'stocks.msft': [[T1, 60]] } },
  // --- int64 sums are exact
  { query: 'SELECT sum(v), avg(v), min(v), max(v), spread(v) FROM big', columns: [['sum(v)', 'int64'], ['avg(v)', 'double'], ['min(v)', 'int64'], ['max(v)', 'int64'], ['spread(v)', 'int64']],
    tables: { big: [[null, 2n ** 62n + 2n ** 53n, Number(2n ** 62n + 2n ** 53n) / 4, -(2n ** 62n), 2n ** 62n, -(2n ** 63n)]] } }, // 2^63 wraps, like every int64 result
  { query: 'SELECT sum(v) FROM big IN RANGE(2017-01-02, +1d)', tables: { big: [[T4, 2n ** 53n + 1n]] } },
  // --- empty results
  { query: 'SELECT close FROM stocks.apple IN RANGE(2030, +1d)', tables: {} },
  { query: 'SELECT count(close) FROM stocks.apple IN RANGE(2030, +1d)', tables: {} },
  { query: 'SELECT count(close) FROM stocks.apple WHERE close > 1000', scanned: 8, tables: {} },
  // --- several ranges: each range is its own group, in the order written
  { query: 'SELECT count(close) FROM stocks.apple IN [RANGE(2017-02-01, +1d), RANGE(2017, +1h)]', scanned: 2,
    tables: { 'stocks.apple': [[T7, 1n], [T1, 1n]] } },
  { query: 'SELECT close FROM stocks.apple IN [RANGE(2017-02-01, +1d), RANGE(2017, +1h)]', tables: { 'stocks.apple': [[T7, 21], [T1, 11]] } },
];

describe('query examples (real Database)', () => {
  let db: Database;
  let close: () => Promise<void>;
  let reopen: () => Promise<Database>;
  before(async () => ({ db, close, reopen } = await openExampleDb()));
  after(async () => close());

  for (const c of CASES) {
    it(c.query, async () => {
      const result = await db.query(c.query, { now: c.now ?? T1 });
      assert.equal(result.kind, 'rows');
      assert.deepStrictEqual(tablesOf(result), c.tables);
      if (c.columns !== undefined) assert.deepStrictEqual(result.tables[0].columns.map((col) => [col.name, col.type]), c.columns);
      if (c.scanned !== undefined) assert.equal(result.scannedRowsCount, c.scanned);
    });
  }

  it('computes every aggregate of SPEC §6', async () => {
    const names = ['count', 'first', 'last', 'min', 'max', 'sum', 'avg', 'arithmetic_mean', 'harmonic_mean', 'geometric_mean',
      'quadratic_mean', 'spread', 'product', 'sum_of_squares', 'abs_min', 'abs_max', 'distinct_count', 'adjacent_count',
      'sample_variance', 'sample_stddev', 'population_variance', 'population_stddev', 'skewness', 'kurtosis'];
    const result = await db.query(`SELECT ${names.map((n) => `${n}(close)`).join(', ')} FROM stocks.apple`);
    const row = tablesOf(result)['stocks.apple'][0].slice(1);
    const x = CLOSES as readonly number[];
    const n = x.length;
    const sum = x.reduce((a, b) => a + b, 0);
    const mean = sum / n;
    const m = (k: number): number => x.reduce((a, v) => a + (v - mean) ** k, 0);
    const expected = [BigInt(n), 1.5, 21, 1.5, 21, sum, mean, mean, n / x.reduce((a, v) => a + 1 / v, 0),
      Math.exp(x.reduce((a, v) => a + Math.log(v), 0) / n), Math.sqrt(x.reduce((a, v) => a + v * v, 0) / n), 19.5,
      x.reduce((a, v) => a * v, 1), x.reduce((a, v) => a + v * v, 0), 1.5, 21, 8n, 7n, m(2) / (n - 1), Math.sqrt(m(2) / (n - 1)),
      m(2) / n, Math.sqrt(m(2) / n), (Math.sqrt(n) * m(3)) / m(2) ** 1.5, (n * m(4)) / (m(2) * m(2)) - 3];
    assert.equal(row.length, expected.length);
    row.forEach((v, i) => {
      const e = expected[i];
      if (typeof e === 'number') assert.ok(Math.abs((v as number) - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${names[i]}: ${String(v)} vs ${e}`);
      else assert.equal(v, e, names[i]);
    });
    assert.deepStrictEqual(result.tables[0].columns.map((c) => c.type),
      ['count', 'double', 'double', 'double', 'double', 'double', 'double', 'double', 'double', 'double', 'double', 'double',
        'double', 'double', 'double', 'double', 'count', 'count', 'double', 'double', 'double', 'double', 'double', 'double']);
  });

  it('answers whole batches from statistics exactly as a scan would', async () => {
    const q = 'SELECT count(close), sum(close), min(close), max(close), first(note), last(note), avg(volume), spread(volume) FROM stocks.apple';
    const variants: [string, string][] = [['', ''], [' IN RANGE(2017, 2018)', ''], ['', ' GROUP BY 1y'], [' IN RANGE(2016-12-31T23:59:59.6, 2017-02-01)', ' GROUP BY 1w']];
    for (const [range, group] of variants) {
      const tail = range + group;
      const withStats = await db.query(q + tail);
      // A WHERE that keeps every row forces the scan path.
      const scanned = await db.query(`${q}${range} WHERE close = close${group}`);
      assert.deepStrictEqual(tablesOf(withStats), tablesOf(scanned), tail);
      assert.equal(withStats.scannedRowsCount, scanned.scannedRowsCount);
    }
  });

  it('finds entries with find(...)', async () => {
    const all = await db.query("find(tag='nasdaq')");
    assert.equal(all.kind, 'find');
    assert.deepStrictEqual(all.aliases, ['readme', 'stocks.apple', 'stocks.msft']);
    assert.deepStrictEqual((await db.query("FIND(tag='nasdaq' AND type=ts)")).aliases, ['stocks.apple', 'stocks.msft']);
    assert.deepStrictEqual((await db.query("find(NOT tag='nasdaq' AND type=tag)")).aliases, ['nasdaq']);
    assert.deepStrictEqual((await db.query("find(type=ts AND type=blob)")).aliases, []);
  });

  it('shows a table: its columns, then its tags', async () => {
    const result = await db.query('SHOW stocks.apple');
    assert.deepStrictEqual(result.tables[0].columns.map((c) => c.values), [
      ['$timestamp', 'open', 'close', 'volume', 'sym', 'note', 'raw', '$tags'],
      ['TIMESTAMP', 'DOUBLE', 'DOUBLE', 'INT64', 'SYMBOL', 'STRING', 'BLOB', 'nasdaq'],
    ]);
  });

  it('creates, fills, reads and drops a table through queries', async () => {
    const ok = await db.query('CREATE TABLE IF NOT EXISTS t2 ($timestamp TIMESTAMP, n INT64, s SYMBOL(any), b BLOB, at TIMESTAMP) SHARD_SIZE = 1h');
    assert.equal(ok.kind, 'ok');
    await db.query('CREATE TABLE IF NOT EXISTS t2 (x DOUBLE)');
    await db.query("INSERT INTO t2 ($timestamp, n, s, b, at) VALUES (now, 1, 'a', 'bytes', 2017-01-01), (2017-01-01T00:00:00.5, -2, NULL, NULL, now)", { now: T7 });
    await db.query('INSERT INTO t2 (n) VALUES (3)', { now: T7 + S });
    const rows = tablesOf(await db.query('SELECT n, s, b, at FROM t2'))['t2'];
    assert.deepStrictEqual(rows, [
      [T1 + S / 2n, -2n, null, null, T7],
      [T7, 1n, 'a', enc('bytes'), T1],
      [T7 + S, 3n, null, null, null],
    ]);
    assert.equal((await db.query('DROP TABLE t2')).kind, 'ok');
    assert.equal((await db.query('DROP TABLE IF EXISTS t2')).kind, 'ok');
    assert.deepEqual(db.listAliases('t2').aliases, []);
  });

  it('gives the same answers on batches loaded from a checkpoint', async () => {
    const queries = CASES.filter((c) => c.now === undefined).map((c) => c.query);
    const before = await Promise.all(queries.map((q) => db.query(q, { now: T1 })));
    db = await reopen();
    for (let i = 0; i < queries.length; i++) {
      const after = await db.query(queries[i], { now: T1 });
      assert.deepStrictEqual(tablesOf(after), tablesOf(before[i]), queries[i]);
      assert.equal(after.scannedRowsCount, before[i].scannedRowsCount, queries[i]);
    }
  });
});
