// Liveness and readiness: no token, JSON, gzip when asked for.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.stop(); });

test('liveness and readiness answer 200 without a token', async () => {
  for (const path of ['/api/status/liveness', '/api/status/readiness']) {
    const r = await request(t.base, 'GET', path);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(typeof r.json().status, 'string');
  }
});

test('REST answers are gzipped whatever their size when the client accepts gzip', async () => {
  const r = await request(t.base, 'GET', '/api/status/liveness', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
  assert.equal(r.headers['content-encoding'], 'gzip');
  assert.deepEqual(r.json(), { status: 'up' });
  const plain = await request(t.base, 'GET', '/api/status/liveness', { headers: { 'Accept-Encoding': 'gzip;q=0' } });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.json(), { status: 'up' });
});
