// The line-protocol parser alone: every escape and quoting case InfluxDB documents, every field
// type and precision, int64 edges, and the first bad line named for each kind of mistake.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineProtocolError, LineProtocolParser, PRECISIONS } from '../../../server/protocols/line-protocol/line-protocol-parser.js';
import type { IngestTable } from '../../../server/protocols/ingest/ingest-batch.js';

const NOW = 1_700_000_000_123_456_789n;

type Row = Record<string, unknown>;

function rowsOf(t: IngestTable): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < t.timestamps.length; i++) {
    const row: Row = { $timestamp: t.timestamps[i] };
    for (const c of t.columns) {
      const v = c.values;
      if (v.type === 'STRING' || v.type === 'SYMBOL' || v.type === 'BOOLEAN') {
        if (v.values[i] !== null) row[c.name] = v.values[i];
      } else if ('nulls' in v && v.nulls !== null && v.nulls[i] === 0) {
        row[c.name] = v.values[i];
      }
    }
    rows.push(row);
  }
  return rows;
}

function parse(text: string, options: { precision?: string; schemas?: Record<string, Record<string, string>>; parser?: LineProtocolParser } = {}) {
  const parser = options.parser ?? new LineProtocolParser();
  const schemas = options.schemas ?? {};
  return parser.parse(Buffer.from(text), {
    multiplier: PRECISIONS[options.precision ?? 'ns'],
    now: NOW,
    schemaOf: (t) => (t in schemas ? new Map(Object.entries(schemas[t])) : null),
  });
}

function single(text: string, precision?: string): Row[] {
  const { tables } = parse(text, { precision });
  assert.equal(tables.length, 1);
  return rowsOf(tables[0]);
}

function rejects(text: string, line: number, reason: RegExp, schemas?: Record<string, Record<string, string>>) {
  assert.throws(() => parse(text, { schemas }), (e: unknown) => {
    assert.ok(e instanceof LineProtocolError, String(e));
    assert.equal(e.line, line, e.message);
    assert.match(e.reason, reason);
    return true;
  });
}

describe('line protocol: values', () => {
  it('maps tags to SYMBOL and each field type to its column', () => {
    const { tables } = parse('cpu,host=a,region=eu usage=0.5,count=3i,big=18u,name="x y",up=t 1000\n');
    const t = tables[0];
    assert.equal(t.name, 'cpu');
    assert.equal(t.create, true);
    assert.deepEqual(t.addColumns, [
      { name: 'host', type: 'SYMBOL' }, { name: 'region', type: 'SYMBOL' }, { name: 'usage', type: 'DOUBLE' },
      { name: 'count', type: 'INT64' }, { name: 'big', type: 'INT64' }, { name: 'name', type: 'STRING' }, { name: 'up', type: 'BOOLEAN' },
    ]);
    assert.deepEqual(rowsOf(t), [{ $timestamp: 1000n, host: 'a', region: 'eu', usage: 0.5, count: 3n, big: 18n, name: 'x y', up: true }]);
  });

  const floats: [string, number][] = [
    ['1', 1], ['-1', -1], ['1.5', 1.5], ['-0.25', -0.25], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['1E-3', 0.001], ['-1.5e+10', -1.5e10],
    ['0.1', 0.1], ['0.7518796992481203', 0.7518796992481203], ['99.12345678901234', 99.12345678901234],
    ['123456789012345678901234567890', 123456789012345678901234567890], ['1.7976931348623157e308', 1.7976931348623157e308],
    ['4.9e-324', 4.9e-324], ['0', 0], ['-0', -0], ['000.000', 0], ['12345678901234567', 12345678901234567],
  ];
  for (const [text, value] of floats) {
    it(`float ${text}`, () => assert.equal(Object.is(single(`m v=${text} 1`)[0].v, value), true, `${text} → ${single(`m v=${text} 1`)[0].v}`));
  }

  const ints: [string, bigint][] = [
    ['0i', 0n], ['-1i', -1n], ['9223372036854775807i', 9223372036854775807n], ['-9223372036854775808i', -9223372036854775808n],
    ['1234567890123456i', 1234567890123456n], ['-4294967296i', -4294967296n], ['4294967295i', 4294967295n], ['9223372036854775807u', 9223372036854775807n],
    ['0u', 0n], ['1000000000000000000i', 1000000000000000000n], ['-999999999999999999i', -999999999999999999n],
  ];
  for (const [text, value] of ints) it(`integer ${text}`, () => assert.equal(single(`m v=${text} 1`)[0].v, value));

  for (const [text, value] of [['t', true], ['T', true], ['true', true], ['True', true], ['TRUE', true], ['f', false], ['F', false], ['false', false], ['False', false], ['FALSE', false]] as const) {
    it(`boolean ${text}`, () => assert.equal(single(`m v=${text} 1`)[0].v, value));
  }

  it('timestamps in every precision, exact to the nanosecond', () => {
    const cases: [string, string, bigint][] = [
      ['ns', '1700000000123456789', 1700000000123456789n], ['n', '-1', -1n], ['u', '1700000000123456', 1700000000123456000n],
      ['us', '1', 1000n], ['ms', '1700000000123', 1700000000123000000n], ['s', '1700000000', 1700000000000000000n],
      ['m', '28333333', 28333333n * 60_000_000_000n], ['h', '472222', 472222n * 3_600_000_000_000n], ['ns', '9223372036854775807', 9223372036854775807n],
      ['ns', '-9223372036854775808', -9223372036854775808n], ['ns', '0', 0n], ['s', '-1', -1_000_000_000n], ['us', '9223372036854775', 9223372036854775000n],
    ];
    for (const [precision, ts, ns] of cases) assert.equal(single(`m v=1 ${ts}`, precision)[0].$timestamp, ns, `${ts} ${precision}`);
  });

  it('a timestamp out of int64 once scaled by its precision is refused', () => {
    assert.throws(() => parse('m v=1 9223372037', { precision: 's' }), /line 1: invalid timestamp/);
    assert.throws(() => parse('m v=1 -2562048', { precision: 'h' }), /line 1: invalid timestamp/);
    assert.equal(rowsOf(parse('m v=1 9223372036', { precision: 's' }).tables[0])[0].$timestamp, 9223372036_000_000_000n);
  });

  it('a line without a timestamp gets the request time', () => {
    assert.equal(single('m v=1')[0].$timestamp, NOW);
    assert.equal(single('m v=1  \n')[0].$timestamp, NOW);
  });
});

describe('line protocol: escapes and quoting as InfluxDB documents them', () => {
  const cases: [string, string, Row][] = [
    ['measurement comma and space', 'my\\,meas\\ ure,t=1 v=1 1', { table: 'my,meas ure', t: '1' }],
    ['measurement keeps \\= and other backslashes', 'a\\=b\\x v=1 1', { table: 'a\\=b\\x' }],
    ['measurement keeps =', 'a=b v=1 1', { table: 'a=b' }],
    ['tag key and value: comma, equals, space', 'm,ta\\,g\\ k\\=ey=va\\,l\\ u\\=e v=1 1', { table: 'm', 'ta,g k=ey': 'va,l u=e' }],
    ['tag value keeps a backslash before other bytes', 'm,t=C:\\dir v=1 1', { table: 'm', t: 'C:\\dir' }],
    ['tag value with quotes is literal', 'm,t="q" v=1 1', { table: 'm', t: '"q"' }],
    ['field key: comma, equals, space', 'm f\\,i\\=e\\ ld=1 1', { table: 'm', 'f,i=e ld': 1 }],
    ['string: escaped quote and backslash', 'm s="say \\"hi\\" \\\\o/" 1', { table: 'm', s: 'say "hi" \\o/' }],
    ['string: other backslashes stay', 'm s="a\\nb\\tc" 1', { table: 'm', s: 'a\\nb\\tc' }],
    ['string: commas, spaces, equals inside quotes', 'm s="a, b=c d",v=2 1', { table: 'm', s: 'a, b=c d', v: 2 }],
    ['string: empty', 'm s="" 1', { table: 'm', s: '' }],
    ['string: UTF-8', 'm,région=Zürich s="日本語 ✓" 1', { table: 'm', région: 'Zürich', s: '日本語 ✓' }],
    ['measurement UTF-8 and emoji', '📈,t=1 v=1 1', { table: '📈', t: '1' }],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => {
      const { tables } = parse(text);
      assert.equal(tables.length, 1);
      const { table, ...columns } = expected;
      assert.equal(tables[0].name, table);
      const row = rowsOf(tables[0])[0];
      for (const [k, v] of Object.entries(columns)) assert.deepEqual(row[k], v, `${k} of ${text}`);
    });
  }

  it('a string value may hold a newline (as influxd reads it); lines after it keep their numbers', () => {
    const { tables } = parse('m s="a\nb" 1\nm s="c" 2\n');
    assert.deepEqual(rowsOf(tables[0]).map((r) => r.s), ['a\nb', 'c']);
    rejects('m s="a\nb" 1\nm s=bad 2\n', 3, /invalid field value/);
  });

  it('skips comments, blank lines, leading blanks and CRLF endings', () => {
    const { tables, lines } = parse('# a comment\n\n   m v=1 1\r\n\r\n# x,y=z v=1\nm v=2 2\r\n');
    assert.equal(lines, 2);
    assert.deepEqual(rowsOf(tables[0]).map((r) => r.v), [1, 2]);
  });

  it('several tables, rows and nulls for fields a line lacks', () => {
    const { tables, values } = parse('a,h=x v=1 1\nb w=2i 2\na,h=y u="s" 3\na v=4 4\n');
    assert.equal(values, 4);
    assert.deepEqual(tables.map((t) => t.name), ['a', 'b']);
    assert.deepEqual(rowsOf(tables[0]), [
      { $timestamp: 1n, h: 'x', v: 1 }, { $timestamp: 3n, h: 'y', u: 's' }, { $timestamp: 4n, v: 4 },
    ]);
    assert.deepEqual(rowsOf(tables[1]), [{ $timestamp: 2n, w: 2n }]);
  });

  it('the series cache gives the same answers across requests and field orders', () => {
    const parser = new LineProtocolParser();
    const text = 'cpu,host=a x=1,y=2 1\ncpu,host=a y=3,x=4 2\ncpu,host=a x=5 3\ncpu,host=a z=6,x=7 4\n';
    const first = rowsOf(parse(text, { parser }).tables[0]);
    const again = rowsOf(parse(text, { parser }).tables[0]);
    assert.deepEqual(first, again);
    assert.deepEqual(first, [
      { $timestamp: 1n, host: 'a', x: 1, y: 2 }, { $timestamp: 2n, host: 'a', x: 4, y: 3 },
      { $timestamp: 3n, host: 'a', x: 5 }, { $timestamp: 4n, host: 'a', x: 7, z: 6 },
    ]);
  });

  it('a field key that is a prefix of the previous line\'s does not match it', () => {
    const { tables } = parse('m,t=a ab=1 1\nm,t=a a=2 2\nm,t=a ab\\ =3 3\n');
    assert.deepEqual(rowsOf(tables[0]).map((r) => [r.ab, r.a, r['ab ']]), [[1, undefined, undefined], [undefined, 2, undefined], [undefined, undefined, 3]]);
  });
});

describe('line protocol: the first bad line is named and nothing is returned', () => {
  const cases: [string, string, number, RegExp][] = [
    ['no fields', 'm v=1 1\nm,t=a\n', 2, /missing fields/],
    ['no field value', 'm v= 1', 1, /missing field value|invalid field value/],
    ['no field key', 'm =1 1', 1, /missing field key/],
    ['field without =', 'm v 1', 1, /missing field value/],
    ['bad float', 'm v=1.2.3 1', 1, /invalid field value/],
    ['NaN is not a value', 'm v=NaN 1', 1, /invalid field value/],
    ['bad boolean', 'm v=tru 1', 1, /invalid field value/],
    ['integer out of int64', 'm v=9223372036854775808i 1', 1, /invalid integer/],
    ['unsigned over 2^63-1', 'm v=9223372036854775808u 1', 1, /unsigned/],
    ['negative unsigned', 'm v=-1u 1', 1, /unsigned/],
    ['unterminated string', 'm s="abc 1', 1, /unterminated/],
    ['bad timestamp', 'm v=1 12a', 1, /invalid timestamp/],
    ['timestamp out of int64', 'm v=1 9223372036854775808', 1, /invalid timestamp/],
    ['missing tag value', 'm,t= v=1 1', 1, /missing tag value/],
    ['missing tag key', 'm,=a v=1 1', 1, /missing tag key/],
    ['tag without =', 'm,t v=1 1', 1, /missing tag value/],
    ['missing measurement', ',t=a v=1 1', 1, /missing measurement/],
    ['duplicate tag', 'm,t=a,t=b v=1 1', 1, /duplicate tag/],
    ['$timestamp as a field', 'm $timestamp=1 1', 1, /time index/],
    ['bad 3rd line of 5', 'm v=1 1\nm v=2 2\nm v=x 3\nm v=4 4\nm v=5 5\n', 3, /invalid field value/],
    ['type conflict within a request', 'm v=1 1\nm v=2i 2\n', 2, /INT64 value for column 'v' of table 'm', which is DOUBLE/],
    ['field named like a tag', 'm,host=a v=1 1\nm host=2 2\n', 2, /DOUBLE value for column 'host' of table 'm', which is SYMBOL/],
  ];
  for (const [name, text, line, reason] of cases) it(name, () => rejects(text, line, reason));

  it('a value of another type than the table\'s column names the line, the column and both types', () => {
    rejects('cpu v=1 1\ncpu,host=a v="s" 2\n', 2, /a STRING value for column 'v' of table 'cpu', which is DOUBLE/, { cpu: { v: 'DOUBLE', host: 'SYMBOL' } });
    rejects('cpu,host=a v=1 1\n', 1, /SYMBOL value for column 'host' of table 'cpu', which is STRING/, { cpu: { host: 'STRING' } });
  });

  it('a measurement naming an alias that is not a table is refused with the engine\'s reason', () => {
    const parser = new LineProtocolParser();
    assert.throws(() => parser.parse(Buffer.from('blob1 v=1 1'), {
      multiplier: 1, now: NOW, schemaOf: () => { throw new Error("alias 'blob1' is a blob, not a table"); },
    }), /line 1: alias 'blob1' is a blob, not a table/);
  });

  it('the error carries the text of the line', () => {
    assert.throws(() => parse('m v=1 1\nm v=oops 2\n'), (e: unknown) => e instanceof LineProtocolError && e.text === 'm v=oops 2');
  });
});

describe('line protocol: existing tables', () => {
  it('adds only the columns the table lacks, and does not create it', () => {
    const { tables } = parse('cpu,host=a,dc=x v=1,w=2i 1\n', { schemas: { cpu: { host: 'SYMBOL', v: 'DOUBLE' } } });
    assert.equal(tables[0].create, false);
    assert.deepEqual(tables[0].addColumns, [{ name: 'dc', type: 'SYMBOL' }, { name: 'w', type: 'INT64' }]);
  });
});
