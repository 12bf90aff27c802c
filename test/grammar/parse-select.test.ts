// SELECT statements: every construct of SPEC §6 parses, exactly once, to the expected AST.
import { describe, it } from 'node:test';
import { assertMatches, DAY, HOUR, ns, parseOne, SECOND } from './helpers.js';

const col = (name: string) => ({ kind: 'Column', name });
const int = (value: bigint) => ({ kind: 'Number', isInteger: true, value });
const str = (value: string) => ({ kind: 'String', value });
const at = (iso: string, extra = 0n) => ({ kind: 'TimePoint', base: 'absolute', ns: ns(iso, extra) });
const item = (text: string, alias: string | null = null) => ({ kind: 'SelectColumn', text, alias, name: alias ?? text });

const CASES: { name: string; query: string; expected: unknown }[] = [
  {
    name: 'star',
    query: 'SELECT * FROM stocks',
    expected: { kind: 'Select', offset: 0, columns: [{ kind: 'Star', offset: 7 }], sources: [{ kind: 'TableRef', name: 'stocks', offset: 14 }], ranges: [], where: null, groupBy: [], having: null, orderBy: [], limit: null, rowOffset: null },
  },
  {
    name: 'aggregate over a range (seed 000)',
    query: 'select sum(close) from stocks in range(2017, +10d)',
    expected: {
      columns: [{ ...item('sum(close)'), expr: { kind: 'Call', name: 'sum', args: [col('close')] } }],
      ranges: [{ kind: 'Range', offset: 33, start: at('2017-01-01T00:00:00Z'), end: { kind: 'Duration', offset: 45, months: 0, nanos: 10n * DAY, calendarUnit: 'd' } }],
    },
  },
  {
    name: 'normalized output names and AS',
    query: 'SELECT (sum(x)/count(x)), sum( x ) / count(x) AS mean, SUM(Close) FROM t',
    expected: { columns: [item('(sum(x)/count(x))'), item('(sum(x)/count(x))', 'mean'), item('sum(Close)')] },
  },
  {
    name: 'count(*) keeps a star argument',
    query: 'SELECT count(*) FROM t',
    expected: { columns: [{ ...item('count(*)'), expr: { kind: 'Call', name: 'count', args: [{ kind: 'Star', offset: 13 }] } }] },
  },
  {
    name: 'negative range offset',
    query: 'SELECT avg(close) FROM stocks IN RANGE(2017, -1s)',
    expected: { ranges: [{ start: at('2017-01-01T00:00:00Z'), end: { kind: 'Duration', nanos: -SECOND, months: 0, offset: 45 } }] },
  },
  {
    name: 'list of ranges',
    query: 'SELECT first(open), last(close) FROM stocks IN [RANGE(2017, 2018), RANGE(2019-01-01, +1mon)]',
    expected: {
      columns: [item('first(open)'), item('last(close)')],
      ranges: [
        { start: at('2017-01-01T00:00:00Z'), end: at('2018-01-01T00:00:00Z') },
        { start: at('2019-01-01T00:00:00Z'), end: { kind: 'Duration', months: 1, nanos: 0n, calendarUnit: 'mon' } },
      ],
    },
  },
  {
    name: 'relative and named time points',
    query: 'SELECT v FROM t IN [RANGE(yesterday, today), RANGE(epoch, end_of_time), RANGE(tomorrow(), +1w), RANGE(now(), -1 day)]',
    expected: {
      ranges: [
        { start: { kind: 'TimePoint', base: 'yesterday' }, end: { kind: 'TimePoint', base: 'today' } },
        { start: { kind: 'TimePoint', base: 'absolute', ns: 0n }, end: { kind: 'TimePoint', base: 'absolute', ns: 9223372036854775807n } },
        { start: { kind: 'TimePoint', base: 'tomorrow' }, end: { kind: 'Duration', nanos: 7n * DAY, calendarUnit: 'w' } },
        { start: { kind: 'TimePoint', base: 'now' }, end: { kind: 'Duration', nanos: -DAY } },
      ],
    },
  },
  {
    name: 'every time literal form',
    query: 'SELECT v FROM t IN [RANGE(2017, 2017-01-01), RANGE(2017-01-01T10:00, 2017-01-01T10:00:35), RANGE(2017-01-01T10:00:35.123456789, 2017-01-01T10:00:35.5Z)]',
    expected: {
      ranges: [
        { start: at('2017-01-01T00:00:00Z'), end: at('2017-01-01T00:00:00Z') },
        { start: at('2017-01-01T10:00:00Z'), end: at('2017-01-01T10:00:35Z') },
        { start: at('2017-01-01T10:00:35Z', 123456789n), end: at('2017-01-01T10:00:35.500Z') },
      ],
    },
  },
  {
    name: 'bare units as range offsets',
    query: 'SELECT v FROM t IN RANGE(today, -day)',
    expected: { ranges: [{ end: { kind: 'Duration', nanos: -DAY, calendarUnit: 'd' } }] },
  },
  {
    name: 'GROUP BY $table over two dotted tables',
    query: 'SELECT max(high) FROM stocks.apple, stocks.google GROUP BY $table',
    expected: { sources: [{ kind: 'TableRef', name: 'stocks.apple' }, { kind: 'TableRef', name: 'stocks.google' }], groupBy: [col('$table')] },
  },
  {
    name: 'GROUP BY a bare unit, a composite duration, a column and a quoted unit word',
    query: 'SELECT min(low) FROM stocks GROUP BY day, 1h30min, region, "week"',
    expected: {
      groupBy: [
        { kind: 'Duration', months: 0, nanos: DAY, calendarUnit: 'd', offset: 37 },
        { kind: 'Duration', months: 0, nanos: 90n * 60n * SECOND, calendarUnit: null },
        col('region'),
        col('week'),
      ],
    },
  },
  {
    name: 'calendar durations',
    query: 'SELECT sum(v) FROM t GROUP BY 1y 2mon, month, 2 weeks',
    expected: { groupBy: [{ months: 14, nanos: 0n, calendarUnit: 'y' }, { months: 1, calendarUnit: 'mon' }, { nanos: 14n * DAY, calendarUnit: 'w' }] },
  },
  {
    name: 'FIND as a source',
    query: "SELECT * FROM find(tag='stocks' AND type=ts), other",
    expected: {
      sources: [
        { kind: 'Find', offset: 14, conditions: [{ kind: 'FindTag', tag: 'stocks', isNegated: false }, { kind: 'FindType', type: 'ts' }] },
        { kind: 'TableRef', name: 'other' },
      ],
    },
  },
  {
    name: 'operator precedence: OR < AND < NOT < comparison < + < * < unary',
    query: "SELECT a FROM t WHERE a + 1 * -2 > 3 AND NOT b ~ '^x' OR c !~* 'Y'",
    expected: {
      where: {
        kind: 'Logical', op: 'OR', offset: 22,
        operands: [{
          kind: 'Logical', op: 'AND',
          operands: [
            { kind: 'Binary', op: '>', left: { op: '+', left: col('a'), right: { op: '*', left: int(1n), right: int(-2n) } }, right: int(3n) },
            { kind: 'Unary', op: 'NOT', offset: 41, operand: { kind: 'Binary', op: '~', left: col('b'), right: str('^x') } },
          ],
        },
        { kind: 'Binary', op: '!~*', left: col('c'), right: str('Y') }],
      },
    },
  },
  {
    name: 'all comparison and regex operators',
    query: "SELECT a FROM t WHERE a = 1 OR a != 1 OR a < 1 OR a <= 1 OR a > 1 OR a >= 1 OR s ~ 'x' OR s !~ 'x' OR s ~* 'x' OR s !~* 'x'",
    expected: { columns: [item('a')] },
  },
  {
    name: 'AND/OR chains are one node each; a parenthesized chain on the left joins its chain',
    query: 'SELECT a FROM t WHERE a = 1 OR a = 2 OR (a = 3 OR a = 4) OR b AND c AND (d AND e)',
    expected: {
      where: {
        kind: 'Logical', op: 'OR',
        operands: [
          { op: '=', right: int(1n) }, { op: '=', right: int(2n) },
          { kind: 'Logical', op: 'OR', operands: [{ op: '=', right: int(3n) }, { op: '=', right: int(4n) }] },
          { kind: 'Logical', op: 'AND', operands: [col('b'), col('c'), { kind: 'Logical', op: 'AND', operands: [col('d'), col('e')] }] },
        ],
      },
    },
  },
  {
    name: '(a OR b) OR c is the chain a, b, c',
    query: 'SELECT a FROM t WHERE (a OR b) OR c',
    expected: { where: { kind: 'Logical', op: 'OR', operands: [col('a'), col('b'), col('c')] } },
  },
  {
    name: 'IN and NOT IN lists, with any expressions as values',
    query: "SELECT x IN (1, 2.5, -3), s NOT IN ('a', NULL, now - 1h) FROM t WHERE v + 1 IN (2) AND NOT w IN (3)",
    expected: {
      columns: [item('(x IN (1,2.5,-3))'), item("(s NOT IN ('a',NULL,(now-1h)))")],
      where: {
        kind: 'Logical', op: 'AND',
        operands: [
          { kind: 'InList', offset: 70, isNegated: false, operand: { kind: 'Binary', op: '+' }, values: [int(2n)] },
          { kind: 'Unary', op: 'NOT', operand: { kind: 'InList', operand: col('w'), values: [int(3n)], isNegated: false } },
        ],
      },
    },
  },
  {
    name: 'left associativity and parentheses',
    query: 'SELECT a - b - c, a / b * c, (a + b) * c, a - (b - c) FROM t',
    expected: { columns: [item('((a-b)-c)'), item('((a/b)*c)'), item('((a+b)*c)'), item('(a-(b-c))')] },
  },
  {
    name: 'HAVING, ORDER BY, LIMIT, OFFSET',
    query: 'SELECT count(v) AS n FROM t GROUP BY 1min HAVING count(v) >= 10 ORDER BY n DESC, $timestamp ASC, v LIMIT 100 OFFSET 20',
    expected: {
      groupBy: [{ kind: 'Duration', nanos: 60n * SECOND }],
      having: { kind: 'Binary', op: '>=', left: { kind: 'Call', name: 'count' }, right: int(10n) },
      orderBy: [
        { kind: 'OrderItem', expr: col('n'), isDescending: true },
        { kind: 'OrderItem', expr: col('$timestamp'), isDescending: false },
        { kind: 'OrderItem', expr: col('v'), isDescending: false },
      ],
      limit: 100,
      rowOffset: 20,
    },
  },
  {
    name: 'time points and durations in expressions',
    query: 'SELECT v FROM t WHERE $timestamp >= 2017-01-01T10:00:35.123456789Z AND $timestamp < now() - 1h',
    expected: {
      where: {
        op: 'AND',
        operands: [
          { op: '>=', left: col('$timestamp'), right: at('2017-01-01T10:00:35Z', 123456789n) },
          { op: '<', right: { op: '-', left: { kind: 'TimePoint', base: 'now' }, right: { kind: 'Duration', nanos: HOUR } } },
        ],
      },
    },
  },
  {
    name: 'quoted identifiers',
    query: 'SELECT "select", "a ""b""" AS "the ""b""" FROM "my table"',
    expected: { columns: [{ expr: col('select'), name: 'select' }, { expr: col('a "b"'), alias: 'the "b"' }], sources: [{ name: 'my table' }] },
  },
  {
    name: 'literals: numbers keep int vs double, minus folds into literals',
    query: "SELECT 42, 2.5, 1e3, -5, - 2.5, -x, 'it''s', NULL FROM t",
    expected: {
      columns: [
        { expr: { kind: 'Number', isInteger: true, value: 42n, text: '42' } },
        { expr: { kind: 'Number', isInteger: false, value: 2.5 } },
        { expr: { kind: 'Number', isInteger: false, value: 1000 } },
        { expr: { kind: 'Number', isInteger: true, value: -5n, text: '-5', offset: 21 } },
        { expr: { kind: 'Number', isInteger: false, value: -2.5, text: '-2.5' } },
        { expr: { kind: 'Unary', op: '-', operand: col('x') }, text: '-x' },
        { expr: str("it's"), text: "'it''s'" },
        { expr: { kind: 'Null' }, text: 'NULL' },
      ],
    },
  },
  {
    name: 'pseudo-columns',
    query: 'SELECT $timestamp, $table, v FROM a, b',
    expected: { columns: [{ expr: col('$timestamp') }, { expr: col('$table') }, { expr: col('v') }] },
  },
  {
    name: 'keywords in any case, comments, trailing semicolon',
    query: 'sElEcT a -- the column\nFrOm t -- the table\n WhErE a = 1 gRoUp By DaY oRdEr By a DeSc LiMiT 1;',
    expected: { columns: [item('a')], where: { op: '=' }, groupBy: [{ calendarUnit: 'd' }], orderBy: [{ isDescending: true }], limit: 1 },
  },
  {
    name: 'mixed star and expressions',
    query: 'SELECT *, $table FROM a',
    expected: { columns: [{ kind: 'Star' }, { expr: col('$table') }] },
  },
];

describe('SELECT', () => {
  for (const c of CASES) {
    it(c.name, () => assertMatches(parseOne(c.query), c.expected));
  }
});
