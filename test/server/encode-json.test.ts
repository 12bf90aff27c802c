// The JSON encoders (server/encode): exact bytes of every shape of api/query (SPEC §4) and
// query_exp (seed 000 §2), value formatting at the edges (int64 and time extremes, NaN/±Infinity,
// escapes, lone surrogates, base64), chunking, and a differential check against the naive
// reference encoder on random results and on real db.query results.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { QueryResult, ResultColumn, ResultTable, ResultType } from '../../engine/index.js';
import { encodeApiQuery, encodeQueryExp } from '../../server/encode/index.js';
import { openExampleDb } from '../query/db-fixture.js';
import type { Database } from '../../engine/index.js';
import { collect, MAX_I64, MIN_I64, randomResult, refApiQuery, refQueryExp, T2017 } from './encode-fixtures.js';

const S = 1_000_000_000n;

function col(name: string, type: ResultType, values: ResultColumn['values'], nulls: number[] | null = null): ResultColumn {
  return { name, type, values, nulls: nulls === null ? null : Uint8Array.from(nulls) };
}

function table(name: string, timestamps: bigint[], columns: ResultColumn[], timestampNulls: number[] | null = null): ResultTable {
  return { name, rowCount: timestamps.length, timestamps: BigInt64Array.from(timestamps), timestampNulls: timestampNulls === null ? null : Uint8Array.from(timestampNulls), columns };
}

function rows(...tables: ResultTable[]): QueryResult {
  return { kind: 'rows', tables, scannedRowsCount: 12 };
}

const apiText = (r: QueryResult) => collect(encodeApiQuery(r)).toString('utf8');
const expText = (q: string, r: QueryResult, f: 'js' | 'native') => collect(encodeQueryExp(q, r, f)).toString('utf8');

describe('api/query: exact bytes (SPEC §4)', () => {
  const cases: { name: string; result: QueryResult; expected: string }[] = [
    {
      name: 'one count column',
      result: rows(table('t', [0n], [col('count(col)', 'count', BigInt64Array.of(3n))])),
      expected: '{"tables":[{"columns":[{"data":[3],"name":"count(col)","type":"count"}]}]}',
    },
    {
      name: 'every type, nulls, no row time written',
      result: rows(table('stocks', [T2017, T2017 + 1n], [
        col('$timestamp', 'timestamp', BigInt64Array.of(T2017, T2017 + S / 2n)),
        col('d', 'double', Float64Array.of(1.5, NaN), [0, 0]),
        col('i', 'int64', BigInt64Array.of(MIN_I64, 99n), [0, 1]),
        col('s', 'string', ['a"b', null]),
        col('y', 'symbol', ['x', 'x']),
        col('b', 'blob', [Uint8Array.of(0, 255), new Uint8Array(0)]),
        col('n', 'none', new Float64Array(2), [1, 1]),
      ])),
      expected: '{"tables":[{"columns":[' +
        '{"data":["2017-01-01T00:00:00Z","2017-01-01T00:00:00.5Z"],"name":"$timestamp","type":"timestamp"},' +
        '{"data":[1.5,null],"name":"d","type":"double"},' +
        '{"data":[-9223372036854775808,null],"name":"i","type":"int64"},' +
        '{"data":["a\\"b",null],"name":"s","type":"string"},' +
        '{"data":["x","x"],"name":"y","type":"symbol"},' +
        '{"data":["AP8=",""],"name":"b","type":"blob"},' +
        '{"data":[null,null],"name":"n","type":"none"}]}]}',
    },
    {
      name: 'one table per source table',
      result: rows(table('a', [1n], [col('v', 'double', Float64Array.of(1))]), table('b', [2n, 3n], [col('w', 'int64', BigInt64Array.of(2n, 3n))])),
      expected: '{"tables":[{"columns":[{"data":[1],"name":"v","type":"double"}]},{"columns":[{"data":[2,3],"name":"w","type":"int64"}]}]}',
    },
    { name: 'no rows', result: rows(), expected: '{"tables":[]}' },
    { name: 'CREATE / INSERT (kind ok)', result: { kind: 'ok', tables: [], scannedRowsCount: 0 }, expected: '{"tables":[]}' },
    {
      name: 'find: one table per alias',
      result: { kind: 'find', tables: [], scannedRowsCount: 0, aliases: ['alias1', 'a/b.c', 'é"'] },
      expected: '{"tables":[{"columns":null,"name":"alias1"},{"columns":null,"name":"a/b.c"},{"columns":null,"name":"é\\""}]}',
    },
    { name: 'find without matches', result: { kind: 'find', tables: [], scannedRowsCount: 0, aliases: [] }, expected: '{"tables":[]}' },
  ];
  for (const c of cases) test(c.name, () => assert.equal(apiText(c.result), c.expected));
});

describe('query_exp: exact bytes (seed 000 §2)', () => {
  const grouped = rows(table('stocks.apple', [T2017, T2017 + 86_400n * S], [col('count(close)', 'count', BigInt64Array.of(3n, 2n)), col('avg(close)', 'double', Float64Array.of(11, 13.5))]));
  const head = (q: string, tables: number) => `{"query":${JSON.stringify(q)},"scanned_rows_count":12,"tables_count":${tables},"tables":[`;
  const cases: { name: string; result: QueryResult; format: 'js' | 'native'; expected: string }[] = [
    {
      name: 'date_format js',
      result: grouped,
      format: 'js',
      expected: `${head('Q', 1)}{"table_name":"stocks.apple","rows_count":2,"columns_count":3,"columns_names":["timestamp","count(close)","avg(close)"],` +
        '"results":[["2017-01-01T00:00:00.000Z",3,11],["2017-01-02T00:00:00.000Z",2,13.5]]}]}',
    },
    {
      name: 'date_format native',
      result: grouped,
      format: 'native',
      expected: `${head('Q', 1)}{"table_name":"stocks.apple","rows_count":2,"columns_count":3,"columns_names":["timestamp","count(close)","avg(close)"],` +
        '"results":[[{"tv_sec":1483228800,"tv_nsec":0},3,11],[{"tv_sec":1483315200,"tv_nsec":0},2,13.5]]}]}',
    },
    {
      name: 'a row without a time → null',
      result: rows(table('t', [0n], [col('sum(v)', 'double', Float64Array.of(2))], [1])),
      format: 'js',
      expected: `${head('Q', 1)}{"table_name":"t","rows_count":1,"columns_count":2,"columns_names":["timestamp","sum(v)"],"results":[[null,2]]}]}`,
    },
    { name: 'empty result', result: rows(), format: 'native', expected: `${head('Q', 0)}]}` },
    {
      name: 'two tables',
      result: rows(table('a', [1n], []), table('b', [-1n], [])),
      format: 'native',
      expected: `${head('Q', 2)}{"table_name":"a","rows_count":1,"columns_count":1,"columns_names":["timestamp"],"results":[[{"tv_sec":0,"tv_nsec":1}]]},` +
        '{"table_name":"b","rows_count":1,"columns_count":1,"columns_names":["timestamp"],"results":[[{"tv_sec":-1,"tv_nsec":999999999}]]}]}',
    },
    {
      name: 'find: one empty table per alias',
      result: { kind: 'find', tables: [], scannedRowsCount: 12, aliases: ['x'] },
      format: 'js',
      expected: `${head('Q', 1)}{"table_name":"x","rows_count":0,"columns_count":0,"columns_names":[],"results":[]}]}`,
    },
  ];
  for (const c of cases) test(c.name, () => assert.equal(expText('Q', c.result, c.format), c.expected));

  test('the query text is escaped', () => {
    assert.equal(expText('SELECT "a\n\ud800"', rows(), 'js'), '{"query":"SELECT \\"a\\n\\ud800\\"","scanned_rows_count":12,"tables_count":0,"tables":[]}');
  });
});

describe('cell formatting at the edges', () => {
  const one = (c: ResultColumn) => apiText(rows(table('t', Array.from({ length: c.values.length }, () => 0n), [c])));
  const data = (text: string) => text.slice('{"tables":[{"columns":[{"data":['.length, text.indexOf('],"name"'));
  test('int64 exact at ±2^63 and around ±2^53 (never through a float)', () => {
    const values = [MIN_I64, MAX_I64, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 53n - 1n, -(2n ** 21n) * 2n ** 32n, 2n ** 21n * 2n ** 32n, 4294967295n, 4294967296n, -4294967296n, 0n, -1n];
    assert.equal(data(one(col('i', 'int64', BigInt64Array.from(values)))), values.join(','));
  });
  test('doubles: shortest round-trip text; NaN and ±Infinity → null; -0 → 0', () => {
    const values = [0.1, -0, 1e21, 5e-324, Number.MAX_VALUE, 2 ** 53, -(2 ** 53) - 2, 123456789012, -1.5, NaN, Infinity, -Infinity, 1e-7];
    const expected = '0.1,0,1e+21,5e-324,1.7976931348623157e+308,9007199254740992,-9007199254740994,123456789012,-1.5,null,null,null,1e-7';
    assert.equal(data(one(col('d', 'double', Float64Array.from(values)))), expected);
    // Short columns (an aggregate's few values) take another path: the same text, value by value.
    assert.deepEqual(values.map((v) => data(one(col('d', 'double', Float64Array.of(v))))), expected.split(','));
    assert.equal(data(one(col('d', 'double', Float64Array.of(-0, NaN, 2.5), [0, 0, 1]))), '0,null,null');
  });
  test('timestamps: RFC 3339 with nanoseconds, trailing zeros trimmed, whole int64 range', () => {
    const values = [T2017, T2017 + S / 2n, T2017 + 1n, T2017 + 123_456_000n, T2017 + 100_000n, -1n, MIN_I64, MAX_I64, 951_782_400n * S];
    assert.equal(data(one(col('t', 'timestamp', BigInt64Array.from(values)))), [
      '"2017-01-01T00:00:00Z"', '"2017-01-01T00:00:00.5Z"', '"2017-01-01T00:00:00.000000001Z"', '"2017-01-01T00:00:00.123456Z"',
      '"2017-01-01T00:00:00.0001Z"', '"1969-12-31T23:59:59.999999999Z"', '"1677-09-21T00:12:43.145224192Z"', '"2262-04-11T23:47:16.854775807Z"',
      '"2000-02-29T00:00:00Z"',
    ].join(','));
  });
  test('query_exp times: js milliseconds (floor) and native seconds/nanoseconds at the extremes', () => {
    const r = rows(table('t', [MIN_I64, MAX_I64, -1n], []));
    assert.match(expText('q', r, 'js'), /\[\["1677-09-21T00:12:43\.145Z"\],\["2262-04-11T23:47:16\.854Z"\],\["1969-12-31T23:59:59\.999Z"\]\]/);
    assert.match(expText('q', r, 'native'), /\[\[\{"tv_sec":-9223372037,"tv_nsec":145224192\}\],\[\{"tv_sec":9223372036,"tv_nsec":854775807\}\],\[\{"tv_sec":-1,"tv_nsec":999999999\}\]\]/);
  });
  test('query_exp native times around the fast paths: 9/10/11-digit seconds, a changing six-digit prefix, 8/9-digit nanoseconds', () => {
    const cases: [bigint, string][] = [
      [999_999_999_999_999_999n, '{"tv_sec":999999999,"tv_nsec":999999999}'],
      [1_000_000_000_000_000_000n, '{"tv_sec":1000000000,"tv_nsec":0}'],
      [1_000_009_999_099_999_999n, '{"tv_sec":1000009999,"tv_nsec":99999999}'],
      [1_000_010_000_100_000_000n, '{"tv_sec":1000010000,"tv_nsec":100000000}'],
      [1_000_009_999_000_000_001n, '{"tv_sec":1000009999,"tv_nsec":1}'],
      [9_223_372_036_854_775_807n, '{"tv_sec":9223372036,"tv_nsec":854775807}'],
      [-1_000_000_000_000_000_000n, '{"tv_sec":-1000000000,"tv_nsec":0}'],
    ];
    const r = rows(table('t', cases.map(([ns]) => ns), []));
    assert.ok(expText('q', r, 'native').includes(`"results":[${cases.map(([, json]) => `[${json}]`).join(',')}]`));
    assert.equal(expText('q', r, 'native'), refQueryExp('q', r, 'native'));
  });
  test('strings: quotes, backslash, control characters, lone surrogates, non-ASCII, empty', () => {
    const values = ['"\\/', '\u0000\u001f\u007f', '\ud800', 'x\udfffy', '😀é€', '', '\u2028', null];
    const text = data(one(col('s', 'string', values)));
    assert.equal(text, '"\\"\\\\/","\\u0000\\u001f\u007f","\\ud800","x\\udfffy","😀é€","","\u2028",null');
    assert.deepEqual(JSON.parse(`[${text}]`), values);
  });
  test('blobs: base64, empty blob → ""', () => {
    const values = [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(1, 2, 3), new Uint8Array(300).fill(7).subarray(10, 13), null];
    assert.equal(data(one(col('b', 'blob', values))), '"","AA==","AQID","BwcH",null');
  });
  test('typed arrays that are views into a shared buffer are read at their own offset', () => {
    const shared = new ArrayBuffer(64);
    const ints = new BigInt64Array(shared, 16, 2);
    ints.set([5n, MIN_I64]);
    const doubles = new Float64Array(shared, 40, 2);
    doubles.set([0.25, -2]);
    const r = rows({ name: 't', rowCount: 2, timestamps: new BigInt64Array(shared, 0, 2), timestampNulls: null, columns: [col('i', 'int64', ints), col('d', 'double', doubles)] });
    assert.equal(apiText(r), '{"tables":[{"columns":[{"data":[5,-9223372036854775808],"name":"i","type":"int64"},{"data":[0.25,-2],"name":"d","type":"double"}]}]}');
  });
});

describe('chunks', () => {
  test('a large result comes as many ~64 KiB chunks that join into the same JSON', () => {
    const n = 50_000;
    const r = rows(table('t', Array.from({ length: n }, (_, i) => T2017 + BigInt(i) * S), [col('v', 'int64', BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_003n))]));
    for (const chunks of [[...encodeApiQuery(r)], [...encodeQueryExp('q', r, 'js')]]) {
      assert.ok(chunks.length >= 5, `only ${chunks.length} chunks`);
      for (const c of chunks) assert.ok(c.byteLength <= 64 * 1024 + 4096, `chunk of ${c.byteLength} bytes`);
    }
    assert.equal(apiText(r), refApiQuery(r));
    assert.equal(expText('q', r, 'js'), refQueryExp('q', r, 'js'));
  });
  test('double columns longer than a block of 1,024, with nulls, NaN and ±Infinity', () => {
    const n = 5000;
    const specials = [NaN, Infinity, -Infinity, -0, 5e-324, 1e21, 0.1];
    const values = Float64Array.from({ length: n }, (_, i) => (i % 97 === 0 ? specials[i % specials.length] : (i - 2500) / 7));
    const nulls = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? 1 : 0));
    const r = rows(table('t', Array.from({ length: n }, (_, i) => BigInt(i)), [col('a', 'double', values, nulls), col('b', 'double', values)]));
    assert.equal(apiText(r), refApiQuery(r));
    assert.equal(expText('q', r, 'js'), refQueryExp('q', r, 'js'));
  });
  test('a value larger than a chunk is written whole', () => {
    const big = new Uint8Array(200_000).map((_, i) => i);
    const r = rows(table('t', [0n, 1n], [col('b', 'blob', [big, Uint8Array.of(1)]), col('s', 'string', ['é'.repeat(100_000), 'x'])]));
    assert.equal(apiText(r), refApiQuery(r));
    assert.equal(expText('q', r, 'native'), refQueryExp('q', r, 'native'));
  });
  test('chunks already handed out are not overwritten by later ones', () => {
    const n = 30_000;
    const r = rows(table('t', Array.from({ length: n }, (_, i) => BigInt(i)), [col('v', 'double', Float64Array.from({ length: n }, (_, i) => i / 7))]));
    const copies: Buffer[] = [];
    const kept: Uint8Array[] = [];
    for (const c of encodeQueryExp('q', r, 'native')) {
      copies.push(Buffer.from(c));
      kept.push(c);
    }
    assert.deepEqual(kept.map((c) => Buffer.from(c)), copies);
  });
});

describe('differential: random results against the naive reference encoder', () => {
  test('api/query and query_exp (js, native) byte-identical for 400 seeded random results', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = randomResult(seed);
      const q = `SELECT * FROM t${seed}`;
      const api = apiText(r);
      assert.equal(api, refApiQuery(r), `seed ${seed}: api/query`);
      assert.doesNotThrow(() => JSON.parse(api), `seed ${seed}: api/query is JSON`);
      for (const f of ['js', 'native'] as const) {
        const text = expText(q, r, f);
        assert.equal(text, refQueryExp(q, r, f), `seed ${seed}: query_exp ${f}`);
        assert.doesNotThrow(() => JSON.parse(text), `seed ${seed}: query_exp ${f} is JSON`);
      }
    }
  });
});

describe('real db.query results', () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openExampleDb()));
  after(() => close());

  const queries = [
    'SELECT * FROM stocks.apple',
    'SELECT count(close), sum(volume), avg(open), first(sym), last(note) FROM stocks.apple GROUP BY day',
    'SELECT close FROM stocks.apple, stocks.msft',
    'SELECT v FROM big',
    'SELECT sum(close) FROM stocks.apple',
    'SELECT * FROM stocks.apple WHERE close > 1000',
    'SHOW stocks.apple',
    'find(tag=\'nasdaq\')',
  ];
  for (const q of queries) {
    test(q, async () => {
      const r = await db.query(q);
      assert.equal(apiText(r), refApiQuery(r));
      assert.equal(expText(q, r, 'js'), refQueryExp(q, r, 'js'));
      assert.equal(expText(q, r, 'native'), refQueryExp(q, r, 'native'));
    });
  }

  test('exact bytes of a count over a real table', async () => {
    assert.equal(apiText(await db.query('SELECT count(close) FROM stocks.apple')), '{"tables":[{"columns":[{"data":[8],"name":"count(close)","type":"count"}]}]}');
    assert.equal(apiText(await db.query('SELECT v FROM big')), '{"tables":[{"columns":[{"data":[4611686018427387904,4611686018427387903,-4611686018427387904,9007199254740993],"name":"v","type":"int64"}]}]}');
  });

  test('exact bytes of a query_exp GROUP BY day', async () => {
    const q = 'SELECT count(close) FROM stocks.msft GROUP BY day';
    const r = await db.query(q);
    assert.equal(expText(q, r, 'js'), `{"query":${JSON.stringify(q)},"scanned_rows_count":${r.scannedRowsCount},"tables_count":1,"tables":[{"table_name":"stocks.msft","rows_count":2,"columns_count":2,` +
      '"columns_names":["timestamp","count(close)"],"results":[["2017-01-01T00:00:00.000Z",1],["2017-02-01T00:00:00.000Z",1]]}]}');
  });
});
