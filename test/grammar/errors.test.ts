// Syntax errors: every failure is a QuerySyntaxError at the offending token's offset, saying in
// words what was expected.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '../../grammar/index.js';
import { assertSyntaxError } from './helpers.js';

const CASES: { name: string; query: string; offset: number; expected?: string[]; message?: RegExp }[] = [
  { name: 'misspelt keyword', query: 'SELECT a FORM t', offset: 9, expected: ['FROM', "','", 'AS'], message: /^expected .*FROM.* at offset 9, found 'FORM'$/ },
  { name: 'empty query', query: '', offset: 0, expected: ['SELECT', 'FIND', 'CREATE', 'DROP', 'INSERT', 'SHOW'], message: /^unexpected end of input at offset 0/ },
  { name: 'only whitespace and a comment', query: '  -- nothing\n', offset: 13, message: /unexpected end of input/ },
  { name: 'end after SELECT', query: 'SELECT', offset: 6, message: /unexpected end of input at offset 6/ },
  { name: 'end after FROM', query: 'SELECT a FROM', offset: 13, expected: ['a name', 'FIND'] },
  { name: 'end after WHERE', query: 'SELECT a FROM t WHERE ', offset: 22 },
  { name: 'two statements', query: 'SELECT a FROM t; SELECT b FROM t', offset: 17, expected: ['end of input'] },
  { name: 'chained comparison', query: 'SELECT a < b < c FROM t', offset: 13 },
  { name: 'keyword as a column', query: 'SELECT from FROM t', offset: 7 },
  { name: 'name after an expression', query: 'SELECT a b FROM t', offset: 9 },
  { name: 'm is not a unit', query: 'SELECT 5m FROM t', offset: 8, message: /'m' is not a duration unit/ },
  { name: 'bad unit in a composite duration', query: 'SELECT a FROM t GROUP BY 1h 30m', offset: 30 },
  { name: 'bare m as a range offset', query: 'SELECT a FROM t IN RANGE(2017, m)', offset: 31 },
  { name: 'fractional duration', query: 'SELECT a FROM t GROUP BY 1.5h', offset: 25, message: /invalid number or duration/ },
  { name: 'month 13', query: 'SELECT a FROM t IN RANGE(2017-13-01, 1d)', offset: 25, message: /invalid time/ },
  { name: 'Feb 29 of a common year', query: 'SELECT a FROM t IN RANGE(2017-02-29, 1d)', offset: 25 },
  { name: 'hour 24', query: 'SELECT a FROM t IN RANGE(2017-01-01T24:00, 1d)', offset: 25 },
  { name: 'ten fraction digits', query: 'SELECT a FROM t IN RANGE(2017-01-01T00:00:00.1234567891, 1d)', offset: 25 },
  { name: 'a double is no year', query: 'SELECT a FROM t IN RANGE(2017.5, 1d)', offset: 25, expected: ['a time'] },
  { name: 'a year outside int64 nanoseconds', query: 'SELECT a FROM t IN RANGE(2300, 1d)', offset: 25 },
  { name: 'range without end', query: 'SELECT a FROM t IN RANGE(2017)', offset: 29, expected: ["','"] },
  { name: 'unterminated string', query: "SELECT 'abc FROM t", offset: 7, message: /unterminated string/ },
  { name: 'unterminated quoted name', query: 'SELECT "abc FROM t', offset: 7, message: /unterminated quoted name/ },
  { name: 'empty quoted name', query: 'SELECT "" FROM t', offset: 7 },
  { name: 'unexpected character', query: 'SELECT a # b FROM t', offset: 9, message: /unexpected character '#'/ },
  { name: 'fractional LIMIT', query: 'SELECT a FROM t LIMIT 1.5', offset: 22 },
  { name: 'negative LIMIT', query: 'SELECT a FROM t LIMIT -1', offset: 22, expected: ['a number'] },
  { name: 'clauses out of order', query: 'SELECT a FROM t LIMIT 1 WHERE a = 1', offset: 24 },
  { name: 'number too large for a double', query: 'SELECT 1e999 FROM t', offset: 7 },
  { name: 'a view without its SELECT', query: 'CREATE MATERIALIZED VIEW v AS', offset: 29, expected: ['SELECT'] },
  { name: 'a view without AS', query: 'CREATE MATERIALIZED VIEW v SELECT avg(x) FROM t GROUP BY 1h', offset: 27 },
  { name: 'DROP VIEW without MATERIALIZED', query: 'DROP VIEW v', offset: 5 },
  { name: 'unknown column type', query: 'CREATE TABLE t (a FLOAT)', offset: 18, expected: ['a column type (DOUBLE, INT64, TIMESTAMP, STRING, BLOB, SYMBOL, BOOLEAN)'] },
  { name: '$timestamp not first', query: 'CREATE TABLE t (a DOUBLE, $timestamp TIMESTAMP)', offset: 26 },
  { name: '$timestamp of another type', query: 'CREATE TABLE t ($timestamp INT64)', offset: 16 },
  { name: 'SYMBOL arguments only on SYMBOL', query: 'CREATE TABLE t (a DOUBLE(x))', offset: 24 },
  { name: 'tag value must be a string', query: 'find(tag=stocks)', offset: 9, expected: ['a string'] },
  { name: 'unknown entry type', query: 'find(type=table)', offset: 10, expected: ['BLOB, TAG or TS'] },
  { name: 'OR in FIND', query: "find(tag='a' OR tag='b')", offset: 13 },
  { name: 'DROP without TABLE', query: 'DROP t', offset: 5, expected: ['TABLE'] },
  { name: 'INSERT value that is an expression', query: 'INSERT INTO t ($timestamp, a) VALUES (now, 1 + 2)', offset: 45 },
  { name: 'INSERT without a column list', query: 'INSERT INTO t VALUES (1)', offset: 14, expected: ["'('"] },
  { name: 'nesting too deep', query: `SELECT ${'('.repeat(300)}a${')'.repeat(300)} FROM t`, offset: 7 + 256, message: /nested parentheses/ },
  { name: 'NOT chain too deep', query: `SELECT a FROM t WHERE ${'NOT '.repeat(300)}a > 1`, offset: 22 + 4 * 43, message: /nested more than 256/ },
  { name: 'empty IN list', query: 'SELECT a FROM t WHERE a IN ()', offset: 28 },
  { name: 'IN without parentheses', query: 'SELECT a FROM t WHERE a IN 1, 2', offset: 27, expected: ["'('"] },
  { name: 'NOT IN spelled IN NOT', query: 'SELECT a FROM t WHERE a IN NOT (1)', offset: 27 },
  { name: 'time past the int64 span', query: 'SELECT a FROM t WHERE $timestamp < 2262-04-11T23:47:16.854775808Z', offset: 35, message: /outside the representable range: years 1678 to 2261/ },
  { name: 'time before the int64 span', query: 'SELECT a FROM t IN RANGE(1677-01-01, +1d)', offset: 25, message: /outside the representable range: years 1678 to 2261/ },
  { name: 'year past the int64 span', query: 'SELECT a FROM t IN RANGE(2263, +1d)', offset: 25, message: /year 2263 .*outside the representable range: years 1678 to 2261/ },
  { name: 'a huge year', query: `SELECT a FROM t IN RANGE(${'9'.repeat(400)}, +1d)`, offset: 25, message: /outside the representable range/ },
  { name: 'expression too deep', query: `SELECT ${Array.from({ length: 300 }, () => 'a').join('+')} FROM t`, offset: 8 + 2 * 256, message: /nested more than 256/ },
];

describe('syntax errors', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const e = assertSyntaxError(c.query, c.offset);
      for (const word of c.expected ?? []) assert.ok(e.expected.includes(word), `${JSON.stringify(word)} not in ${JSON.stringify(e.expected)}`);
      if (c.message !== undefined) assert.match(e.message, c.message);
      assert.ok(e.message.length > 0);
    });
  }

  it('parse() throws the same error, with a message naming what was expected', () => {
    assert.throws(() => parse('SELECT a FORM t'), { name: 'QuerySyntaxError', code: 'QuerySyntax', offset: 9, message: "expected '(', AS, ',', FROM or an operator at offset 9, found 'FORM'" });
  });

  it('the error of the first bad token wins over a later lexing error', () => {
    assertSyntaxError("SELECT a FORM t WHERE s = 'unterminated", 9);
  });
});
