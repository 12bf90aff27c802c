// Table-driven error tests: query text → error code and the offset of the offending token.
// `at` names the token (its first occurrence, or the n-th with `nth`), so offsets stay readable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogOf } from '../../engine/database.js';
import type { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import type { ErrorCode } from '../../engine/errors.js';
import { executeQuery, MAX_QUERY_BYTES } from '../../engine/query/index.js';
import { openExampleDb } from './db-fixture.js';

interface Case {
  readonly query: string;
  readonly code: ErrorCode;
  /** The offending token; the expected offset is where it occurs in the query. */
  readonly at: string;
  readonly nth?: number;
  readonly message?: RegExp;
}

const Q = 'QuerySemantic';
const CASES: Case[] = [
  { query: 'SELECT FROM stocks.apple', code: 'QuerySyntax', at: 'FROM' },
  { query: 'SELECT close FROM nope', code: Q, at: 'nope', message: /no table named 'nope'/ },
  { query: 'SELECT close FROM stocks.apple, nope', code: Q, at: 'nope' },
  { query: 'SELECT nope FROM stocks.apple', code: Q, at: 'nope', message: /has no column 'nope'/ },
  { query: 'SELECT close FROM stocks.apple WHERE nope > 1', code: Q, at: 'nope' },
  { query: 'SELECT close FROM stocks.apple, stocks.msft WHERE open > 1', code: Q, at: 'open', message: /stocks\.msft/ },
  { query: "SELECT close + 'a' FROM stocks.apple", code: Q, at: 'close', message: /cannot combine double and string/ },
  { query: "SELECT close FROM stocks.apple WHERE close = 'a'", code: Q, at: 'close', nth: 2, message: /cannot compare double with string/ },
  { query: 'SELECT close FROM stocks.apple WHERE note > 1', code: Q, at: 'note' },
  { query: 'SELECT close, count(close) FROM stocks.apple', code: Q, at: 'close', message: /must appear in GROUP BY or inside an aggregate/ },
  { query: 'SELECT open, max(close) FROM stocks.apple GROUP BY sym', code: Q, at: 'open' },
  { query: 'SELECT $timestamp, count(close) FROM stocks.apple', code: Q, at: '$timestamp' },
  { query: 'SELECT * FROM stocks.apple GROUP BY 1h', code: Q, at: '*' },
  { query: "SELECT close FROM stocks.apple WHERE note ~ '('", code: Q, at: "'('", message: /invalid regular expression/ },
  { query: "SELECT close FROM stocks.apple WHERE close ~ 'a'", code: Q, at: 'close', nth: 2, message: /needs a string, symbol or blob/ },
  { query: 'SELECT close FROM stocks.apple WHERE note ~ note', code: Q, at: 'note', nth: 2, message: /string literal/ },
  { query: 'SELECT close FROM stocks.apple WHERE sum(close) > 1', code: Q, at: 'sum', message: /not allowed here/ },
  { query: 'SELECT sum(max(close)) FROM stocks.apple', code: Q, at: 'max', message: /nested/ },
  { query: 'SELECT median(close) FROM stocks.apple', code: Q, at: 'median', message: /unknown function/ },
  { query: 'SELECT sum(note) FROM stocks.apple', code: Q, at: 'note', message: /sum\(\) does not accept a string/ },
  { query: 'SELECT avg(*) FROM stocks.apple', code: Q, at: '*' },
  { query: 'SELECT sum(close, open) FROM stocks.apple', code: Q, at: 'sum' },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1h, 1d', code: Q, at: '1d' },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1mon1d', code: Q, at: '1mon1d' },
  { query: 'SELECT close FROM stocks.apple ORDER BY 2', code: Q, at: '2' },
  { query: 'SELECT close FROM stocks.apple WHERE close', code: Q, at: 'close', nth: 2, message: /WHERE needs a condition/ },
  { query: 'SELECT count(close) FROM stocks.apple HAVING count(close)', code: Q, at: 'count', nth: 2 },
  { query: 'SELECT close > 1 FROM stocks.apple', code: Q, at: 'close', message: /condition cannot be selected/ },
  { query: 'SELECT close FROM stocks.apple WHERE volume > 9223372036854775808', code: Q, at: '9223372036854775808' },
  { query: 'SELECT 1h FROM stocks.apple', code: Q, at: '1h', message: /duration/ },
  { query: 'SELECT close * 1d FROM stocks.apple', code: Q, at: '1d' },
  { query: 'SELECT close + 1d FROM stocks.apple', code: Q, at: 'close', message: /added to or subtracted from a time/ },
  { query: 'SELECT -note FROM stocks.apple', code: Q, at: '-' },
  { query: 'SELECT NOT close FROM stocks.apple', code: Q, at: 'NOT' },
  { query: 'SELECT close FROM stocks.apple WHERE close > 1 AND 2', code: Q, at: '2' },
  { query: "SELECT close FROM stocks.apple WHERE close IN (1, 'a')", code: Q, at: "'a'", message: /cannot compare double with string/ },
  { query: 'SELECT close FROM stocks.apple WHERE close IN (close > 1)', code: Q, at: 'close', nth: 3, message: /IN cannot compare conditions/ },
  { query: 'SELECT close FROM stocks.apple WHERE close IN ()', code: 'QuerySyntax', at: ')' },
  { query: 'SELECT close FROM stocks.apple IN RANGE(1500, +1d)', code: 'QuerySyntax', at: '1500', message: /outside the representable range: years 1678 to 2261/ },
  { query: 'SELECT close FROM stocks.apple WHERE $timestamp > 2300-01-01', code: 'QuerySyntax', at: '2300-01-01', message: /outside the representable range: years 1678 to 2261/ },
  { query: 'SELECT close FROM stocks.apple WHERE $timestamp > 2017-02-30', code: 'QuerySyntax', at: '2017-02-30', message: /a valid UTC date/ },
  // --- scalar functions
  { query: 'SELECT abs(note) FROM stocks.apple', code: Q, at: 'note', message: /abs\(\) needs a number, not string/ },
  { query: 'SELECT round(close, 1.5) FROM stocks.apple', code: Q, at: '1.5', message: /digits of round\(\) must be a whole number/ },
  { query: 'SELECT round(close, open) FROM stocks.apple', code: Q, at: 'open' },
  { query: 'SELECT pow(close) FROM stocks.apple', code: Q, at: 'pow', message: /takes exactly 2 arguments, not 1/ },
  { query: 'SELECT coalesce(close, note) FROM stocks.apple', code: Q, at: 'note', message: /cannot mix double and string/ },
  { query: 'SELECT sqrt(*) FROM stocks.apple', code: Q, at: '*' },
  // --- row-sequence functions
  { query: 'SELECT cumsum(note) FROM stocks.apple', code: Q, at: 'note', message: /cumsum\(\) does not accept a string/ },
  { query: 'SELECT ma(close) FROM stocks.apple', code: Q, at: 'ma', message: /takes exactly 2 arguments/ },
  { query: 'SELECT ma(close, 0) FROM stocks.apple', code: Q, at: '0', message: /whole number from 1 to 65536/ },
  { query: 'SELECT lag(close, -1) FROM stocks.apple', code: Q, at: '-1' },
  { query: 'SELECT derivative(close, 1mon) FROM stocks.apple', code: Q, at: '1mon', message: /positive duration without months/ },
  { query: 'SELECT derivative(close, 5) FROM stocks.apple', code: Q, at: '5' },
  { query: 'SELECT close FROM stocks.apple WHERE delta(close) > 0', code: Q, at: 'delta', message: /only allowed in the select list and ORDER BY/ },
  { query: 'SELECT sum(cumsum(close)) FROM stocks.apple', code: Q, at: 'cumsum' },
  { query: 'SELECT cumsum(count(close)) FROM stocks.apple', code: Q, at: 'cumsum', message: /needs GROUP BY duration/ },
  { query: 'SELECT cumsum(sum(close)) FROM stocks.apple GROUP BY sym', code: Q, at: 'cumsum', message: /needs GROUP BY duration/ },
  { query: 'SELECT cumsum(close) FROM stocks.apple GROUP BY 1h', code: Q, at: 'close', message: /must appear in GROUP BY or inside an aggregate/ },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1h HAVING delta(count(close)) > 0', code: Q, at: 'delta' },
  // --- calendar filters
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH MONTHS IN (3, 3)', code: Q, at: '3', nth: 2, message: /keeps nothing/ },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH MONTHS IN (0, 3)', code: Q, at: '0', nth: 3, message: /a month from 1 to 12/ },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH MONTHS IN (1.5, 3)', code: Q, at: '1.5' },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH DAYS IN (1, 9)', code: Q, at: '9', message: /ISO weekday/ },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH TIME IN (08:00, 24:01)', code: 'QuerySyntax', at: '24:01', message: /invalid time of day/ },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH DAYS IN (1, 2) WITH MONTHS IN (1, 2)', code: 'QuerySyntax', at: 'MONTHS' },
  { query: 'SELECT close FROM stocks.apple WITH DAYS IN (1, 2)', code: 'QuerySyntax', at: 'WITH' },
  // --- FILL
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY sym FILL(0)', code: Q, at: 'FILL', message: /FILL needs GROUP BY duration/ },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1h FILL(0) HAVING count(close) > 1', code: Q, at: 'FILL', message: /HAVING/ },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1h FILL(1.5)', code: Q, at: '1.5', message: /whole-number column count\(close\)/ },
  { query: 'SELECT count(close) FROM stocks.apple IN RANGE(2017, 2018) GROUP BY 1s FILL(0)', code: 'QueryLimit', at: '', message: /FILL makes too many groups/ },
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1h FILL(next)', code: 'QuerySyntax', at: 'next' },
  // --- ASOF JOIN
  { query: 'SELECT close FROM stocks.apple ASOF JOIN stocks.msft', code: Q, at: 'close', message: /ambiguous: it may be stocks\.apple\.close or stocks\.msft\.close/ },
  { query: 'SELECT stocks.msft.open FROM stocks.apple ASOF JOIN stocks.msft', code: Q, at: 'stocks.msft.open', message: /no joined table/ },
  { query: 'SELECT open FROM stocks.apple ASOF JOIN stocks.apple', code: Q, at: 'ASOF', message: /cannot be joined with itself/ },
  // A FIND among the joined tables that finds the FROM table itself.
  { query: "SELECT open FROM stocks.apple ASOF JOIN find(tag='nasdaq')", code: Q, at: 'ASOF', message: /'stocks.apple' cannot be joined with itself/ },
  { query: 'SELECT open FROM stocks.apple RIGHT ASOF JOIN stocks.msft, big', code: Q, at: 'RIGHT', message: /exactly one table/ },
  { query: 'SELECT open FROM stocks.apple LEFT ASOF JOIN nope', code: Q, at: 'nope', message: /no table named 'nope'/ },
  { query: 'SELECT open FROM stocks.apple ASOF stocks.msft', code: 'QuerySyntax', at: 'stocks.msft', message: /JOIN/ },
  { query: 'INSERT INTO nope ($timestamp, v) VALUES (now, 1)', code: Q, at: 'nope', message: /no table named 'nope'/ },
  { query: 'INSERT INTO stocks.apple ($timestamp, nope) VALUES (now, 1)', code: Q, at: 'nope' },
  { query: "INSERT INTO stocks.apple ($timestamp, close) VALUES (now, 'x')", code: Q, at: "'x'" },
  { query: 'INSERT INTO stocks.apple ($timestamp, volume) VALUES (now, 1.5)', code: Q, at: '1.5' },
  { query: 'INSERT INTO stocks.apple ($timestamp, close) VALUES (now, 1, 2)', code: Q, at: '1' },
  { query: 'INSERT INTO stocks.apple ($timestamp, close) VALUES (NULL, 1)', code: Q, at: 'NULL' },
  { query: 'INSERT INTO stocks.apple ($timestamp, close, close) VALUES (now, 1, 2)', code: Q, at: 'close', nth: 2 },
  { query: 'SHOW nope', code: Q, at: 'nope' },
  { query: 'CREATE TABLE t3 (a DOUBLE, a INT64)', code: Q, at: 'a', nth: 2 },
  { query: 'CREATE TABLE t3 ($x DOUBLE)', code: Q, at: '$x' },
  { query: 'CREATE TABLE t3 (a DOUBLE) SHARD_SIZE 1mon', code: Q, at: '1mon' },
  { query: 'CREATE TABLE t3 (a DOUBLE) SHARD_SIZE = 1ns', code: Q, at: '1ns', message: /at least 1s/ },
  { query: 'CREATE TABLE t3 (a DOUBLE) SHARD_SIZE 999ms', code: Q, at: '999ms', message: /at least 1s/ },
  { query: 'CREATE TABLE stocks.apple (a DOUBLE)', code: 'AliasAlreadyExists', at: 'stocks.apple' },
  { query: 'DROP TABLE nope', code: 'TableNotFound', at: 'nope' },
];

function offsetOf(c: Case): number | undefined {
  if (c.at === '') return undefined;
  let at = -1;
  for (let i = 0; i < (c.nth ?? 1); i++) at = c.query.indexOf(c.at, at + 1);
  assert.ok(at >= 0, `test bug: '${c.at}' not in ${c.query}`);
  return at;
}

describe('query errors', () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openExampleDb()));
  after(async () => close());

  for (const c of CASES) {
    it(`${c.code} at '${c.at}': ${c.query}`, async () => {
      try {
        await db.query(c.query);
      } catch (e) {
        assert.ok(e instanceof SvcError, `expected SvcError, got ${String(e)}`);
        assert.equal(e.code, c.code, e.message);
        const offset = offsetOf(c);
        if (offset !== undefined) assert.equal(e.position, offset, e.message);
        if (c.message !== undefined) assert.match(e.message, c.message);
        return;
      }
      assert.fail('the query succeeded');
    });
  }

  it('refuses a query text over 1 MiB', async () => {
    const text = `SELECT close FROM stocks.apple -- ${'x'.repeat(MAX_QUERY_BYTES)}`;
    await assert.rejects(db.query(text), (e: unknown) => e instanceof SvcError && e.code === 'QueryTooLarge');
    // Multi-byte characters count as bytes: 400,000 × 3 bytes is over the limit.
    await assert.rejects(db.query(`SELECT close FROM stocks.apple -- ${'€'.repeat(400_000)}`), (e: unknown) => e instanceof SvcError && e.code === 'QueryTooLarge');
  });

  it('stops a query past its deadline', async () => {
    await assert.rejects(executeQuery(catalogOf(db), 'SELECT count(close) FROM stocks.apple GROUP BY 1ns', { deadlineMs: 0 }),
      (e: unknown) => e instanceof SvcError && e.code === 'QueryTimeout' && /budget/.test(e.message));
  });

  it('rejects non-string query text', async () => {
    await assert.rejects(executeQuery(catalogOf(db), 42 as unknown as string), (e: unknown) => e instanceof SvcError && e.code === 'InvalidArgument');
  });

  it('leaves the table unchanged when an INSERT fails', async () => {
    const before = (await db.query('SELECT count(close) FROM stocks.apple')).tables[0].columns[0].values[0];
    await assert.rejects(db.query("INSERT INTO stocks.apple ($timestamp, close) VALUES (now, 1), (now, 'x')"));
    const after = (await db.query('SELECT count(close) FROM stocks.apple')).tables[0].columns[0].values[0];
    assert.equal(after, before);
  });
});
