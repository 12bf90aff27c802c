// Table-driven tests of the clauses beyond the core (SPEC §6): calendar filters, FILL and ASOF
// JOIN, against the example database: query text → rows (time first), scanned count where it
// says something. The differential tests in duckdb/ cover random data.
import { describeExampleQueries, S, T1, T3, T4, T6, T7 } from './db-fixture.js';
import type { ExampleQuery } from './db-fixture.js';

const A = 'stocks.apple';
const H = 3_600n * S;
const D = 24n * H;
const Y2018 = 1_514_764_800n * S;

const CASES: ExampleQuery[] = [
  // --- WITH MONTHS / DAYS / TIME IN: UTC, start-inclusive, end-exclusive
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH TIME IN (11:00, 13:00)', tables: { [A]: [[T3, 10]] } },
  // 2017-01-02 and 2017-01-09 are Mondays (ISO weekday 1).
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH DAYS IN (1, 2)', tables: { [A]: [[T4, 13], [T4, 14], [T6, 9]] } },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2016, 2018) WITH MONTHS IN (2, 12)', tables: { [A]: [[T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2016, 2018) WITH MONTHS IN (12, 2)', tables: { [A]: [[T1 - 500_000_000n, 1.5], [T1, 11], [T1 + 3_600_000_000_000n, 12], [T3, 10], [T4, 13], [T4, 14], [T6, 9]] } },
  // A reversed pair wraps around midnight: 12:00 to 01:00 keeps noon to midnight and the first hour.
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH TIME IN (12:00, 01:00)', tables: { [A]: [[T1, 11], [T3, 10], [T4, 13], [T4, 14], [T7, 21]] } },
  { query: 'SELECT close FROM stocks.apple IN RANGE(2017, 2018) WITH MONTHS IN (1, 2) WITH DAYS IN (1, 6) WITH TIME IN (00:00, 11:00)', tables: { [A]: [[T4, 13], [T4, 14], [T6, 9]] } },
  // The pieces are the range: the scanned count is theirs (three rows of one column).
  { query: 'SELECT count(close) FROM stocks.apple IN RANGE(2017, 2018) WITH DAYS IN (1, 2)', scanned: 3, tables: { [A]: [[T1, 3n]] } },
  { query: 'SELECT count(close) FROM stocks.apple IN [RANGE(2017, +1d), RANGE(2017-01-09, 2018)] WITH TIME IN (00:00, 01:00)', tables: { [A]: [[T1, 1n], [T6 - 10n * 3_600_000_000_000n, 1n]] } },
  // --- FILL: every bucket of the range, filled
  { query: 'SELECT count(close), max(close) FROM stocks.apple IN RANGE(2017, +13h) GROUP BY 3h FILL(LINEAR)',
    tables: { [A]: [[T1, 2n, 12], [T1 + 3n * H, 2n, 11.5], [T1 + 6n * H, 2n, 11], [T1 + 9n * H, 2n, 10.5], [T3, 1n, 10]] } },
  { query: 'SELECT count(close), max(close) FROM stocks.apple IN RANGE(2017, +13h) GROUP BY 3h FILL(PREV)',
    tables: { [A]: [[T1, 2n, 12], [T1 + 3n * H, 2n, 12], [T1 + 6n * H, 2n, 12], [T1 + 9n * H, 2n, 12], [T3, 1n, 10]] } },
  { query: 'SELECT $timestamp, count(close), max(close) FROM stocks.apple IN RANGE(2017, +13h) GROUP BY 3h FILL(-1)',
    tables: { [A]: [[T1, T1, 2n, 12], [T1 + 3n * H, T1 + 3n * H, -1n, -1], [T1 + 6n * H, T1 + 6n * H, -1n, -1], [T1 + 9n * H, T1 + 9n * H, -1n, -1], [T3, T3, 1n, 10]] } },
  { query: 'SELECT count(close), max(close) FROM stocks.apple IN RANGE(2017, +7h) GROUP BY 3h FILL(NULL)',
    tables: { [A]: [[T1, 2n, 12], [T1 + 3n * H, null, null], [T1 + 6n * H, null, null]] } },
  // Each key series gets every bucket; the key columns come from the series.
  { query: 'SELECT sym, max(close) FROM stocks.apple IN RANGE(2017-01-02, +1d) GROUP BY 12h, sym FILL(PREV)',
    tables: { [A]: [[T4, 'aapl', 13], [T4, null, 14], [T4 + 12n * H, 'aapl', 13], [T4 + 12n * H, null, 14]] } },
  // Without a range: from the first to the last bucket of the data (weeks start on Monday).
  { query: 'SELECT count(close) FROM stocks.apple GROUP BY 1w FILL(0)',
    tables: { [A]: [[T4 - 7n * D, 4n], [T4, 2n], [T4 + 7n * D, 1n], [T4 + 14n * D, 0n], [T4 + 21n * D, 0n], [T4 + 28n * D, 1n]] } },
  // A range without rows is still every bucket of it; ORDER BY and LIMIT apply to the filled rows.
  { query: 'SELECT count(close) FROM stocks.apple IN RANGE(2018, +3d) GROUP BY day FILL(0) ORDER BY $timestamp DESC LIMIT 2',
    tables: { [A]: [[Y2018 + 2n * D, 0n], [Y2018 + D, 0n]] } },
  // Sequence functions run over the real buckets; FILL fills their outputs too.
  { query: 'SELECT max(close), delta(max(close)) FROM stocks.apple IN RANGE(2017, +13h) GROUP BY 3h FILL(PREV)',
    tables: { [A]: [[T1, 12, null], [T1 + 3n * H, 12, null], [T1 + 6n * H, 12, null], [T1 + 9n * H, 12, null], [T3, 10, -2]] } },
  // --- ASOF JOIN: each row of the FROM table with the joined table's last row at or before its time
  { query: 'SELECT stocks.apple.close, stocks.msft.close FROM stocks.apple LEFT ASOF JOIN stocks.msft IN RANGE(2016, 2018) WHERE stocks.apple.close > 10',
    tables: { [A]: [[T1, 11, 60], [T1 + H, 12, 60], [T4, 13, 60], [T4, 14, 60], [T7, 21, 62]] } },
  // Without LEFT, a row with nothing before it in the joined table is dropped (the 2016 row).
  { query: 'SELECT stocks.apple.close / stocks.msft.close, stocks.msft.$timestamp FROM stocks.apple ASOF JOIN stocks.msft IN RANGE(2016, 2017-01-02)',
    tables: { [A]: [[T1, 11 / 60, T1], [T1 + H, 12 / 60, T1], [T3, 10 / 60, T1]] } },
  { query: 'SELECT open, stocks.msft.close FROM stocks.apple LEFT ASOF JOIN stocks.msft IN RANGE(2016, 2017)', tables: { [A]: [[T1 - 500_000_000n, 1, null]] } },
  // RIGHT: the joined table's rows drive; FULL: both tables' rows, those at a time the FROM table has dropped.
  { query: 'SELECT stocks.apple.close, stocks.msft.close FROM stocks.apple RIGHT ASOF JOIN stocks.msft', tables: { [A]: [[T1, 11, 60], [T7, 21, 62]] } },
  { query: 'SELECT count(*) FROM stocks.apple FULL ASOF JOIN big IN RANGE(2017, 2017-01-02T12:00)',
    tables: { [A]: [[T1, 4n, 5n, 4n, 4n, 3n, 3n, 5n]] } },
  { query: 'SELECT max(volume), sum(v) FROM stocks.apple ASOF JOIN big GROUP BY day',
    tables: { [A]: [[T1, 2000n, 2n ** 62n - 1n], [T4, 500n, 2n * (2n ** 53n + 1n)], [T1 + 8n * D, 10n, 2n ** 53n + 1n], [T7, 4000n, 2n ** 53n + 1n]] } },
  // A FIND on either side: each table it finds is joined on its own, each its own result table.
  { query: "SELECT close FROM find(tag='nasdaq') ASOF JOIN big IN RANGE(2017, +1d)",
    tables: { [A]: [[T1, 11], [T1 + H, 12], [T3, 10]], 'stocks.msft': [[T1, 60]] } },
  { query: "SELECT stocks.msft.close, big.v FROM big ASOF JOIN find(tag='nasdaq' AND type=ts) IN RANGE(2017, +1d)",
    tables: { big: [[T1, 60, 2n ** 62n], [T1 + H, 60, 2n ** 62n - 1n], [T3, 60, -(2n ** 62n)]] } },
  { query: 'SELECT * FROM stocks.apple ASOF JOIN stocks.msft IN RANGE(2017-02-01, +1d)',
    columns: ['stocks.apple.open', 'stocks.apple.close', 'stocks.apple.volume', 'stocks.apple.sym', 'stocks.apple.note', 'stocks.apple.raw', 'stocks.msft.close'],
    tables: { [A]: [[T7, T7, 20, 21, 4000n, 'aapl', 'feb', new TextEncoder().encode('f'), 62]] } },
];

describeExampleQueries('calendar filters, FILL and ASOF JOIN on the example data', CASES);
