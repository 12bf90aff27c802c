// Line protocol and Prometheus remote write over HTTP, read back through /api/query: every value
// type, tables created and columns added on first sight, precisions, gzip bodies; atomicity (a
// bad 3rd line of 5 stores nothing and names line 3, a type conflict stores nothing, a body
// over the limit is 413 before or after inflating); remote read answering matchers.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import * as snappy from 'snappyjs';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { prompb } from './protocols/prompb.js';

let t: TestServer;
let token: string;
before(async () => {
  t = await startTestServer({ maxInBufferSize: 64 * 1024 });
  token = await login(t.base);
});
after(async () => { await t.stop(); });

const write = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) => request(t.base, 'POST', path, { body, headers });

/** The table's columns by name, through /api/query (JSON as a client sees it). */
async function select(query: string): Promise<Record<string, unknown[]>> {
  const r = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { Authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, r.text());
  const tables = r.json().tables as { columns: { name: string; data: unknown[] }[] }[];
  if (tables.length === 0) return {};
  return Object.fromEntries(tables[0].columns.map((c) => [c.name, c.data]));
}

/** Whether a table exists (find(type=ts) through the bridge). */
async function exists(table: string): Promise<boolean> {
  const r = await request(t.base, 'GET', `/query_find?query=${encodeURIComponent('find(type=ts)')}`);
  return (r.json().results as string[]).includes(table);
}

describe('POST /write and /api/v2/write', () => {
  test('every field type and tags arrive as written', async () => {
    const body = [
      'weather,city=Zürich,station=a\\ b temp=21.5,hum=40i,ok=t,note="said \\"hi\\"",big=9223372036854775807u 1700000000000000000',
      'weather,city=Paris temp=-3,hum=-2i,ok=FALSE 1700000001000000000',
      '# a comment line',
      'weather,city=Paris temp=4e1 1700000002000000000',
    ].join('\n');
    const r = await write('/write?db=anything&rp=x', body);
    assert.equal(r.status, 204, r.text());
    assert.deepEqual(await select('SELECT * FROM weather'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z', '2023-11-14T22:13:22Z'],
      city: ['Zürich', 'Paris', 'Paris'], station: ['a b', null, null],
      temp: [21.5, -3, 40], hum: [40, -2, null], ok: [true, false, null], note: ['said "hi"', null, null],
      big: [9223372036854775807n, null, null].map((v) => (v === null ? null : Number(v))),
    });
    const types = await select('SHOW weather');
    assert.deepEqual(types.type, ['TIMESTAMP', 'SYMBOL', 'SYMBOL', 'DOUBLE', 'INT64', 'BOOLEAN', 'STRING', 'INT64']);
  });

  test('big int64 values read back exactly (not through a double)', async () => {
    assert.equal((await write('/write', 'exact v=9223372036854775807i,w=-9223372036854775808i 1')).status, 204);
    const r = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: 'SELECT v, w FROM exact' }), headers: { Authorization: `Bearer ${token}` } });
    assert.equal(r.text(), '{"tables":[{"columns":[{"data":[9223372036854775807],"name":"v","type":"int64"},{"data":[-9223372036854775808],"name":"w","type":"int64"}]}]}');
  });

  test('precisions of v1 and v2, and the request time when a line has none', async () => {
    const before = Date.now();
    for (const [path, ts] of [['/write?precision=s', '1700000003'], ['/write?precision=ms', '1700000004000'], ['/write?precision=u', '1700000005000000'], ['/write?precision=h', '472222'], ['/api/v2/write?org=o&bucket=b&precision=us', '1700000006000000'], ['/write', '']]) {
      assert.equal((await write(path, `prec v=1${ts === '' ? '' : ` ${ts}`}`)).status, 204, path);
    }
    const times = (await select('SELECT $timestamp FROM prec')).$timestamp as string[];
    assert.deepEqual(times.slice(0, 5), ['2023-11-14T22:00:00Z', '2023-11-14T22:13:23Z', '2023-11-14T22:13:24Z', '2023-11-14T22:13:25Z', '2023-11-14T22:13:26Z']);
    const now = Date.parse(times[5]);
    assert.ok(now >= before - 1 && now <= Date.now() + 1, times[5]);
    assertError(await write('/api/v2/write?precision=h', 'prec v=1 1'), 400, 'BadRequest');
    assertError(await write('/write?precision=d', 'prec v=1 1'), 400, 'BadRequest');
  });

  test('gzip bodies; a body over the limit is 413, inflated or not', async () => {
    assert.equal((await write('/write', gzipSync('zipped v=1 1\nzipped v=2 2\n'), { 'Content-Encoding': 'gzip' })).status, 204);
    assert.deepEqual((await select('SELECT v FROM zipped')).v, [1, 2]);
    const big = Buffer.from(`zipped v=3 3\n${'# padding\n'.repeat(8000)}`);
    assertError(await write('/write', big), 413, 'BodyTooLarge');
    assertError(await write('/write', gzipSync(big), { 'Content-Encoding': 'gzip' }), 413, 'BodyTooLarge');
    assertError(await write('/write', Buffer.from('not gzip'), { 'Content-Encoding': 'gzip' }), 400, 'BadRequest');
    assertError(await write('/write', 'zipped v=1 1', { 'Content-Encoding': 'br' }), 400, 'BadRequest');
    assert.deepEqual((await select('SELECT v FROM zipped')).v, [1, 2]);
  });
});

describe('a request is applied whole or not at all', () => {
  test('a bad 3rd line of 5 stores nothing and names line 3', async () => {
    const body = 'atom,h=a v=1 1\natom,h=b v=2 2\natom,h=c v=oops 3\natom,h=d v=4 4\nother v=5 5\n';
    const r = await write('/write', body);
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /^line 3: invalid field value: "atom,h=c v=oops 3"/);
    assert.equal(await exists('atom'), false);
    assert.equal(await exists('other'), false);
  });

  test('a type conflict with the table stores nothing, of any table, and names both types', async () => {
    assert.equal((await write('/write', 'conf v=1 1')).status, 204);
    const r = await write('/write', 'conf v=2 2\nfresh w=1 2\nconf,new=x v="text" 3\n');
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /line 3: a STRING value for column 'v' of table 'conf', which is DOUBLE/);
    assert.deepEqual(await select('SELECT * FROM conf'), { $timestamp: ['1970-01-01T00:00:00.000000001Z'], v: [1] });
    assert.deepEqual((await select('SHOW conf')).name, ['$timestamp', 'v']);
    assert.equal(await exists('fresh'), false);
  });

  test('new columns and tables of one request land together', async () => {
    const r = await write('/write', 'grow,host=a v=1 10\ngrow,host=a,dc=eu v=2,extra=5i 20\nside x=1 10\n');
    assert.equal(r.status, 204);
    assert.deepEqual(await select('SELECT * FROM grow'), {
      $timestamp: ['1970-01-01T00:00:00.00000001Z', '1970-01-01T00:00:00.00000002Z'], host: ['a', 'a'], v: [1, 2], dc: [null, 'eu'], extra: [null, 5],
    });
  });

  test('a measurement naming a blob is refused whole', async () => {
    await t.server.db.createBlob('ablob', 'x');
    const r = await write('/write', 'fine v=1 1\nablob v=1 1\n');
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /line 2: alias 'ablob' is a blob, not a table/);
    assert.equal(await exists('fine'), false);
  });
});

describe('Prometheus remote storage', () => {
  test('remote write lands in $qdb.prom.<metric>; remote read answers the matchers', async () => {
    const req = prompb('WriteRequest').encode({
      timeseries: [
        { labels: [{ name: '__name__', value: 'up' }, { name: 'job', value: 'node' }, { name: 'instance', value: 'a:1' }], samples: [{ value: 1, timestamp: 1_700_000_000_000 }, { value: 0, timestamp: 1_700_000_015_000 }] },
        { labels: [{ name: '__name__', value: 'up' }, { name: 'job', value: 'prom' }, { name: 'instance', value: 'b:2' }], samples: [{ value: 1, timestamp: 1_700_000_000_000 }] },
      ],
    }).finish();
    const headers = { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0' };
    const w = await write('/api/prometheus/write', snappy.compress(req), headers);
    assert.equal(w.status, 204, w.text());
    assert.deepEqual(await select('SELECT $timestamp, value, job, instance FROM "$qdb.prom.up"'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z', '2023-11-14T22:13:35Z'], value: [1, 1, 0], job: ['node', 'prom', 'node'], instance: ['a:1', 'b:2', 'a:1'],
    });
    const read = prompb('ReadRequest').encode({
      queries: [{ startTimestampMs: 1_700_000_000_000, endTimestampMs: 1_700_000_015_000, matchers: [{ type: 0, name: '__name__', value: 'up' }, { type: 2, name: 'job', value: 'no.*' }] }],
    }).finish();
    const r = await write('/api/prometheus/read', snappy.compress(read), { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'snappy');
    const answer = prompb('ReadResponse').toObject(prompb('ReadResponse').decode(snappy.uncompress(r.body)), { longs: Number });
    assert.deepEqual(answer.results[0].timeseries, [{
      labels: [{ name: '__name__', value: 'up' }, { name: 'instance', value: 'a:1' }, { name: 'job', value: 'node' }],
      samples: [{ value: 1, timestamp: 1_700_000_000_000 }, { timestamp: 1_700_000_015_000 }],
    }]);
  });

  test('a body that is not snappy, or not a WriteRequest, is a 400 and writes nothing', async () => {
    assertError(await write('/api/prometheus/write', 'plain text'), 400, 'InvalidPrometheusRequest');
    assertError(await write('/api/prometheus/write', snappy.compress(Uint8Array.from([0x0a, 0x09, 0x0a]))), 400, 'InvalidPrometheusRequest');
  });
});
