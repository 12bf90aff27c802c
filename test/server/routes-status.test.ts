// Liveness and readiness: no token, JSON, gzip when asked for.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/index.js';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../engine/index.js';
import { HttpError, STATUS_OF } from '../../server/errors.js';
import { readiness } from '../../server/handlers/api/status.js';
import type { RouteContext, ServerState } from '../../server/handlers/context.js';
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

describe('readiness is 503 while the server cannot take writes', () => {
  const ctx = (state: Partial<ServerState>): RouteContext => ({ state: { db: null, isClosing: false, ...state } as ServerState } as RouteContext);
  const cases: { name: string; state: Partial<ServerState> }[] = [
    { name: 'database still opening', state: { db: null } },
    { name: 'storage failed', state: { db: { hasFailed: true } as Database } },
    { name: 'shutting down', state: { db: { hasFailed: false } as Database, isClosing: true } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.throws(() => readiness(ctx(c.state)), (e: unknown) => e instanceof HttpError && e.code === 'NotReady' && STATUS_OF[e.code] === 503);
    });
  }
});

test('a port in use is an error at start-up, and the data directory is left unlocked', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-port-test-'));
  try {
    await assert.rejects(startServer({ dataDir, host: '127.0.0.1', port: t.server.port, durability: 'none', logToStderr: false }), /cannot listen on 127\.0\.0\.1:\d+/);
    const ok = await startServer({ dataDir, host: '127.0.0.1', port: 0, durability: 'none', logToStderr: false });
    await ok.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
