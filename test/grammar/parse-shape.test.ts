// The parse-shape cache: a text with the shape of one parsed before (the same tokens but its
// literals) gets, without an Earley parse, exactly the tree `parse` gives it — offsets, values,
// output names — and the same errors for literals the builders refuse. Table-driven pairs first,
// then the differential generator's random queries with their literals changed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { earleyParses, parse, parseShaped, QuerySyntaxError, shapeKey, tokenize } from '../../grammar/index.js';
import { renderQuery } from '../query/query-model.js';
import { rng } from '../query/random-data.js';
import { randomQuery } from '../query/random-query.js';

/** [first text, a text of the same shape with other literals]. */
const PAIRS: readonly [string, string][] = [
  ['SELECT avg(v) FROM t IN RANGE(2021-03-01T05:17, 2021-03-02T05:17) WHERE v > 0.25 GROUP BY 5min LIMIT 500',
    'SELECT avg(v) FROM t IN RANGE(2021-11-30T23:59:59.123456789Z, 2022-01-01) WHERE v > 10 GROUP BY 1mon LIMIT 3'],
  ['SELECT v * 2, v - -1.5 AS d FROM t WHERE s = \'a\' OR s IN (\'b\', \'it\'\'s\') ORDER BY 1 DESC OFFSET 4',
    'SELECT v * 3000, v - -7 AS d FROM t WHERE s = \'\' OR s IN (\'longer text\', \'x\') ORDER BY 2 DESC OFFSET 12'],
  ['SELECT count(*) FROM t IN [RANGE(2017, -1s), RANGE(now, +1h30min)] GROUP BY day',
    'SELECT count(*) FROM t IN [RANGE(2020, -10d), RANGE(now, +1y 2mon)] GROUP BY day'],
  ['SELECT sum(v) FROM t IN RANGE(2021, 2022) WITH MONTHS IN (3, 6) WITH TIME IN (08:00, 17:30) GROUP BY 1h FILL(-1)',
    'SELECT sum(v) FROM t IN RANGE(2019, 2020) WITH MONTHS IN (11, 2) WITH TIME IN (22:15:30.5, 06:00) GROUP BY 7min FILL(-2.5)'],
  ['SELECT round(avg(v), 2), ma(v, 10), derivative(max(v), 1min) FROM t GROUP BY 1min',
    'SELECT round(avg(v), 5), ma(v, 3), derivative(max(v), 15s) FROM t GROUP BY 1min'],
  ["SELECT v FROM find(tag='a' AND NOT tag='b') LEFT ASOF JOIN u WHERE $timestamp >= 2021-01-01 AND u.w < -3",
    "SELECT v FROM find(tag='other' AND NOT tag='') LEFT ASOF JOIN u WHERE $timestamp >= 1999-12-31T23:00 AND u.w < -300.25"],
];

describe('parse-shape cache', () => {
  for (const [first, second] of PAIRS) {
    it(`gives parse's tree without parsing: ${second}`, () => {
      assert.equal(shapeKey(tokenize(first)), shapeKey(tokenize(second)), 'test bug: the pair has two shapes');
      parseShaped(first);
      const before = earleyParses();
      const tree = parseShaped(second);
      assert.equal(earleyParses(), before, 'an Earley parse ran for a known shape');
      assert.deepStrictEqual(tree, parse(second));
    });
  }

  it('raises the error parse raises for a literal the grammar refuses', () => {
    const cases: [string, string][] = [
      ['SELECT v FROM t LIMIT 10', 'SELECT v FROM t LIMIT 1.5'],
      ['SELECT v FROM t IN RANGE(2017, 2018)', 'SELECT v FROM t IN RANGE(1500, 2018)'],
      ['SELECT v FROM t WHERE v > 1.5', 'SELECT v FROM t WHERE v > 1e999'],
    ];
    for (const [good, bad] of cases) {
      parseShaped(good);
      const expected = catchError(() => parse(bad));
      const actual = catchError(() => parseShaped(bad));
      assert.ok(expected instanceof QuerySyntaxError, bad);
      assert.deepEqual([actual?.message, (actual as QuerySyntaxError).offset], [expected.message, expected.offset], bad);
    }
  });

  it('parses every time a shape whose literals it cannot place, and still gives the right tree', () => {
    for (const [a, b] of [['SELECT -(5), v FROM t', 'SELECT -(7), v FROM t'], ['SELECT - -5 FROM t', 'SELECT - -6 FROM t']] as const) {
      parseShaped(a);
      const before = earleyParses();
      assert.deepStrictEqual(parseShaped(b), parse(b));
      assert.equal(earleyParses(), before + 2, 'the shape should not be kept');
    }
  });

  it('tells shapes apart by every token that is not a literal, and by the kind of each literal', () => {
    const base = shapeKey(tokenize('SELECT v FROM t WHERE v > 1'));
    for (const other of ['SELECT w FROM t WHERE v > 1', 'SELECT "v" FROM t WHERE v > 1', 'SELECT v FROM t WHERE v >= 1',
      "SELECT v FROM t WHERE v > '1'", 'SELECT v FROM t WHERE v > 2021-01-01', 'SELECT v FROM t WHERE v > 1s', 'SELECT v FROM t WHERE v > 1 + 1']) {
      assert.notEqual(shapeKey(tokenize(other)), base, other);
    }
    assert.equal(shapeKey(tokenize('SELECT v\tFROM  t -- a comment\nWHERE v > 17.5')), base);
  });

  it('keeps the 256 shapes used last: the least recently used one is parsed again', () => {
    parseShaped('SELECT old FROM t WHERE v > 1');
    parseShaped('SELECT kept FROM t WHERE v > 1');
    for (let i = 0; i < 256; i++) {
      parseShaped(`SELECT c${i} FROM t WHERE v > 1`);
      parseShaped(`SELECT kept FROM t WHERE v > ${i}`);
    }
    let before = earleyParses();
    assert.deepStrictEqual(parseShaped('SELECT kept FROM t WHERE v > 0.5'), parse('SELECT kept FROM t WHERE v > 0.5'));
    assert.equal(earleyParses(), before + 1, 'a shape used recently was parsed again');
    before = earleyParses();
    parseShaped('SELECT old FROM t WHERE v > 2');
    assert.equal(earleyParses(), before + 1, 'the least recently used shape was still kept');
  });

  it('agrees with parse on random queries with their literals changed', () => {
    const r = rng(Number(process.env.QUERY_SEED ?? 7));
    let hits = 0;
    for (let q = 0; q < 400; q++) {
      const text = renderQuery(randomQuery(r, ['ta', 'tb']));
      const changed = text.replace(/\b\d+(\.\d+)?\b(?![-:T])/g, (m) => (r() < 0.5 ? m : String(Number(m) + 1 + Math.floor(r() * 9))));
      parseShaped(text);
      const before = earleyParses();
      const actual = attempt(() => parseShaped(changed));
      if (earleyParses() === before) hits++;
      assert.deepStrictEqual(actual, attempt(() => parse(changed)), `${text}\n${changed}`);
    }
    assert.ok(hits > 200, `only ${hits} of 400 random queries were answered from their shape`);
  });

  it('agrees with parse on texts whose digits changed in place, as a moving time range changes them', () => {
    const r = rng(Number(process.env.QUERY_SEED ?? 11));
    let edits = 0;
    for (let q = 0; q < 300; q++) {
      let text = renderQuery(randomQuery(r, ['ta', 'tb']));
      parseShaped(text);
      // Several refreshes in a row, each from the last: any digit may change (in a name too, or
      // into a month 13 or a 25th hour), never the text's length.
      for (let refresh = 0; refresh < 4; refresh++) {
        text = text.replace(/\d/g, (d) => (r() < 0.15 ? String(Math.floor(r() * 10)) : d));
        const before = earleyParses();
        const actual = attempt(() => parseShaped(text));
        if (earleyParses() === before) edits++;
        assert.deepStrictEqual(actual, attempt(() => parse(text)), text);
      }
    }
    assert.ok(edits > 300, `only ${edits} of 1200 edited texts were answered from their shape`);
  });
});

/** The value of f, or its error's message and offset. */
function attempt(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (e) {
    return { error: (e as Error).message, offset: (e as QuerySyntaxError).offset };
  }
}

function catchError(f: () => unknown): Error | null {
  try {
    f();
    return null;
  } catch (e) {
    return e as Error;
  }
}
