// Fuzzing the front end: random and mutated query texts must either parse to exactly one
// statement or fail with QuerySyntaxError, never anything else (no crash, no internal error, no
// ambiguity). Bounded and deterministic: the seed is fixed unless GRAMMAR_FUZZ_SEED is set, and
// every failure prints the seed and the text that broke.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatExpr, parse, parseAll, parseInSteps, QuerySyntaxError, type Statement } from '../../grammar/index.js';
import { prng } from '../prng.js';

const SEED = Number(process.env['GRAMMAR_FUZZ_SEED'] ?? 0x5eed);
const CASES = 2000;


const VALID = [
  'SELECT * FROM stocks',
  "SELECT sum(close) AS s, (sum(x)/count(x)) FROM stocks, find(tag='a' AND NOT tag='b' AND type=ts) IN [RANGE(2017, -1s), RANGE(now, +1h30min)] WHERE a + 1 * -2 > 3 AND NOT b ~* 'x' GROUP BY day, $table HAVING count(*) > 1 ORDER BY s DESC LIMIT 10 OFFSET 2;",
  "find(tag='stocks')",
  'CREATE TABLE IF NOT EXISTS t ($timestamp TIMESTAMP, a DOUBLE, b SYMBOL(x), "c" STRING) SHARD_SIZE = 1d',
  'DROP TABLE IF EXISTS stocks.apple',
  "INSERT INTO t ($timestamp, a, b) VALUES (now, -1.5, 'x'), (2017-01-01T10:00:35.123456789Z, 2, NULL)",
  'SHOW "my table"',
  'select v from t in range(yesterday(), today) where $timestamp >= 2017-01-01T10:00 -- comment\n group by 1y 2mon',
  'SELECT a.v, b.w, round(avg(a.v - b.w), 2) FROM a LEFT ASOF JOIN b, find(tag=\'q\') IN RANGE(2021, 2022) WITH MONTHS IN (3, 6) WITH DAYS IN (6, 1) WITH TIME IN (22:00, 06:00:30.5) GROUP BY 1min FILL(LINEAR)',
  'select derivative(max(c), 1min), cumsum(count(*)), ma(v, 3), lag(s, 2), coalesce(x, -1.5) from t full asof join u group by 5min, sym fill(-2) limit 3',
];

const VOCABULARY = [
  'SELECT', 'FROM', 'IN', 'RANGE', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'AS',
  'AND', 'OR', 'NOT', 'find', 'CREATE', 'TABLE', 'IF', 'EXISTS', 'DROP', 'INSERT', 'INTO', 'VALUES', 'SHOW', 'NULL',
  'now', 'today', 'epoch', 'end_of_time', 'tag', 'type', 'ts', 'blob', 'DOUBLE', 'SYMBOL', 'SHARD_SIZE', 'day', 'min',
  '(', ')', '[', ']', ',', ';', '*', '+', '-', '/', '=', '!=', '<', '<=', '>', '>=', '~', '!~', '~*', '!~*',
  'a', 'close', '$timestamp', '$table', 'stocks.apple', '"q ""x"""', "'s'", "'it''s'", '0', '2017', '1.5', '1e3',
  '2017-01-01', '2017-01-01T10:00:35.5Z', '1h30min', '1y 2mon', '5m', '2017-02-30', '--', "'", '"', '#', 'é', '\n',
  'ASOF', 'JOIN', 'LEFT', 'RIGHT', 'FULL', 'WITH', 'MONTHS', 'DAYS', 'TIME', 'FILL', 'PREV', 'LINEAR', '08:00', '17:30:15.5',
  '24:00', '25:00', '7:5', ':', 'round', 'cumsum', 'derivative', 'coalesce',
];

function mutate(text: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const at = Math.floor(rnd() * (text.length + 1));
  switch (Math.floor(rnd() * 5)) {
    case 0: return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 8)); // delete a span
    case 1: return `${text.slice(0, at)} ${pick(VOCABULARY)} ${text.slice(at)}`; // insert a token
    case 2: return text.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x250)) + text.slice(at); // insert a character
    case 3: return text.slice(0, at); // truncate
    default: {
      const from = Math.floor(rnd() * text.length); // duplicate a span
      return text.slice(0, at) + text.slice(from, from + Math.floor(rnd() * 12)) + text.slice(at);
    }
  }
}

function randomText(rnd: () => number): string {
  const length = 1 + Math.floor(rnd() * 12);
  return Array.from({ length }, () => VOCABULARY[Math.floor(rnd() * VOCABULARY.length)]).join(' ');
}

function walkExprs(statement: Statement): void {
  // Formatting every select item exercises the whole tree of a successful parse.
  if (statement.kind === 'Select') for (const c of statement.columns) if (c.kind === 'SelectColumn') formatExpr(c.expr);
}

/** A random expression over the whole ladder, with random spacing and redundant parentheses. */
function randomExpr(rnd: () => number, depth: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const sp = () => pick(['', ' ', '  ', '\n']);
  if (depth <= 0 || rnd() < 0.3) {
    return pick(['a', 'b', '$timestamp', '1', '2.5', '1e3', "'s'", 'NULL', 'now', 'now()', '2017-01-01T10:00Z', '1h30min', 'x.y']);
  }
  const sub = () => randomExpr(rnd, depth - 1);
  switch (Math.floor(rnd() * 6)) {
    // Spaces around operators keep a '-' next to another '-' from starting a `--` comment.
    case 0: return `${sub()} ${pick(['+', '-', '*', '/'])}${sp()} ${sub()}`;
    case 1: return `${sub()} ${pick(['AND', 'OR', 'and', 'or'])} ${sub()}`;
    case 2: return `(${sp()}${sub()}${sp()})`;
    case 3: return rnd() < 0.5 ? `(NOT ${sub()})` : `- ${sub()}`;
    case 4: return `${pick(['sum', 'COUNT', 'avg', 'f', 'abs', 'round', 'cumsum', 'derivative', 'lag', 'coalesce'])}(${sp()}${sub()}${rnd() < 0.3 ? `, ${sub()}` : ''})`;
    default: return `(${sub()}${sp()}${pick(['=', '!=', '<', '<=', '>', '>=', '~', '!~', '~*', '!~*'])}${sp()}${sub()})`;
  }
}

/** parse(text) or the syntax error it throws, as plain data for deepEqual. */
function outcome(run: () => Statement): { ast: Statement } | { error: string; offset: number } {
  try {
    return { ast: run() };
  } catch (e) {
    if (e instanceof QuerySyntaxError) return { error: e.message, offset: e.offset };
    throw e;
  }
}

/** Drives parseInSteps to its end, counting the steps. */
function parseStepwise(text: string, tokensPerStep: number, counter: { steps: number }): Statement {
  const steps = parseInSteps(text, tokensPerStep);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    counter.steps++;
  }
}

describe('fuzz', () => {
  it(`${CASES} random expressions parse exactly once and their normalized text reads back the same (seed ${SEED})`, () => {
    const rnd = prng(SEED);
    for (let i = 0; i < CASES; i++) {
      const text = `SELECT ${randomExpr(rnd, 4)} FROM t`;
      try {
        const results = parseAll(text);
        assert.equal(results.length, 1, `ambiguous: ${results.length} parses`);
        const column = (results[0] as Statement & { kind: 'Select' }).columns[0];
        assert.ok(column?.kind === 'SelectColumn');
        const again = parseAll(`SELECT ${column.text} FROM t`);
        assert.equal(again.length, 1);
        const columnAgain = (again[0] as Statement & { kind: 'Select' }).columns[0];
        assert.equal(columnAgain?.kind === 'SelectColumn' ? columnAgain.text : '', column.text);
      } catch (e) {
        if (e instanceof QuerySyntaxError && /deep/.test(e.message)) continue;
        assert.fail(`seed ${SEED}, case ${i}, text ${JSON.stringify(text)}: ${e instanceof Error ? e.stack : String(e)}`);
      }
    }
  });

  it(`${CASES} random and mutated queries parsed a few tokens at a time give parse()'s statement or error (seed ${SEED})`, () => {
    const rnd = prng(SEED ^ 0x57e9);
    const counter = { steps: 0 };
    for (let i = 0; i < CASES; i++) {
      let text = rnd() < 0.25 ? randomText(rnd) : (VALID[Math.floor(rnd() * VALID.length)] as string);
      for (let m = Math.floor(rnd() * 3); m > 0; m--) text = mutate(text, rnd);
      const tokensPerStep = 1 + Math.floor(rnd() * 4);
      assert.deepEqual(outcome(() => parseStepwise(text, tokensPerStep, counter)), outcome(() => parse(text)), `seed ${SEED}, case ${i}, ${tokensPerStep} tokens a step, text ${JSON.stringify(text)}`);
    }
    // The texts run to dozens of tokens: most of them were really parsed in several steps.
    assert.ok(counter.steps > CASES * 3, `only ${counter.steps} steps over ${CASES} texts`);
  });

  it(`${CASES} random and mutated queries only ever fail with QuerySyntaxError (seed ${SEED})`, () => {
    const rnd = prng(SEED);
    let parsed = 0;
    for (let i = 0; i < CASES; i++) {
      let text = rnd() < 0.25 ? randomText(rnd) : (VALID[Math.floor(rnd() * VALID.length)] as string);
      for (let m = Math.floor(rnd() * 4); m >= 0; m--) text = mutate(text, rnd);
      try {
        const results = parseAll(text);
        assert.equal(results.length, 1, `ambiguous: ${results.length} parses`);
        walkExprs(results[0] as Statement);
        parsed++;
      } catch (e) {
        if (e instanceof QuerySyntaxError) {
          assert.ok(e.offset >= 0 && e.offset <= text.length, `offset ${e.offset} outside the text`);
          continue;
        }
        assert.fail(`seed ${SEED}, case ${i}, text ${JSON.stringify(text)}: ${e instanceof Error ? e.stack : String(e)}`);
      }
    }
    // Sanity: the mutations leave some queries valid, so both paths are exercised.
    assert.ok(parsed > 20, `only ${parsed} of ${CASES} parsed`);
  });
});
