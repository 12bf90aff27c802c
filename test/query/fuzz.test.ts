// Fuzz test: random token soups and mutations of valid queries, run against a real Database.
// Whatever the text, a query either succeeds or fails with an SvcError of a query code (or, for
// CREATE/DROP/INSERT, a catalog code) — never a TypeError, RangeError or any other crash.
// Set FUZZ_SEED to replay; the seed and the text are printed on failure.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import type { ErrorCode } from '../../engine/errors.js';
import { openExampleDb, T7 } from './db-fixture.js';
import { pick, rng } from './random-data.js';
import type { Rng } from './random-data.js';

const CASES = Number(process.env.FUZZ_COUNT ?? 4000);
const ALLOWED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'QuerySyntax', 'QuerySemantic', 'QueryTimeout', 'QueryTooLarge',
  // Writes through the catalog may fail like the embedded API does.
  'AliasAlreadyExists', 'TableNotFound', 'IncompatibleType', 'InvalidArgument', 'ColumnNotFound',
]);

const SEEDS = [
  'SELECT * FROM stocks.apple IN RANGE(2017, -1s)',
  'SELECT count(*) FROM stocks.apple GROUP BY 1w',
  "SELECT sym, count(close), sum(volume) FROM stocks.apple WHERE note ~ '^f' GROUP BY sym HAVING count(close) > 1 ORDER BY 2 DESC LIMIT 3 OFFSET 1",
  'SELECT $timestamp, avg(close) AS mean FROM stocks.apple IN [RANGE(2017-01-01, 2017-01-03), RANGE(yesterday, +1d)] GROUP BY day',
  'SELECT close / 0, volume / 0, volume * 2, open + volume, -close FROM stocks.apple WHERE $timestamp > now - 1mon',
  "SELECT $table, kurtosis(close), adjacent_count(sym), abs_max(volume - 3) FROM FIND(tag='nasdaq' AND NOT tag='x') GROUP BY $table, 1h30min",
  "find(tag='nasdaq' AND type=ts)",
  "INSERT INTO stocks.msft ($timestamp, close) VALUES (now, 1.5), (2017-01-01T00:00:00.123456789Z, NULL)",
  'CREATE TABLE IF NOT EXISTS fz ($timestamp TIMESTAMP, a DOUBLE, b SYMBOL(x), c BLOB) SHARD_SIZE = 1h',
  'DROP TABLE IF EXISTS fz',
  'SHOW stocks.apple',
  'SELECT sum(v), spread(v) FROM big WHERE v != 3 AND NOT (v < -1 OR v >= 9223372036854775807)',
];
const TOKENS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'IN', 'RANGE', 'AND', 'OR', 'NOT', 'AS',
  'ASC', 'DESC', 'NULL', 'now', 'today', 'epoch', 'end_of_time', 'FIND', 'INSERT', 'INTO', 'VALUES', 'CREATE', 'TABLE', 'DROP',
  'SHOW', '*', ',', '(', ')', '[', ']', '+', '-', '/', '=', '!=', '<', '<=', '>', '>=', '~', '!~', '~*', '!~*', ';',
  'close', 'open', 'volume', 'sym', 'note', 'raw', '$timestamp', '$table', 'stocks.apple', 'stocks.msft', 'big', 'v', '"close"',
  'count', 'sum', 'avg', 'min', 'max', 'first', 'product', 'skewness', 'distinct_count', '0', '1', '-1', '2.5', '1e308',
  '9223372036854775807', "'a'", "''", "'(('", '2017', '2017-01-01', '2017-01-01T10:00:35.5Z', '1h', '1mon', '1y 2mon', 'day', '0s', '1ns',
];

function mutate(r: Rng, text: string): string {
  const at = Math.floor(r() * (text.length + 1));
  const len = Math.floor(r() * 8);
  switch (Math.floor(r() * 5)) {
    case 0: return text.slice(0, at) + text.slice(at + len);
    case 1: return `${text.slice(0, at)} ${pick(r, TOKENS)} ${text.slice(at)}`;
    case 2: return text.slice(0, at) + text.slice(at, at + len).repeat(2) + text.slice(at + len);
    case 3: return text.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + text.slice(at + 1);
    default: return text.slice(0, at) + text.slice(Math.floor(r() * text.length));
  }
}

function soup(r: Rng): string {
  return Array.from({ length: 1 + Math.floor(r() * 14) }, () => pick(r, TOKENS)).join(' ');
}

let db: Database;
let close: () => Promise<void>;
before(async () => ({ db, close } = await openExampleDb()));
after(async () => close());

it('random and mutated queries only fail with query errors', async () => {
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const r = rng(seed);
  for (let i = 0; i < CASES; i++) {
    let text = r() < 0.3 ? soup(r) : pick(r, SEEDS);
    for (let m = Math.floor(r() * 4); m > 0; m--) text = mutate(r, text);
    try {
      await db.query(text, { now: T7, deadlineMs: 2000 });
    } catch (e) {
      if (e instanceof SvcError && ALLOWED.has(e.code)) continue;
      assert.fail(`seed ${seed} case ${i}: ${JSON.stringify(text)}\n  threw ${(e as Error)?.stack ?? String(e)}`);
    }
  }
});
