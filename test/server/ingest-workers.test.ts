// Ingest bodies parsed in worker threads (parse-off-thread.ts): a body over 64 KiB sent to a
// server with workers is parsed there, without the table schemas, and checked on the main thread
// against them. The answers must be those of a server parsing on its main thread: the same rows
// (compared column by column with such a server), the same 400 naming the same line for a bad
// line, a type conflict with an existing column, or a measurement naming a blob — nothing stored —
// and a worker killed while it parses fails only its request (503 WorkerFailed, nothing stored)
// while the pool replaces it.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import * as snappy from 'snappyjs';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { prompb } from './protocols/prompb.js';

let workers: TestServer;
let single: TestServer;
const tokens = new Map<TestServer, string>();

before(async () => {
  workers = await startTestServer({ parallelismCount: 2, maxInBufferSize: 64 * 1024 * 1024 });
  single = await startTestServer({ parallelismCount: 1, maxInBufferSize: 64 * 1024 * 1024 });
  for (const t of [workers, single]) tokens.set(t, await login(t.base));
});
after(async () => {
  await workers.stop();
  await single.stop();
});

const write = (t: TestServer, body: string | Uint8Array, path = '/write?precision=ns', headers: Record<string, string> = {}) => request(t.base, 'POST', path, { body, headers });

async function select(t: TestServer, query: string): Promise<Record<string, unknown[]>> {
  const r = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { Authorization: `Bearer ${tokens.get(t)}` } });
  assert.equal(r.status, 200, r.text());
  const tables = r.json().tables as { columns: { name: string; data: unknown[] }[] }[];
  return tables.length === 0 ? {} : Object.fromEntries(tables[0].columns.map((c) => [c.name, c.data]));
}

/** Jobs the workers ran so far. */
const jobs = (): number => workers.server.db.figures().workers.jobs;

/** `n` lines of every field type, tags, escapes and missing fields, into `table` (~100 bytes a line). */
function lines(table: string, n: number, from = 0): string[] {
  const out: string[] = [];
  for (let i = from; i < from + n; i++) {
    const fields = [`v=${(i * 0.37).toFixed(3)}`, `n=${i}i`, `ok=${i % 3 === 0 ? 't' : 'FALSE'}`];
    if (i % 5 !== 0) fields.push(`note="line \\"${i}\\" of a test"`);
    if (i % 7 === 0) fields.push(`big=${9_000_000_000_000_000_000n + BigInt(i)}u`);
    out.push(`${table},host=h${i % 13},dc=eu\\ ${i % 2} ${fields.join(',')} ${1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n}`);
  }
  return out;
}

describe('line protocol parsed in worker threads', () => {
  test('a large body lands as a server parsing on its main thread stores it', async () => {
    const body = `${lines('wk', 3_000).join('\n')}\n`;
    assert.ok(body.length > 64 * 1024);
    const before = jobs();
    for (const t of [workers, single]) assert.equal((await write(t, body)).status, 204);
    // And again, gzipped, into a table that now exists.
    const more = gzipSync(`${lines('wk', 3_000, 3_000).join('\n')}\n`);
    for (const t of [workers, single]) assert.equal((await write(t, more, '/write?precision=ns', { 'Content-Encoding': 'gzip' })).status, 204);
    assert.equal(jobs() - before, 2, 'the workers parsed both bodies');
    const query = 'SELECT * FROM wk';
    assert.deepEqual(await select(workers, query), await select(single, query));
    assert.deepEqual(await select(workers, 'SHOW wk'), await select(single, 'SHOW wk'));
    assert.equal((await select(workers, 'SELECT count(n) FROM wk'))['count(n)']![0], 6_000);
  });

  test('a bad line names its line, and nothing of the body is stored', async () => {
    const body = lines('bad', 2_000);
    body[1_500] = 'bad,host=x v=oops 1';
    const before = jobs();
    const r = await write(workers, `${body.join('\n')}\n`);
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /^line 1501: invalid field value: "bad,host=x v=oops 1"/);
    assert.equal(jobs() - before, 1);
    assert.deepEqual(await select(workers, "SELECT count(v) FROM bad IN RANGE(1970, 2100)").catch(() => ({})), {});
  });

  test('a field of another type than its column names the line and both types, nothing stored', async () => {
    assert.equal((await write(workers, 'typed v=1 1\n')).status, 204);
    const body = lines('other', 1_000).concat(lines('typed', 1_000));
    body[1_700] = 'typed v="text" 5';
    const r = await write(workers, `${body.join('\n')}\n`);
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /line 1701: a STRING value for column 'v' of table 'typed', which is DOUBLE/);
    assert.deepEqual(await select(workers, 'SELECT * FROM typed'), { $timestamp: ['1970-01-01T00:00:00.000000001Z'], v: [1] });
    const found = await request(workers.base, 'GET', `/query_find?query=${encodeURIComponent('find(type=ts)')}`);
    assert.equal((found.json().results as string[]).includes('other'), false);
  });

  test('a measurement naming a blob is refused whole', async () => {
    await workers.server.db.createBlob('blobby', 'x');
    const body = lines('fine', 1_500).concat(['blobby v=1 1']);
    const r = await write(workers, `${body.join('\n')}\n`);
    assertError(r, 400, 'InvalidLineProtocol');
    assert.match(r.json().message, /line 1501: alias 'blobby' is a blob, not a table/);
  });

  test('a worker killed while it parses fails its request alone; the pool replaces it', async () => {
    const pool = workers.server.db.workers!;
    const restarts = workers.server.db.figures().workers.restarts;
    // Large enough to keep a worker busy while it is killed (a few hundred ms of parsing).
    const body = `${lines('killed', 200_000).join('\n')}\n`;
    const sent = write(workers, body);
    for (let i = 0; i < 500 && pool.figures.busy === 0; i++) await new Promise((r) => setTimeout(r, 2));
    assert.equal(pool.figures.busy, 1, 'the body never reached a worker');
    await Promise.all([pool.terminate(0), pool.terminate(1)]);
    const r = await sent;
    assertError(r, 503, 'WorkerFailed');
    assert.match(r.json().message, /worker thread/);
    const found = await request(workers.base, 'GET', `/query_find?query=${encodeURIComponent('find(type=ts)')}`);
    assert.equal((found.json().results as string[]).includes('killed'), false);
    assert.ok(workers.server.db.figures().workers.restarts >= restarts + 2);
    // The replacements parse the next body.
    const before = jobs();
    assert.equal((await write(workers, `${lines('after', 1_000).join('\n')}\n`)).status, 204);
    assert.equal(jobs() - before, 1);
  });
});

describe('Prometheus remote write parsed in worker threads', () => {
  test('a large WriteRequest lands as a server parsing on its main thread stores it', async () => {
    const timeseries = Array.from({ length: 400 }, (_, s) => ({
      labels: [{ name: '__name__', value: `metric_${s % 3}` }, { name: 'instance', value: `host-${s % 40}:9100` }, { name: 'job', value: s % 2 === 0 ? 'node' : '' }],
      samples: Array.from({ length: 20 }, (_, k) => ({ value: s * 100 + k / 4, timestamp: 1_700_000_000_000 + k * 15_000 })),
    }));
    const req = snappy.compress(prompb('WriteRequest').encode({ timeseries }).finish());
    const uncompressed = prompb('WriteRequest').encode({ timeseries }).finish().length;
    assert.ok(uncompressed > 64 * 1024);
    const before = jobs();
    const headers = { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' };
    for (const t of [workers, single]) assert.equal((await write(t, req, '/api/prometheus/write', headers)).status, 204);
    assert.equal(jobs() - before, 1);
    for (let m = 0; m < 3; m++) {
      const query = `SELECT * FROM "$qdb.prom.metric_${m}"`;
      assert.deepEqual(await select(workers, query), await select(single, query));
    }
  });
});
