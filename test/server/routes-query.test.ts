// The bridge's query methods over HTTP: /query_exp (GET and POST) in both date formats on
// multi-table data, /query_find, read-only refusals, and their errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, request, startTestServer } from './helpers.js';
import type { Response, TestServer } from './helpers.js';

let t: TestServer;
const S2017 = 1483228800; // 2017-01-01T00:00:00Z in seconds
const ns = (seconds: number, nanos = 0): bigint => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);

before(async () => {
  t = await startTestServer();
  const db = t.server.db;
  await db.createTable('q.a', [{ name: 'price', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }]);
  await db.createTable('q.b', [{ name: 'price', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }]);
  await db.insert('q.a', { $timestamp: new BigInt64Array([ns(S2017), ns(S2017 + 1, 500_000_000)]), price: new Float64Array([1.5, 2.5]), n: new BigInt64Array([1n, 9007199254740993n]) });
  await db.insert('q.b', { $timestamp: new BigInt64Array([ns(S2017 + 86400, 123_456_789)]), price: new Float64Array([10]), n: new BigInt64Array([-3n]) });
  await db.attachTag('q.a', 'q.tag');
  await db.attachTag('q.b', 'q.tag');
  await db.createBlob('q.blob', 'x');
  await db.attachTag('q.blob', 'q.other');
});
after(async () => { await t.stop(); });

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => request(t.base, 'GET', path, { headers });
const exp = (query: string, extra = ''): Promise<Response> => get(`/query_exp?query=${encodeURIComponent(query)}${extra}`);

describe('query_exp', () => {
  test('SELECT * over two tables, native dates (the default): one table object per source table', async () => {
    const query = 'SELECT * FROM q.a, q.b';
    const r = await exp(query);
    assert.equal(r.status, 200, r.text());
    assert.equal(r.headers['content-type'], 'application/json');
    const body = r.json();
    assert.deepEqual(Object.keys(body), ['query', 'scanned_rows_count', 'tables_count', 'tables']);
    assert.equal(body.query, query);
    assert.equal(body.tables_count, 2);
    assert.deepEqual(body.tables.map((x: { table_name: string }) => x.table_name), ['q.a', 'q.b']);
    const [a, b] = body.tables;
    assert.deepEqual(Object.keys(a), ['table_name', 'rows_count', 'columns_count', 'columns_names', 'results']);
    assert.equal(a.rows_count, 2);
    assert.equal(a.columns_names[0], 'timestamp');
    assert.equal(a.columns_count, a.columns_names.length);
    assert.deepEqual(a.results[1][0], { tv_sec: S2017 + 1, tv_nsec: 500_000_000 });
    assert.deepEqual(b.results[0][0], { tv_sec: S2017 + 86400, tv_nsec: 123_456_789 });
    // int64 stays exact on the wire
    assert.match(r.text(), /9007199254740993/);
  });

  test('date_format=js: ISO 8601 UTC with milliseconds', async () => {
    const r = await exp('SELECT price FROM q.a, q.b', '&date_format=js');
    assert.equal(r.status, 200, r.text());
    const body = r.json();
    assert.deepEqual(body.tables[0].results, [['2017-01-01T00:00:00.000Z', 1.5], ['2017-01-01T00:00:01.500Z', 2.5]]);
    assert.deepEqual(body.tables[1].results, [['2017-01-02T00:00:00.123Z', 10]]);
    assert.deepEqual(body.tables[0].columns_names, ['timestamp', 'price']);
  });

  test('date_format=native explicitly', async () => {
    const body = (await exp('SELECT price FROM q.b', '&date_format=native')).json();
    assert.deepEqual(body.tables[0].results, [[{ tv_sec: S2017 + 86400, tv_nsec: 123_456_789 }, 10]]);
  });

  test('an aggregate per table over a range', async () => {
    const body = (await exp('SELECT sum(price), count(n) FROM q.a, q.b IN RANGE(2017, +1y)', '&date_format=js')).json();
    assert.equal(body.tables_count, 2);
    assert.deepEqual(body.tables[0].columns_names, ['timestamp', 'sum(price)', 'count(n)']);
    assert.deepEqual(body.tables[0].results, [['2017-01-01T00:00:00.000Z', 4, 2]]);
    assert.deepEqual(body.tables[1].results, [['2017-01-01T00:00:00.000Z', 10, 1]]);
  });

  test('an empty result: tables_count 0, tables []', async () => {
    const body = (await exp('SELECT * FROM q.a IN RANGE(2000, +1d)')).json();
    assert.equal(body.tables_count, 0);
    assert.deepEqual(body.tables, []);
  });

  test('POST with a JSON body, for long queries', async () => {
    const query = `SELECT price FROM q.a WHERE price > 0 ${' '.repeat(5000)}`;
    const r = await request(t.base, 'POST', '/query_exp', { body: JSON.stringify({ query, date_format: 'js' }) });
    assert.equal(r.status, 200, r.text());
    assert.equal(r.json().query, query);
    assert.deepEqual(r.json().tables[0].results[0], ['2017-01-01T00:00:00.000Z', 1.5]);
  });

  test('a large result is streamed and gzipped when accepted', async () => {
    await t.server.db.createTable('q.big', [{ name: 'v', type: 'INT64' }]);
    const count = 20_000;
    const ts = new BigInt64Array(count);
    const v = new BigInt64Array(count);
    for (let i = 0; i < count; i++) { ts[i] = ns(S2017 + i); v[i] = BigInt(i) * 1_000_000_007n; }
    await t.server.db.insert('q.big', { $timestamp: ts, v });
    const r = await get(`/query_exp?query=${encodeURIComponent('SELECT v FROM q.big')}`, { 'Accept-Encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    const body = r.json();
    assert.equal(body.tables[0].rows_count, count);
    assert.deepEqual(body.tables[0].results[count - 1], [{ tv_sec: S2017 + count - 1, tv_nsec: 0 }, (count - 1) * 1_000_000_007]);
  });

  const errors: { name: string; run: () => Promise<Response>; status: number; code: string; messageHas?: string; position?: boolean }[] = [
    { name: 'missing query → 400', run: () => get('/query_exp'), status: 400, code: 'BadRequest' },
    { name: 'date_format other than js/native → 400', run: () => exp('SELECT * FROM q.a', '&date_format=iso'), status: 400, code: 'BadRequest' },
    { name: 'syntax error → 400 with position', run: () => exp('SELEC * FROM q.a'), status: 400, code: 'QuerySyntax', position: true },
    { name: 'unknown column → 400', run: () => exp('SELECT nope FROM q.a'), status: 400, code: 'QuerySemantic' },
    { name: 'missing table → 400 (a query semantic error, with its position)', run: () => exp('SELECT * FROM q.missing'), status: 400, code: 'QuerySemantic', position: true },
    { name: 'INSERT → 400 naming POST /api/query', run: () => exp('INSERT INTO q.a ($timestamp, price) VALUES (2017, 1)'), status: 400, code: 'ReadOnlyQuery', messageHas: 'POST /api/query' },
    { name: 'CREATE → 400 naming POST /api/query', run: () => exp('CREATE TABLE q.new (v DOUBLE)'), status: 400, code: 'ReadOnlyQuery', messageHas: 'POST /api/query' },
    { name: 'DROP → 400 naming POST /api/query', run: () => exp('DROP TABLE q.a'), status: 400, code: 'ReadOnlyQuery', messageHas: 'POST /api/query' },
    { name: 'POST with invalid JSON → 400', run: () => request(t.base, 'POST', '/query_exp', { body: '{"query":' }), status: 400, code: 'BadRequest' },
    { name: 'POST without query → 400', run: () => request(t.base, 'POST', '/query_exp', { body: '{"date_format":"js"}' }), status: 400, code: 'BadRequest' },
    { name: 'POST with a bad date_format → 400', run: () => request(t.base, 'POST', '/query_exp', { body: '{"query":"SELECT * FROM q.a","date_format":"x"}' }), status: 400, code: 'BadRequest' },
  ];
  for (const c of errors) {
    test(c.name, async () => {
      const r = await c.run();
      assertError(r, c.status, c.code);
      if (c.messageHas !== undefined) assert.ok(r.json().message.includes(c.messageHas), r.json().message);
      if (c.position === true) assert.equal(typeof r.json().position, 'number');
    });
  }

  test('a refused write changed nothing', async () => {
    await exp('DROP TABLE q.a');
    assert.equal(t.server.db.describeTable('q.a').rowCount, 2);
  });
});

describe('query_find', () => {
  const cases: { query: string; results: string[] }[] = [
    { query: "find(tag='q.tag')", results: ['q.a', 'q.b'] },
    { query: "find(tag='q.tag' AND type=ts)", results: ['q.a', 'q.b'] },
    { query: "find(tag='q.other')", results: ['q.blob'] },
    { query: "find(tag='q.nothing')", results: [] },
  ];
  for (const c of cases) {
    test(c.query, async () => {
      const r = await get(`/query_find?query=${encodeURIComponent(c.query)}`);
      assert.equal(r.status, 200, r.text());
      assert.equal(r.text(), JSON.stringify({ query: c.query, results: c.results }));
    });
  }
  test('POST with a JSON body', async () => {
    const r = await request(t.base, 'POST', '/query_find', { body: JSON.stringify({ query: "find(tag='q.tag')" }) });
    assert.deepEqual(r.json(), { query: "find(tag='q.tag')", results: ['q.a', 'q.b'] });
  });
  test('find in query_exp gives one table per alias', async () => {
    const body = (await exp("find(tag='q.tag')")).json();
    assert.deepEqual(body.tables.map((x: { table_name: string }) => x.table_name), ['q.a', 'q.b']);
  });
  test('missing query → 400; a SELECT → 400; a write → 400', async () => {
    assertError(await get('/query_find'), 400, 'BadRequest');
    assertError(await get(`/query_find?query=${encodeURIComponent('SELECT * FROM q.a')}`), 400, 'BadRequest');
    assertError(await get(`/query_find?query=${encodeURIComponent('DROP TABLE q.a')}`), 400, 'ReadOnlyQuery');
  });
});

describe('Arrow on request', () => {
  test('Accept: application/vnd.apache.arrow.stream → an Arrow IPC stream', async () => {
    const r = await get(`/query_exp?query=${encodeURIComponent('SELECT price FROM q.a')}`, { Accept: 'application/vnd.apache.arrow.stream' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/vnd.apache.arrow.stream');
    // An IPC stream starts with a continuation marker.
    assert.equal(r.body.readUInt32LE(0), 0xffffffff);
  });

  test('an Arrow answer is sent uncompressed even when gzip is accepted (the JSON one is gzipped)', async () => {
    const q = `/query_exp?query=${encodeURIComponent('SELECT v FROM q.big')}`;
    const arrow = await get(q, { Accept: 'application/vnd.apache.arrow.stream', 'Accept-Encoding': 'gzip' });
    assert.equal(arrow.status, 200);
    assert.equal(arrow.headers['content-encoding'], undefined);
    assert.equal(arrow.rawBody.readUInt32LE(0), 0xffffffff);
    assert.ok(arrow.rawBody.length > 20_000 * 16, `${arrow.rawBody.length} bytes: every time and value`);
    assert.equal((await get(q, { 'Accept-Encoding': 'gzip' })).headers['content-encoding'], 'gzip');
  });
});
