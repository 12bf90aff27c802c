// The routes InfluxDB and QuestDB clients probe before writing (/ping, /health, /settings, the
// two InfluxQL statements of /query), the token forms they send when security is on, and
// GET /metrics in Prometheus' text format, checked by Prometheus' own promtool.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { assertError, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyFileText, makeSecurity } from './security-fixtures.js';
import { peerMissing } from './peers.js';

let t: TestServer;
// durability 'os': a WAL is written, so /metrics has WAL bytes to show.
before(async () => { t = await startTestServer({ durability: 'os' }); });
after(async () => { await t.stop(); });

describe('InfluxDB and QuestDB probes', () => {
  test('/ping answers 204 with the InfluxDB version header (GET and HEAD)', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await request(t.base, method, '/ping');
      assert.equal(r.status, 204);
      assert.equal(r.headers['x-influxdb-version'], '1.8.10');
      assert.equal(r.body.length, 0);
    }
  });

  test('/health answers InfluxDB 1.8\'s shape', async () => {
    const r = await request(t.base, 'GET', '/health');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json()), ['name', 'message', 'status', 'checks', 'version']);
    assert.equal(r.json().status, 'pass');
  });

  test('/settings lists line-protocol version 1 for QuestDB clients', async () => {
    const r = await request(t.base, 'GET', '/settings');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json().config['line.proto.support.versions'], [1]);
  });

  test('/query: CREATE DATABASE is a no-op, SHOW DATABASES lists svc, in URL or form body', async () => {
    const created = await request(t.base, 'POST', '/query', { body: 'q=CREATE+DATABASE+%22telegraf%22', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.equal(created.text(), '{"results":[{"statement_id":0}]}');
    const shown = await request(t.base, 'GET', '/query?q=show%20databases');
    assert.equal(shown.text(), '{"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"],"values":[["svc"]]}]}]}');
    const both = await request(t.base, 'GET', `/query?q=${encodeURIComponent('CREATE DATABASE x WITH DURATION 1d; SHOW DATABASES')}`);
    assert.deepEqual(both.json().results.map((r: { statement_id: number }) => r.statement_id), [0, 1]);
  });

  test('/query: any other InfluxQL is a 400 naming POST /api/query', async () => {
    const r = await request(t.base, 'GET', '/query?q=SELECT+*+FROM+cpu');
    assertError(r, 400, 'BadRequest');
    assert.match(r.json().message, /POST \/api\/query/);
    assertError(await request(t.base, 'GET', '/query'), 400, 'BadRequest');
  });
});

describe('token forms with security on', () => {
  test('Bearer, Token, Basic with the token as password, ?p= and ?token= are one token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-ingest-sec-'));
    const sec = await makeSecurity(dir, ['alice']);
    const s = await startTestServer({ clusterPublicKeyFile: sec.clusterPublicKeyFile, usersFile: sec.usersFile });
    try {
      const login = await request(s.base, 'POST', '/api/login', { body: keyFileText(sec, 'alice') });
      const token: string = login.json().token;
      const forms: [string, Record<string, string>][] = [
        ['/query?q=SHOW+DATABASES', { Authorization: `Bearer ${token}` }],
        ['/query?q=SHOW+DATABASES', { Authorization: `Token ${token}` }],
        ['/query?q=SHOW+DATABASES', { Authorization: `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}` }],
        [`/query?q=SHOW+DATABASES&u=anyone&p=${token}`, {}],
        [`/query?q=SHOW+DATABASES&token=${token}`, {}],
      ];
      for (const [path, headers] of forms) assert.equal((await request(s.base, 'GET', path, { headers })).status, 200, JSON.stringify(headers));
      assertError(await request(s.base, 'GET', '/query?q=SHOW+DATABASES'), 401, 'Unauthorized');
      assertError(await request(s.base, 'GET', '/query?q=SHOW+DATABASES', { headers: { Authorization: `Token ${token}x` } }), 401, 'Unauthorized');
      assertError(await request(s.base, 'GET', '/query?q=SHOW+DATABASES', { headers: { Authorization: `Basic ${Buffer.from('user').toString('base64')}` } }), 401, 'Unauthorized');
      assert.equal((await request(s.base, 'GET', '/ping')).status, 204, 'probes need no token');
    } finally {
      await s.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /metrics', () => {
  test('counts requests by route pattern and status, and promtool accepts the text', async (ctx) => {
    await request(t.base, 'GET', '/api/v1/blobs/some%2Fmissing');
    assert.equal((await request(t.base, 'POST', '/write', { body: 'metered v=1 1\nmetered v=2 2\n' })).status, 204);
    await t.server.db.query('SELECT count(v) FROM metered');
    await t.server.db.checkpoint();
    const r = await request(t.base, 'GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = r.text();
    assert.match(text, /svc_http_requests_total\{method="GET",route="\/api\/v1\/blobs\/:alias",status="404"\} 1/);
    assert.match(text, /svc_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/ping"\} [1-9]/);
    // The engine's figures: the two rows, the WAL bytes that logged them, a query, a checkpoint.
    assert.match(text, /\nsvc_rows_ingested_total 2\n/);
    assert.match(text, /\nsvc_ingest_points_total\{protocol="influx_line_protocol"\} 2\n/);
    assert.match(text, /\nsvc_wal_bytes_total [1-9]\d*\n/);
    assert.match(text, /\nsvc_queries_total [1-9]\d*\n/);
    assert.match(text, /\nsvc_checkpoints_total 1\n/);
    assert.match(text, /\nsvc_last_checkpoint_seconds \d/);
    assert.doesNotMatch(text, /svc_cluster_/, 'no cluster figures on a single node');
    const skip = peerMissing('promtool');
    if (skip !== null) return ctx.skip(skip);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(check.status, 0, `promtool check metrics: ${check.stdout}${check.stderr}`);
  });

  test('--no-metrics: 404', async () => {
    const s = await startTestServer({ metrics: false });
    try {
      assertError(await request(s.base, 'GET', '/metrics'), 404, 'RouteNotFound');
    } finally {
      await s.stop();
    }
  });
});
