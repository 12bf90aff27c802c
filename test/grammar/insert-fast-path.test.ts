// The INSERT fast path against the Earley parser: for random INSERT texts, valid and mutated, the
// walk either gives exactly the tree nearley gives, or gives up (null) — never a tree for a text
// nearley refuses, never a different tree. Valid texts must all take the fast path, or the
// speed-up it exists for would be lost without a test noticing. Seeded and bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { earleyParses, parse, parseAll, parseInSteps, QuerySyntaxError } from '../../grammar/index.js';
import type { Statement } from '../../grammar/index.js';
import { parseInsertInSteps, scanRows } from '../../grammar/insert-fast-path.js';
import { prng } from '../prng.js';
import type { Rng } from '../prng.js';

const SEED = Number(process.env['GRAMMAR_FUZZ_SEED'] ?? 0x1a5e);
const CASES = 1500;

const VALUES = [
  '0', '7', '-1.5', '+2', '- 3', '1e3', '2.5E-7', '9223372036854775807', '-9223372036854775808', '123456789012345678901234',
  "'x'", "''", "'it''s'", "'a b, (c)'", 'NULL', 'null', 'TRUE', 'false', 'now', 'NOW()', 'today ( )', 'epoch', 'end_of_time',
  'yesterday', 'tomorrow()', '2017-01-01', '2017-01-01T10:00', '2017-01-01T10:00:35.123456789Z', '1970-01-01t00:00:00z',
];
const NAMES = ['$timestamp', 'a', 'b_2', 'x.y', '"q ""x"""', '"select"', 'é', 'tag', 'day'];
const SPACES = ['', ' ', '  ', '\n', ' -- note\n', '\t'];

function pick<T>(rnd: Rng, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)] as T;
}

function randomInsert(rnd: Rng): string {
  const sp = () => pick(rnd, SPACES);
  const columns = 1 + Math.floor(rnd() * 4);
  const rows = 1 + Math.floor(rnd() * 5);
  const names = Array.from({ length: columns }, () => pick(rnd, NAMES)).join(`${sp()},${sp()}`);
  const tuples = Array.from({ length: rows }, () => `(${sp()}${Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(rnd, VALUES)).join(`${sp()},${sp()}`)}${sp()})`);
  const head = `${pick(rnd, ['INSERT', 'insert', 'Insert'])} ${pick(rnd, ['INTO', 'into'])} ${pick(rnd, ['t', 'stocks.apple', '"my table"'])}`;
  return `${sp()}${head}${sp()}(${sp()}${names}${sp()})${sp()} ${pick(rnd, ['VALUES', 'values'])}${sp()}${tuples.join(`${sp()},${sp()}`)}${pick(rnd, ['', ';', ' ; '])}${sp()}`;
}

function mutate(rnd: Rng, text: string): string {
  const at = Math.floor(rnd() * (text.length + 1));
  switch (Math.floor(rnd() * 4)) {
    case 0: return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 6));
    case 1: return `${text.slice(0, at)} ${pick(rnd, [...VALUES, '(', ')', ',', ';', 'VALUES', 'INTO', '-', '2017-02-30', '99999-01-01', '1e999', "'"])} ${text.slice(at)}`;
    case 2: return text.slice(0, at);
    default: return text.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x80)) + text.slice(at);
  }
}

function fast(text: string, tokensPerStep = Infinity): Statement | null {
  const steps = parseInsertInSteps(text, tokensPerStep);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** The Earley parser's one statement, or its error. */
function earley(text: string): Statement | QuerySyntaxError {
  try {
    const all = parseAll(text);
    assert.equal(all.length, 1, `ambiguous: ${text}`);
    return all[0] as Statement;
  } catch (e) {
    assert.ok(e instanceof QuerySyntaxError, `${text}: ${String(e)}`);
    return e;
  }
}

describe('INSERT fast path', () => {
  it('gives the Earley tree for every valid random INSERT, at any step size', () => {
    const rnd = prng(SEED);
    for (let i = 0; i < CASES; i++) {
      const text = randomInsert(rnd);
      const expected = earley(text);
      if (expected instanceof QuerySyntaxError) {
        // A value the builders refuse (a number too large for a double is not among VALUES).
        assert.equal(fast(text), null, `seed ${SEED} case ${i}: ${text}`);
        continue;
      }
      assert.deepStrictEqual(fast(text), expected, `seed ${SEED} case ${i}: ${text}`);
      assert.deepStrictEqual(fast(text, 1 + (i % 4)), expected, `stepwise, seed ${SEED} case ${i}: ${text}`);
    }
  });

  it('never accepts what the Earley parser refuses, nor builds another tree, on mutated texts', () => {
    const rnd = prng(SEED + 1);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < CASES; i++) {
      let text = randomInsert(rnd);
      for (let m = Math.floor(rnd() * 3); m >= 0; m--) text = mutate(rnd, text);
      const expected = earley(text);
      const actual = fast(text);
      if (expected instanceof QuerySyntaxError) {
        assert.equal(actual, null, `seed ${SEED + 1} case ${i}: the fast path accepted ${JSON.stringify(text)}`);
        refused++;
      } else if (actual !== null) {
        assert.deepStrictEqual(actual, expected, `seed ${SEED + 1} case ${i}: ${JSON.stringify(text)}`);
        accepted++;
      }
    }
    // Both sides of the comparison were exercised.
    assert.ok(accepted > 100 && refused > 100, `accepted ${accepted}, refused ${refused}`);
  });

  it('is what parse() and parseInSteps() use for an INSERT, without an Earley parse', () => {
    const text = "INSERT INTO t ($timestamp, v, s) VALUES (2017-01-01T00:00:00Z, 1.5, 'a'), (now(), -2, NULL);";
    const before = earleyParses();
    const statement = parse(text);
    const stepwise = parseInSteps(text, 2);
    let r = stepwise.next();
    while (r.done !== true) r = stepwise.next();
    assert.equal(earleyParses(), before, 'an Earley parse ran for a plain INSERT');
    assert.deepStrictEqual(statement, parseAll(text)[0]);
    assert.deepStrictEqual(r.value, statement);
  });

  it('leaves the errors of invalid INSERTs to the Earley parser, word for word', () => {
    const cases = [
      'INSERT INTO t (a) VALUES',
      'INSERT INTO t (a) VALUES (1,)',
      'INSERT INTO t (a) VALUES (1) (2)',
      'INSERT INTO t a VALUES (1)',
      'INSERT INTO t (a) VALUES (1e999)',
      'INSERT INTO t (a) VALUES (2017-02-30)',
      "INSERT INTO t (a) VALUES ('open",
      'INSERT INTO t (a) VALUES (1); SELECT',
      'INSERT INTO t (a) VALUES (now(1))',
      'INSERT INTO t (a) VALUES (- now)',
      // A builder refusing a name: before the tuples (the scanner's path) and after them (the walk's).
      'INSERT INTO "" (a) VALUES (1)',
      'INSERT INTO t (a, "") VALUES (1, 2)',
      'INSERT INTO t ("") VALUES (now())',
    ];
    for (const text of cases) {
      const expected = earley(text);
      assert.ok(expected instanceof QuerySyntaxError, text);
      assert.equal(fast(text), null, text);
      assert.throws(() => parse(text), (e: unknown) => e instanceof QuerySyntaxError && e.message === expected.message && e.offset === expected.offset, text);
    }
  });
  // The tuples' scanner (no lexer): the same trees as the Earley parser on the values it reads,
  // a give-up (then the token walk) on anything near them it does not.
  const SCANNED = [
    '0', '7', '007', '-1.5', '+2', '-0', '-0.0', '1e3', '1E+05', '2.5E-7', '4.25e-3', '123456789012345', '1234567890123456',
    '9007199254740993', '9223372036854775807', '-9223372036854775808', '123456789012345678901234', '1700000000000000000',
    "'x'", "''", "'it''s'", "''''", "'a b, (c)'", "'line\nbreak'", 'NULL', 'null', 'Null', 'TRUE', 'true', 'False', 'FALSE',
  ];
  const NEAR = [
    '1.', '1e', '1.5e+', '1.2.3', '5s', '5 s', '5min', '1_0', '1$', '0x10', '12:30', '2017-01-01', '.5', '+.5', '- 3', '+ 3',
    '--1', '-', '+', '+-1', "'a'''", "'a''", "'open", "'a'b", 'nul', 'nulls', 'null.x', 'null_', 'truex', 'now', 'NOW()',
    '1e999', '-1e999', '\u00a01', '1\u00a0', '\v1', 'epoch', 'é', '"q"', '(1)', '1 -- c\n', "'é'",
  ];
  const SCAN_SPACES = ['', ' ', '  ', '\n', '\t', '\r\n'];

  function scannerInsert(rnd: Rng, values: readonly string[]): string {
    const sp = () => pick(rnd, SCAN_SPACES);
    const rows = 1 + Math.floor(rnd() * 5);
    const tuples = Array.from({ length: rows }, () => `(${sp()}${Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(rnd, values)).join(`${sp()},${sp()}`)}${sp()})`);
    return `INSERT INTO t ($timestamp, a, b) VALUES${sp()} ${tuples.join(`${sp()},${sp()}`)}${pick(rnd, ['', ';', ' ; ', ';\n'])}${sp()}`;
  }

  /** True when the scanner (not the token walk) read the tuples of `text`. */
  function scanned(text: string): boolean {
    const steps = scanRows(text, text.indexOf('VALUES') + 'VALUES'.length, 3, 3);
    for (;;) {
      const r = steps.next();
      if (r.done === true) return r.value !== null;
    }
  }

  it('reads plain tuples without the lexer and gives the Earley tree', () => {
    const rnd = prng(SEED + 2);
    for (let i = 0; i < CASES; i++) {
      const text = scannerInsert(rnd, SCANNED);
      const expected = earley(text);
      if (expected instanceof QuerySyntaxError) {
        assert.equal(fast(text), null, `seed ${SEED + 2} case ${i}: ${JSON.stringify(text)}`);
        continue;
      }
      assert.ok(scanned(text), `seed ${SEED + 2} case ${i}: not scanned: ${JSON.stringify(text)}`);
      assert.deepStrictEqual(fast(text), expected, `seed ${SEED + 2} case ${i}: ${JSON.stringify(text)}`);
      assert.deepStrictEqual(fast(text, 1 + (i % 4)), expected, `stepwise, seed ${SEED + 2} case ${i}: ${JSON.stringify(text)}`);
    }
  });

  it('gives the Earley tree or nothing on values near those the scanner reads, and on mutated tuples', () => {
    const rnd = prng(SEED + 3);
    let accepted = 0;
    let refused = 0;
    let scannedTexts = 0;
    for (let i = 0; i < CASES; i++) {
      // Mostly scanned values and one near value, often repeated.
      const near = pick(rnd, NEAR);
      let text = scannerInsert(rnd, [...SCANNED, ...SCANNED.map(() => near).slice(0, 6)]);
      for (let m = Math.floor(rnd() * 2); m > 0; m--) text = mutate(rnd, text);
      const expected = earley(text);
      const actual = fast(text);
      if (scanned(text)) scannedTexts++;
      if (expected instanceof QuerySyntaxError) {
        assert.equal(actual, null, `seed ${SEED + 3} case ${i}: the fast path accepted ${JSON.stringify(text)}`);
        refused++;
      } else if (actual !== null) {
        assert.deepStrictEqual(actual, expected, `seed ${SEED + 3} case ${i}: ${JSON.stringify(text)}`);
        accepted++;
      }
    }
    assert.ok(accepted > 100 && refused > 100 && scannedTexts > 100, `accepted ${accepted}, refused ${refused}, scanned ${scannedTexts}`);
  });
});
