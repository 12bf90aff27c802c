// Query text surgery of the console (assets/src/query-text.ts), on the engine's own lexer: the
// time-range picker's clause replaces a SELECT's range or goes after its sources — never inside a
// string, a comment, a FIND or a WHERE's `IN (…)` — and the GROUP BY columns a SELECT leaves out
// are selected for the chart. Every rewritten query is checked to parse with the engine's grammar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '../../grammar/index.js';
import { applyEdit, quoteName, rangeEdit, rangeText, selectShape, withGroupColumns } from '../../assets/src/query-text.js';

const CLAUSE = 'IN RANGE(2026-11-28T13:00:00Z, +1h)';

describe('the range clause', () => {
  const cases: readonly [string, string][] = [
    ['SELECT avg(v) FROM t GROUP BY 1h', `SELECT avg(v) FROM t ${CLAUSE} GROUP BY 1h`],
    ['SELECT v FROM t', `SELECT v FROM t ${CLAUSE}`],
    ['SELECT v FROM t;', `SELECT v FROM t ${CLAUSE};`],
    ['SELECT v FROM t IN RANGE(2017, +1d) WHERE v > 1', `SELECT v FROM t ${CLAUSE} WHERE v > 1`],
    ['select v from t in range(now, -1h) limit 5', `select v from t ${CLAUSE} limit 5`],
    ['SELECT v FROM t IN [RANGE(2017, +1d), RANGE(2018, +1d)] WITH DAYS IN (1, 6) GROUP BY day', `SELECT v FROM t ${CLAUSE} WITH DAYS IN (1, 6) GROUP BY day`],
    ['SELECT a.v, b.w FROM a LEFT ASOF JOIN b WHERE a.v > 0', `SELECT a.v, b.w FROM a LEFT ASOF JOIN b ${CLAUSE} WHERE a.v > 0`],
    ["SELECT v FROM find(tag='in range') ORDER BY v", `SELECT v FROM find(tag='in range') ${CLAUSE} ORDER BY v`],
    ["SELECT v FROM t WHERE s IN ('a', 'b') AND note = 'IN RANGE(1, 2)'", `SELECT v FROM t ${CLAUSE} WHERE s IN ('a', 'b') AND note = 'IN RANGE(1, 2)'`],
    ['SELECT v FROM t -- IN RANGE(2017, +1d)\nWHERE v > 0', `SELECT v FROM t ${CLAUSE} -- IN RANGE(2017, +1d)\nWHERE v > 0`],
    ['SELECT v FROM "my table", u GROUP BY 5min, sym FILL(PREV)', `SELECT v FROM "my table", u ${CLAUSE} GROUP BY 5min, sym FILL(PREV)`],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      const edit = rangeEdit(text, CLAUSE);
      assert.notEqual(edit, null);
      const out = applyEdit(text, edit!);
      assert.equal(out, expected);
      assert.equal(rangeText(out), CLAUSE);
      if (!out.includes('find(')) parse(out);
    });
  }

  it('leaves what is not a SELECT with sources alone', () => {
    for (const text of ['SHOW t', 'CREATE TABLE t (v DOUBLE)', "INSERT INTO t ($timestamp, v) VALUES (2017, 1)", 'SELECT', 'SELECT v FROM', "SELECT 'unterminated FROM t", '']) {
      assert.equal(rangeEdit(text, CLAUSE), null, text);
    }
    assert.equal(rangeText('SELECT v FROM t'), null);
  });
});

describe('GROUP BY columns', () => {
  const cases: readonly [string, string, readonly string[]][] = [
    ['SELECT avg(v) FROM t GROUP BY 5min, host', 'SELECT host, avg(v) FROM t GROUP BY 5min, host', ['host']],
    ['SELECT host, avg(v) FROM t GROUP BY 5min, host', 'SELECT host, avg(v) FROM t GROUP BY 5min, host', []],
    ['SELECT avg(v) AS host FROM t GROUP BY host', 'SELECT avg(v) AS host FROM t GROUP BY host', []],
    ['SELECT avg(v) FROM t GROUP BY day, host, region FILL(NULL) LIMIT 3', 'SELECT host, region, avg(v) FROM t GROUP BY day, host, region FILL(NULL) LIMIT 3', ['host', 'region']],
    ['SELECT avg(v) FROM t GROUP BY $table, hour', 'SELECT avg(v) FROM t GROUP BY $table, hour', []],
    ['SELECT avg(v) FROM t GROUP BY "the host"', 'SELECT "the host", avg(v) FROM t GROUP BY "the host"', ['the host']],
    ['SELECT avg(v) FROM t WHERE host IN (\'a\') GROUP BY 1h', 'SELECT avg(v) FROM t WHERE host IN (\'a\') GROUP BY 1h', []],
    ['SHOW t', 'SHOW t', []],
  ];
  for (const [text, query, added] of cases) {
    it(JSON.stringify(text), () => {
      const r = withGroupColumns(text);
      assert.equal(r.query, query);
      assert.deepEqual(r.added, added);
      if (query.startsWith('SELECT')) parse(query);
    });
  }

  it('maps an offset of the query sent back into the text', () => {
    const text = 'SELECT avg(nope) FROM t GROUP BY 1h, site';
    const r = withGroupColumns(text);
    assert.equal(r.toText(r.query.indexOf('nope')), text.indexOf('nope'));
    assert.equal(r.toText(0), 0);
    assert.equal(r.toText(r.query.indexOf('site')), 'SELECT '.length);
    assert.equal(withGroupColumns('SHOW t').toText(3), 3);
  });

  it('names the group columns and the selected names', () => {
    const shape = selectShape('SELECT host, max(v) AS peak, "a b" FROM t GROUP BY 1h, host, "a b"')!;
    assert.deepEqual(shape.groupColumns.map((c) => c.name), ['host', 'a b']);
    assert.deepEqual(shape.selectedNames, ['host', 'peak', 'a b']);
  });
});

describe('quoteName', () => {
  it('quotes only what does not lex as one name', () => {
    assert.equal(quoteName('cpu'), 'cpu');
    assert.equal(quoteName('sensors.room1'), 'sensors.room1');
    assert.equal(quoteName('$qdb.prom.up'), '$qdb.prom.up');
    assert.equal(quoteName('my table'), '"my table"');
    assert.equal(quoteName('select'), '"select"');
    assert.equal(quoteName('1abc'), '"1abc"');
    assert.equal(quoteName('a"b'), '"a""b"');
  });
});
