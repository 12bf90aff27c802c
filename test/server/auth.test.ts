// Tokens: login issues a 12-hour JWT; every REST route but login and status needs it (header or
// ?token=); missing, malformed, forged or expired → 401; the signing key lives in the data
// directory with mode 0600, so tokens survive a restart.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import { ROUTES } from '../../server/routes.js';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let t: TestServer;
let token: string;
before(async () => {
  t = await startTestServer();
  token = await login(t.base);
});
after(async () => { await t.stop(); });

const sign = (key: Uint8Array, exp: number): Promise<string> =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('').setIssuedAt().setExpirationTime(exp).sign(key);
const selectOne = (headers: Record<string, string>, path = '/api/query'): ReturnType<typeof request> =>
  request(t.base, 'POST', path, { body: '"DROP TABLE IF EXISTS nothing"', headers });

describe('tokens', () => {
  test('a login token is a JWT expiring 12 hours after issue', () => {
    const claims = decodeJwt(token);
    assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 12 * 3600);
    assert.ok(Math.abs((claims.iat ?? 0) - Date.now() / 1000) < 60);
  });

  test('a valid token in the header or in ?token= is accepted', async () => {
    assert.equal((await selectOne({ Authorization: `Bearer ${token}` })).status, 200);
    assert.equal((await selectOne({ Authorization: `bearer ${token}` })).status, 200);
    assert.equal((await selectOne({}, `/api/query?token=${encodeURIComponent(token)}`)).status, 200);
  });

  const refused: { name: string; headers: () => Promise<Record<string, string>> }[] = [
    { name: 'missing', headers: async () => ({}) },
    { name: 'malformed header (no Bearer)', headers: async () => ({ Authorization: token }) },
    { name: 'malformed header (Basic)', headers: async () => ({ Authorization: 'Basic dXNlcjpwYXNz' }) },
    { name: 'malformed token', headers: async () => ({ Authorization: 'Bearer not.a.jwt' }) },
    { name: 'empty bearer', headers: async () => ({ Authorization: 'Bearer ' }) },
    { name: 'forged: signed with another key', headers: async () => ({ Authorization: `Bearer ${await sign(new Uint8Array(32).fill(7), Math.floor(Date.now() / 1000) + 3600)}` }) },
    { name: 'forged: payload altered', headers: async () => {
      const [h, , s] = token.split('.');
      const p = Buffer.from(JSON.stringify({ sub: 'admin', exp: Math.floor(Date.now() / 1000) + 99999 })).toString('base64url');
      return { Authorization: `Bearer ${h}.${p}.${s}` };
    } },
    { name: 'forged: alg none', headers: async () => {
      const h = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const p = Buffer.from(JSON.stringify({ sub: '', exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
      return { Authorization: `Bearer ${h}.${p}.` };
    } },
    { name: 'expired (signed with the server key)', headers: async () => {
      const key = new Uint8Array(await readFile(join(t.dataDir, 'jwt.key')));
      return { Authorization: `Bearer ${await sign(key, Math.floor(Date.now() / 1000) - 60)}` };
    } },
  ];
  for (const c of refused) {
    test(`${c.name} → 401`, async () => {
      const r = await selectOne(await c.headers());
      assertError(r, 401, 'Unauthorized');
    });
  }
  test('a forged ?token= → 401', async () => {
    assertError(await selectOne({}, '/api/query?token=abc.def.ghi'), 401, 'Unauthorized');
  });
  test('an expired token says so', async () => {
    const key = new Uint8Array(await readFile(join(t.dataDir, 'jwt.key')));
    const r = await selectOne({ Authorization: `Bearer ${await sign(key, Math.floor(Date.now() / 1000) - 60)}` });
    assert.match(r.json().message, /expired/);
  });
});

describe('which routes need a token (security off)', () => {
  const guarded = ROUTES.filter((r) => r.access === 'token' || r.access === 'admin');
  test('the guarded set is every /api route but login, status and the bridge', () => {
    assert.deepEqual(guarded.map((r) => `${r.method} ${r.path}`).sort(), [
      'GET /api/cluster', 'GET /api/cluster/nodes/:alias', 'GET /api/export', 'GET /api/nodes/:alias', 'GET /api/option/max-in-buffer-size', 'GET /api/option/parallelism', 'GET /api/tags',
      'POST /api/backup', 'POST /api/export', 'POST /api/import', 'POST /api/query',
    ]);
  });
  for (const r of guarded) {
    test(`${r.method} ${r.path} without a token → 401`, async () => {
      assertError(await request(t.base, r.method, r.path, r.hasBody ? { body: '"x"' } : {}), 401, 'Unauthorized');
    });
  }
  for (const path of ['/api/status/liveness', '/api/status/readiness', '/health', '/settings', '/metrics', '/query?q=SHOW+DATABASES', '/api/v1/entries?prefix=', `/query_exp?query=${encodeURIComponent("find(tag='x')")}`]) {
    test(`GET ${path} needs no token`, async () => {
      assert.equal((await request(t.base, 'GET', path)).status, 200);
    });
  }
});

describe('the signing key', () => {
  test('lives in <dataDir>/jwt.key with mode 0600', async () => {
    const s = await stat(join(t.dataDir, 'jwt.key'));
    assert.equal(s.mode & 0o777, 0o600);
    assert.equal(s.size, 32);
  });
  test('tokens survive a restart on the same data directory', async () => {
    const first = await startTestServer();
    const tk = await login(first.base);
    await first.stop({ keepData: true });
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const r = await request(second.base, 'GET', '/api/option/parallelism', { headers: { Authorization: `Bearer ${tk}` } });
      assert.equal(r.status, 200);
    } finally {
      await second.stop();
    }
  });
});
