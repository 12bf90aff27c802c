// Table-driven tests of the scalar and row-sequence functions (SPEC §6, beyond the core) against
// the example database: query text → rows (time first) and column types. The differential tests
// in duckdb/ cover random data; these pin the documented decisions on data one can read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeExampleQueries, S, T0, T1, T2, T3, T4, T6, T7 } from './db-fixture.js';
import type { ExampleQuery } from './db-fixture.js';
import { FakeCatalog } from './fake-catalog.js';
import { executeQuery } from '../../engine/query/index.js';
import { AGGREGATE_NAMES } from '../../engine/query/plan/aggregate-registry.js';
import { FUNCTION_DOCS, SCALAR_NAMES, SEQUENCE_NAMES } from '../../engine/query/plan/functions.js';

const D = 86_400n * S;
const A = 'stocks.apple';

const CASES: ExampleQuery[] = [
  // --- row-sequence functions over rows in time order (ties in insertion order)
  { query: 'SELECT close, cumsum(close), delta(close), lag(close, 2) FROM stocks.apple IN RANGE(2017, 2018)',
    types: ['double', 'double', 'double', 'double'],
    tables: { [A]: [[T1, 11, 11, null, null], [T2, 12, 23, 1, null], [T3, 10, 33, -2, 11], [T4, 13, 46, 3, 12], [T4, 14, 60, 1, 10], [T6, 9, 69, -5, 13], [T7, 21, 90, 12, 14]] } },
  // A null is skipped by the running sum and the average, and is the previous row of delta.
  { query: 'SELECT volume, cumulative_sum(volume), moving_average(volume, 2), delta(volume) FROM stocks.apple',
    types: ['int64', 'int64', 'double', 'int64'],
    tables: { [A]: [[T0, 100n, 100n, 100, null], [T1, 1000n, 1100n, 550, 900n], [T2, 2000n, 3100n, 1500, 1000n], [T3, 1500n, 4600n, 1750, -500n],
      [T4, null, 4600n, 1500, null], [T4, 500n, 5100n, 500, null], [T6, 10n, 5110n, 255, -490n], [T7, 4000n, 9110n, 2005, 3990n]] } },
  { query: 'SELECT derivative(close, 1h), non_negative_derivative(close, 1h) FROM stocks.apple IN RANGE(2017-01-01, 2017-01-02)',
    tables: { [A]: [[T1, null, null], [T2, 1, 1], [T3, -2 / 11, null]] } },
  // Two rows at one time: no time passed, so the derivative is NaN (double ÷ 0).
  { query: 'SELECT derivative(close) FROM stocks.apple IN RANGE(2017-01-02, +1d)', tables: { [A]: [[T4, null], [T4, NaN]] } },
  { query: 'SELECT note, lag(note), lag(sym, 0) FROM stocks.apple IN RANGE(2017, +2d)', types: ['string', 'string', 'symbol'],
    tables: { [A]: [[T1, 'first', null, 'aapl'], [T2, null, 'first', 'aapl'], [T3, 'noon', null, 'x'], [T4, 'next', 'noon', 'aapl'], [T4, null, 'next', null]] } },
  // Each range starts the sequences over.
  { query: 'SELECT cumsum(close) FROM stocks.apple IN [RANGE(2017, +1d), RANGE(2017-01-02, +1d)]',
    tables: { [A]: [[T1, 11], [T2, 23], [T3, 33], [T4, 13], [T4, 27]] } },
  // WHERE runs first; ORDER BY and LIMIT after.
  { query: 'SELECT close, delta(close) AS d FROM stocks.apple WHERE close > 10 ORDER BY d DESC LIMIT 3',
    tables: { [A]: [[T1, 11, null], [T7, 21, 7], [T2, 12, 1]] } },
  // Each source table has its own sequence.
  { query: 'SELECT cumsum(close) FROM stocks.apple, stocks.msft IN RANGE(2017-01-09, 2018)',
    tables: { [A]: [[T6, 9], [T7, 30]], 'stocks.msft': [[T7, 62]] } },
  // --- per GROUP BY column: rows by key (ascending, null last), then time
  { query: 'SELECT sym, close, delta(close) FROM stocks.apple GROUP BY sym',
    tables: { [A]: [[T1, 'aapl', 11, null], [T2, 'aapl', 12, 1], [T4, 'aapl', 13, 1], [T7, 'aapl', 21, 8], [T0, 'x', 1.5, null], [T3, 'x', 10, 8.5], [T6, 'x', 9, -1], [T4, null, 14, null]] } },
  // --- over aggregates under GROUP BY duration: bucket after bucket
  { query: 'SELECT max(close), delta(max(close)), cumsum(count(close)) FROM stocks.apple GROUP BY day',
    types: ['double', 'double', 'int64'],
    tables: { [A]: [[T1 - D, 1.5, null, 1n], [T1, 12, 10.5, 4n], [T4, 14, 2, 6n], [T1 + 8n * D, 9, -5, 7n], [T7, 21, 12, 8n]] } },
  { query: 'SELECT derivative(sum(close), 1d) FROM stocks.apple IN RANGE(2017, +2d) GROUP BY day', tables: { [A]: [[T1, null], [T4, -6]] } },
  // --- scalar functions, on rows and around aggregates
  { query: 'SELECT abs(open - 12), round(close / 3, 2), sign(open - 10), sqrt(volume), coalesce(open, -1) FROM stocks.apple IN RANGE(2017-01-02, +1d)',
    types: ['double', 'double', 'double', 'double', 'double'],
    tables: { [A]: [[T4, 2, 4.33, 0, null, 10], [T4, null, 4.67, null, Math.sqrt(500), -1]] } },
  { query: 'SELECT abs(volume - 1200), round(volume, -3), ceil(volume), floor(-volume), sign(volume - 1500) FROM stocks.apple IN RANGE(2017, +1d)',
    types: ['int64', 'int64', 'int64', 'int64', 'int64'],
    tables: { [A]: [[T1, 200n, 1000n, 1000n, -1000n, -1n], [T2, 800n, 2000n, 2000n, -2000n, 1n], [T3, 300n, 2000n, 1500n, -1500n, 0n]] } },
  { query: 'SELECT round(avg(close), 1), abs(min(volume) - 2000), pow(2, count(close)) FROM stocks.apple IN RANGE(2017, 2018)',
    tables: { [A]: [[T1, 12.9, 1990n, 128]] } },
  { query: 'SELECT round(-2.5), round(2.5), round(1234.5, -2), ln(0), sqrt(-1), exp(0), log10(1000), coalesce(NULL, 2, 3) FROM stocks.msft LIMIT 1',
    tables: { 'stocks.msft': [[T1, -3, 3, 1200, -Infinity, NaN, 1, 3, 2n]] } },
  { query: 'SELECT coalesce(note, sym, \'?\') FROM stocks.apple IN RANGE(2017-01-02, +1d)', types: ['string'], tables: { [A]: [[T4, 'next'], [T4, '?']] } },
  { query: 'SELECT close FROM stocks.apple WHERE abs(close - 12) <= 1 AND round(open) != 12', tables: { [A]: [[T1, 11], [T2, 12], [T4, 13]] } },
];

describe('the function registry', () => {
  it('holds every function the binder knows, and each example runs', async () => {
    const catalog = new FakeCatalog(4);
    await catalog.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }, { name: 'sym', type: 'SYMBOL' }], { ifNotExists: false });
    await catalog.insert('t', { $timestamp: BigInt64Array.from([T1, T2, T3]), v: [1.5, null, 3], n: [1n, 5n, 2n], sym: ['a', 'b', 'a'] });
    const names = FUNCTION_DOCS.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, 'a function listed twice');
    assert.deepEqual([...names].sort(), [...AGGREGATE_NAMES, ...SCALAR_NAMES, ...SEQUENCE_NAMES].sort());
    for (const f of FUNCTION_DOCS) {
      assert.ok(f.example.includes(`${f.name}(`), `${f.name}'s example does not call it`);
      await executeQuery(catalog, f.example, { now: T3 });
    }
    // A name the registry lacks is unknown to the binder.
    await assert.rejects(executeQuery(catalog, 'SELECT median(v) FROM t'), /unknown function 'median'/);
  });
});

describeExampleQueries('scalar and row-sequence functions', CASES);
