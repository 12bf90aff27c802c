// The REST routes of seed 001 over HTTP: api/query's exact bytes (SELECT, no rows, CREATE, INSERT
// with now, find, errors), both body forms, the option routes, and gzip on every answer.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { Response, TestServer } from './helpers.js';

let t: TestServer;
let token: string;
before(async () => {
  t = await startTestServer({ maxInBufferSize: 2_000_000, parallelismCount: 3 });
  token = await login(t.base);
});
after(async () => { await t.stop(); });

const auth = (): Record<string, string> => ({ Authorization: `Bearer ${token}` });
const query = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  request(t.base, 'POST', '/api/query', { body: JSON.stringify(body), headers: { ...auth(), ...headers } });

describe('api/query: exact bytes', () => {
  const steps: { name: string; body: unknown; bytes: string }[] = [
    { name: 'CREATE', body: { query: 'CREATE TABLE api.t (price DOUBLE, n INT64, s STRING, y SYMBOL(sym), b BLOB)' }, bytes: '{"tables":[]}' },
    { name: 'INSERT (bare JSON string body)', body: "INSERT INTO api.t ($timestamp, price, n, s, y, b) VALUES (2017-01-01T00:00:00, 1.5, 9007199254740993, 'a\"b', 'x', 'hi'), (2017-01-01T00:00:00.5, 2, -1, 'c', 'x', '')", bytes: '{"tables":[]}' },
    { name: 'SELECT count', body: { query: 'SELECT count(price) FROM api.t' }, bytes: '{"tables":[{"columns":[{"data":[2],"name":"count(price)","type":"count"}]}]}' },
    {
      name: 'SELECT columns of every type',
      body: { query: 'SELECT $timestamp, price, n, s, y, b FROM api.t' },
      bytes: '{"tables":[{"columns":[' +
        '{"data":["2017-01-01T00:00:00Z","2017-01-01T00:00:00.5Z"],"name":"$timestamp","type":"timestamp"},' +
        '{"data":[1.5,2],"name":"price","type":"double"},' +
        '{"data":[9007199254740993,-1],"name":"n","type":"int64"},' +
        '{"data":["a\\"b","c"],"name":"s","type":"string"},' +
        '{"data":["x","x"],"name":"y","type":"symbol"},' +
        `{"data":["${Buffer.from('hi').toString('base64')}",""],"name":"b","type":"blob"}]}]}`,
    },
    { name: 'SELECT with no rows', body: { query: 'SELECT price FROM api.t IN RANGE(2000, +1d)' }, bytes: '{"tables":[]}' },
    { name: 'DROP', body: { query: 'DROP TABLE IF EXISTS api.none' }, bytes: '{"tables":[]}' },
  ];
  for (const s of steps) {
    test(s.name, async () => {
      const r = await query(s.body);
      assert.equal(r.status, 200, r.text());
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.text(), s.bytes);
    });
  }

  test('INSERT with now, then SELECT: the row time is the moment of the insert', async () => {
    assert.equal((await query({ query: 'CREATE TABLE api.now (v INT64)' })).text(), '{"tables":[]}');
    const before = Date.now();
    assert.equal((await query({ query: 'INSERT INTO api.now ($timestamp, v) VALUES (now, 7)' })).text(), '{"tables":[]}');
    const afterMs = Date.now();
    const text = (await query({ query: 'SELECT $timestamp, v FROM api.now' })).text();
    const m = /^\{"tables":\[\{"columns":\[\{"data":\["([^"]+)"\],"name":"\$timestamp","type":"timestamp"\},\{"data":\[7\],"name":"v","type":"int64"\}\]\}\]\}$/.exec(text);
    assert.ok(m !== null, text);
    assert.match(m[1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    const at = Date.parse(m[1]!);
    assert.ok(at >= Math.floor(before / 1000) * 1000 - 1000 && at <= afterMs + 1000, `${m[1]} not within the insert`);
  });

  test('find: one table per alias, columns null', async () => {
    await t.server.db.attachTag('api.t', 'api.tag');
    await t.server.db.attachTag('api.now', 'api.tag');
    const r = await query({ query: "find(tag='api.tag')" });
    assert.equal(r.text(), '{"tables":[{"columns":null,"name":"api.now"},{"columns":null,"name":"api.t"}]}');
    assert.equal((await query({ query: "find(tag='api.none')" })).text(), '{"tables":[]}');
  });

  const errors: { name: string; body: string; status: number; code: string; position?: boolean }[] = [
    { name: 'syntax error', body: JSON.stringify({ query: 'SELEKT 1' }), status: 400, code: 'QuerySyntax', position: true },
    { name: 'semantic error', body: JSON.stringify({ query: 'SELECT nope FROM api.t' }), status: 400, code: 'QuerySemantic', position: true },
    { name: 'CREATE of an existing table', body: JSON.stringify({ query: 'CREATE TABLE api.t (v DOUBLE)' }), status: 422, code: 'AliasAlreadyExists', position: true },
    { name: 'invalid JSON body', body: '{"query":', status: 400, code: 'BadRequest' },
    { name: 'JSON without query', body: '{"q":"SELECT 1"}', status: 400, code: 'BadRequest' },
    { name: 'query not a string', body: '{"query":42}', status: 400, code: 'BadRequest' },
    { name: 'empty body', body: '', status: 400, code: 'BadRequest' },
    { name: 'query text over 1 MiB', body: JSON.stringify({ query: `SELECT * FROM api.t${' '.repeat(1024 * 1024)}` }), status: 413, code: 'QueryTooLarge' },
  ];
  for (const e of errors) {
    test(`error: ${e.name} → ${e.status}`, async () => {
      const r = await request(t.base, 'POST', '/api/query', { body: e.body, headers: auth() });
      assertError(r, e.status, e.code);
      const keys = Object.keys(r.json());
      assert.deepEqual(keys, e.position === true ? ['code', 'error', 'message', 'position'] : ['code', 'error', 'message']);
    });
  }
});

describe('options', () => {
  test('max-in-buffer-size and parallelism are bare JSON integers', async () => {
    const m = await request(t.base, 'GET', '/api/option/max-in-buffer-size', { headers: auth() });
    assert.equal(m.status, 200);
    assert.equal(m.text(), '2000000');
    const p = await request(t.base, 'GET', '/api/option/parallelism', { headers: auth() });
    assert.equal(p.text(), '3');
  });
  test("defaults: 131072000 and the machine's cores (SPEC §5)", async () => {
    const other = await startTestServer();
    try {
      const tk = await login(other.base);
      assert.equal((await request(other.base, 'GET', '/api/option/max-in-buffer-size', { headers: { Authorization: `Bearer ${tk}` } })).text(), '131072000');
      assert.equal((await request(other.base, 'GET', '/api/option/parallelism', { headers: { Authorization: `Bearer ${tk}` } })).text(), String(availableParallelism()));
    } finally {
      await other.stop();
    }
  });
});

describe('compression and login', () => {
  test('every /api answer is gzipped when accepted, even 13 bytes', async () => {
    const r = await query({ query: 'DROP TABLE IF EXISTS api.none' }, { 'Accept-Encoding': 'gzip' });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.rawBody[0], 0x1f);
    assert.equal(r.text(), '{"tables":[]}');
    const e = await request(t.base, 'POST', '/api/query', { body: '{', headers: { ...auth(), 'Accept-Encoding': 'gzip' } });
    assert.equal(e.headers['content-encoding'], 'gzip');
    assertError(e, 400, 'BadRequest');
  });
  test('login answers {"token"}; bodies that are not a key file → 400', async () => {
    const r = await request(t.base, 'POST', '/api/login', { body: '{"username":"","secret_key":""}' });
    assert.deepEqual(Object.keys(r.json()), ['token']);
    for (const body of ['', 'nope', '[]', '{"username":1,"secret_key":""}', '{"username":"","secret_key":null}']) {
      assertError(await request(t.base, 'POST', '/api/login', { body }), 400, 'BadRequest');
    }
  });
});

describe('Arrow', () => {
  test('Accept: application/vnd.apache.arrow.stream on /api/query → an Arrow IPC stream, gzipped like every /api answer', async () => {
    const r = await query({ query: 'SELECT price FROM api.t' }, { Accept: 'application/vnd.apache.arrow.stream', 'Accept-Encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/vnd.apache.arrow.stream');
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.body.readUInt32LE(0), 0xffffffff);
  });
});
