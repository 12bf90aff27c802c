// Security on, over HTTP and over HTTPS: login with the key tool's files, every route behind the
// token (bridge included), bad credentials and forged tokens → 401, the secure mode's 308 on the
// plain port, oversized logins → 413, CORS, the cluster and node figures, and no secret key or
// token in any log line or error body after a session with bad logins.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { LOGIN_MAX_BODY, ROUTES } from '../../server/routes.js';
import { startServer } from '../../server/index.js';
import type { RunningServer, ServerOptions } from '../../server/index.js';
import { assertError, request } from './helpers.js';
import type { Response } from './helpers.js';
import { keyFileText, keygen, makeSecurity } from './security-fixtures.js';
import type { Security } from './security-fixtures.js';

const PACKAGE = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
let root: string;
let sec: Security;
const servers: RunningServer[] = [];
const dataDirs = new Map<RunningServer, string>();

async function start(options: Partial<ServerOptions>): Promise<RunningServer> {
  const dataDir = await mkdtemp(join(root, 'data-'));
  const s = await startServer({ dataDir, host: '127.0.0.1', port: 0, tlsPort: 0, durability: 'none', logToStderr: false, ...options });
  servers.push(s);
  dataDirs.set(s, dataDir);
  return s;
}

function secured(extra: Partial<ServerOptions> = {}): Partial<ServerOptions> {
  return { clusterPublicKeyFile: sec.clusterPublicKeyFile, usersFile: sec.usersFile, ...extra };
}

after(async () => {
  for (const s of servers) await s.close();
  await rm(root, { recursive: true, force: true });
});

interface Endpoint { readonly name: string; base(): string; readonly ca?: string; server(): RunningServer; logFile(): string }

/** The same security-on checks, over plain HTTP (no TLS configured) and over HTTPS (secure mode). */
const endpoints: Endpoint[] = [];
{
  let plain: RunningServer;
  let tls: RunningServer;
  const logs = { plain: '', tls: '' };
  before(async () => {
    // One hook: the servers need the keys and the certificate first.
    root = await mkdtemp(join(tmpdir(), 'svc-security-test-'));
    sec = await makeSecurity(root, ['alice', 'bob']);
    logs.plain = join(root, 'plain.log');
    logs.tls = join(root, 'tls.log');
    plain = await start(secured({ logFile: logs.plain }));
    tls = await start(secured({ logFile: logs.tls, tlsCertificate: sec.certFile, tlsKey: sec.keyFile }));
  });
  endpoints.push(
    { name: 'HTTP', base: () => `http://127.0.0.1:${plain.port}`, server: () => plain, logFile: () => logs.plain },
    { name: 'HTTPS', base: () => `https://localhost:${tls.tlsPort}`, ca: undefined, server: () => tls, logFile: () => logs.tls },
  );
}

function call(e: Endpoint, method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return request(e.base(), method, path, { ...init, ca: e.base().startsWith('https') ? sec.cert : undefined });
}

async function loginAs(e: Endpoint, user: string): Promise<string> {
  const r = await call(e, 'POST', '/api/login', { body: keyFileText(sec, user) });
  assert.equal(r.status, 200, r.text());
  return r.json().token as string;
}

/** Each route of the table with a concrete path (`:alias` → `x`) and a body when it takes one. */
const CONCRETE = ROUTES.filter((r) => r.access !== 'public').map((r) => ({
  method: r.method, path: r.path.replace(':alias', 'x'), body: r.hasBody ? (r.path === '/api/query' ? '"select * from nowhere"' : 'x') : undefined,
}));

for (const e of endpoints) {
  describe(`security on over ${e.name}`, () => {
    test('login with a key file made by svc_keygen → a token that opens every route', async () => {
      const token = await loginAs(e, 'alice');
      for (const r of CONCRETE) {
        const without = await call(e, r.method, r.path, r.body === undefined ? {} : { body: r.body });
        assertError(without, 401, 'Unauthorized');
        const withToken = await call(e, r.method, r.path, { ...(r.body === undefined ? {} : { body: r.body }), headers: { Authorization: `Bearer ${token}` } });
        assert.notEqual(withToken.status, 401, `${r.method} ${r.path}: ${withToken.text()}`);
      }
      for (const path of ['/api/status/liveness', '/api/status/readiness']) assert.equal((await call(e, 'GET', path)).status, 200, `${path} needs no token`);
    });
    test('a query round trip as the logged-in user', async () => {
      const auth = { Authorization: `Bearer ${await loginAs(e, 'bob')}` };
      assert.equal((await call(e, 'POST', '/api/query', { body: '"create table t (v int64)"', headers: auth })).status, 200);
      assert.equal((await call(e, 'POST', '/api/query', { body: '"insert into t ($timestamp, v) values (now, 7)"', headers: auth })).status, 200);
      const r = await call(e, 'POST', '/api/query', { body: JSON.stringify({ query: 'select v from t' }), headers: auth });
      assert.equal(r.status, 200, r.text());
      assert.match(r.text(), /"data":\[7\]/);
    });
    const bad: { name: string; body: () => string }[] = [
      { name: 'wrong key (another user\'s secret)', body: () => JSON.stringify({ username: 'alice', secret_key: JSON.parse(keyFileText(sec, 'bob')).secret_key }) },
      { name: 'unknown user with a valid secret', body: () => JSON.stringify({ username: 'mallory', secret_key: JSON.parse(keyFileText(sec, 'alice')).secret_key }) },
      { name: 'edited secret key', body: () => { const k = JSON.parse(keyFileText(sec, 'alice')); const s = k.secret_key as string; return JSON.stringify({ username: 'alice', secret_key: s.slice(0, -6) + (s.at(-6) === 'A' ? 'B' : 'A') + s.slice(-5) }); } },
      { name: 'garbage secret key', body: () => JSON.stringify({ username: 'alice', secret_key: 'not-a-key' }) },
      { name: 'empty credentials', body: () => JSON.stringify({ username: '', secret_key: '' }) },
    ];
    for (const b of bad) {
      test(`${b.name} → 401 without saying which part was wrong`, async () => {
        const r = await call(e, 'POST', '/api/login', { body: b.body() });
        assertError(r, 401, 'Unauthorized');
        assert.equal(r.json().message, 'unknown user or wrong secret key');
      });
    }
    test('an oversized login body → 413, though far below max_in_buffer_size', async () => {
      const r = await call(e, 'POST', '/api/login', { body: JSON.stringify({ username: 'alice', secret_key: 'k'.repeat(LOGIN_MAX_BODY) }) });
      assertError(r, 413, 'BodyTooLarge');
      assert.match(r.json().message, /16384 bytes/);
    });
    test('tokens signed by another key, with alg none, or expired → 401', async () => {
      const key = await readFile(join(dataDirs.get(e.server())!, 'jwt.key'));
      const now = Math.floor(Date.now() / 1000);
      const b64 = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
      const tokens = [
        await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime(now + 3600).sign(randomBytes(32)),
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', exp: now + 3600 })}.`,
      ];
      tokens.push(await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setIssuedAt(now - 50_000).setExpirationTime(now - 10).sign(new Uint8Array(key)));
      for (const token of tokens) {
        for (const path of ['/api/cluster', '/api/v1/entries']) assertError(await call(e, 'GET', path, { headers: { Authorization: `Bearer ${token}` } }), 401, 'Unauthorized');
      }
    });
    test('GET /api/cluster: the machine\'s memory and the data directory\'s disk, keys in the seed\'s order', async () => {
      const r = await call(e, 'GET', '/api/cluster', { headers: { Authorization: `Bearer ${await loginAs(e, 'alice')}` } });
      assert.equal(r.status, 200);
      const c = r.json();
      assert.deepEqual(Object.keys(c), ['diskTotal', 'diskUsed', 'memoryTotal', 'memoryUsed', 'nodes', 'status']);
      assert.equal(c.memoryTotal, totalmem());
      assert.ok(c.memoryUsed > 0 && c.memoryUsed < c.memoryTotal);
      const fs = await statfs(root);
      assert.equal(c.diskTotal, fs.blocks * fs.bsize);
      assert.ok(c.diskUsed > 0 && c.diskUsed <= c.diskTotal);
      assert.deepEqual(c.nodes, ['127.0.0.1:2836']);
      assert.equal(c.status, 'stable');
    });
    test('GET /api/nodes/:id and /api/cluster/nodes/:id; an unknown node → 404', async () => {
      const auth = { Authorization: `Bearer ${await loginAs(e, 'alice')}` };
      for (const path of ['/api/nodes/127.0.0.1:2836', '/api/cluster/nodes/127.0.0.1:2836']) {
        const r = await call(e, 'GET', path, { headers: auth });
        assert.equal(r.status, 200, r.text());
        const n = r.json();
        assert.deepEqual(Object.keys(n), ['cpuTotal', 'cpuUsed', 'diskTotal', 'diskUsed', 'id', 'memoryTotal', 'memoryUsed', 'os', 'svcVersion']);
        assert.equal(n.id, '127.0.0.1:2836');
        assert.equal(n.os, `${type()} ${release()}`);
        assert.equal(n.svcVersion, PACKAGE.version);
        const idle = cpus().reduce((s, c) => s + c.times.idle, 0);
        assert.ok(n.cpuUsed > 0 && n.cpuUsed < n.cpuTotal && n.cpuTotal >= idle, JSON.stringify(n));
      }
      assertError(await call(e, 'GET', '/api/nodes/10.0.0.1:2836', { headers: auth }), 404, 'NodeNotFound');
    });
  });
}

describe('secure mode (security on + TLS): the plain port', () => {
  test('answers 308 to the HTTPS address, path and query kept', async () => {
    const s = servers[1]!;
    const r = await request(`http://127.0.0.1:${s.port}`, 'GET', '/api/cluster?x=1');
    assert.equal(r.status, 308);
    assert.equal(r.headers['location'], `https://127.0.0.1:${s.tlsPort}/api/cluster?x=1`);
  });
  test('refuses a login: 308, no token, and nothing of the body in the answer', async () => {
    const s = servers[1]!;
    const r = await request(`http://localhost:${s.port}`, 'POST', '/api/login', { body: keyFileText(sec, 'alice') });
    assert.equal(r.status, 308);
    assert.equal(r.headers['location'], `https://localhost:${s.tlsPort}/api/login`);
    assert.ok(!('token' in r.json()));
    assert.ok(!r.text().includes(JSON.parse(keyFileText(sec, 'alice')).secret_key));
  });
  test('status unstable when the engine cannot write', async () => {
    const s = servers[1]!;
    const e = endpoints[1]!;
    const token = await loginAs(e, 'alice');
    Object.defineProperty(s.db, 'hasFailed', { get: () => true, configurable: true });
    try {
      assert.equal((await call(e, 'GET', '/api/cluster', { headers: { Authorization: `Bearer ${token}` } })).json().status, 'unstable');
    } finally {
      delete (s.db as unknown as Record<string, unknown>)['hasFailed'];
    }
  });
});

describe('TLS without security: both ports serve', () => {
  test('HTTP and HTTPS answer the same routes; empty credentials log in', async () => {
    const s = await start({ tlsCertificate: sec.certFile, tlsKey: sec.keyFile });
    for (const base of [`http://127.0.0.1:${s.port}`, `https://127.0.0.1:${s.tlsPort}`]) {
      const login = await request(base, 'POST', '/api/login', { body: '{"username":"","secret_key":""}', ca: sec.cert });
      assert.equal(login.status, 200);
      const r = await request(base, 'GET', '/api/nodes/127.0.0.1:2836', { headers: { Authorization: `Bearer ${login.json().token}` }, ca: sec.cert });
      assert.equal(r.json().id, '127.0.0.1:2836');
      assert.equal((await request(base, 'GET', '/api/v1/entries?prefix=', { ca: sec.cert })).status, 200, 'the bridge is open with security off');
    }
  });
});

describe('CORS from allowed_origins', () => {
  const cases: { allowed: string[]; origin: string; isAllowed: boolean }[] = [
    { allowed: ['http://ok.example'], origin: 'http://ok.example', isAllowed: true },
    { allowed: ['http://ok.example'], origin: 'http://evil.example', isAllowed: false },
    { allowed: [], origin: 'http://ok.example', isAllowed: false },
    { allowed: ['*'], origin: 'http://any.example', isAllowed: true },
  ];
  for (const c of cases) {
    test(`allowed ${JSON.stringify(c.allowed)}, Origin ${c.origin} → ${c.isAllowed ? 'allowed' : 'no allow header'}`, async () => {
      const s = await start({ allowedOrigins: c.allowed });
      const base = `http://127.0.0.1:${s.port}`;
      const login = await request(base, 'POST', '/api/login', { body: '{"username":"","secret_key":""}', headers: { Origin: c.origin } });
      assert.equal(login.status, 200);
      assert.equal(login.headers['access-control-allow-origin'], c.isAllowed ? c.origin : undefined);
      const error = await request(base, 'GET', '/api/cluster', { headers: { Origin: c.origin } });
      assert.equal(error.status, 401);
      assert.equal(error.headers['access-control-allow-origin'], c.isAllowed ? c.origin : undefined, 'error replies carry it too');
      const pre = await request(base, 'OPTIONS', '/api/query', { headers: { Origin: c.origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' } });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], c.isAllowed ? c.origin : undefined);
      if (c.isAllowed) {
        assert.match(String(pre.headers['access-control-allow-methods']), /POST/);
        assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/);
      } else {
        assert.equal(pre.headers['access-control-allow-methods'], undefined);
      }
      // OPTIONS that is not a preflight is routed like any method: 405 with Allow.
      const plainOptions = await request(base, 'OPTIONS', '/api/query', { headers: { Origin: c.origin } });
      assert.equal(plainOptions.status, 405);
      assert.equal(plainOptions.headers['allow'], 'POST');
      await s.close();
    });
  }
});

describe('the users file is signed by the cluster key', () => {
  test('a user slipped into the users file by hand stops the server from starting', async () => {
    const dir = await mkdtemp(join(root, 'tamper-'));
    const own = await makeSecurity(dir, ['carol']);
    const file = JSON.parse(await readFile(own.usersFile, 'utf8'));
    file.users.mallory = file.users.carol;
    await writeFile(own.usersFile, JSON.stringify(file));
    await assert.rejects(start({ clusterPublicKeyFile: own.clusterPublicKeyFile, usersFile: own.usersFile }), (e: Error) => e.name === 'ConfigError' && /signature does not verify/.test(e.message));
    const r = keygen(['user', '--username', 'dave', '--cluster-private-key', own.clusterPrivateKeyFile, '--users-file', own.usersFile, '--out', join(dir, 'dave.key')]);
    assert.equal(r.status, 2, 'the key tool refuses to sign a tampered file');
    assert.match(r.stderr, /refusing to sign/);
  });
  test('svc_keygen writes every file with mode 0600 and never overwrites a key', async () => {
    for (const f of [sec.clusterPrivateKeyFile, sec.clusterPublicKeyFile, sec.usersFile, sec.keyFiles['alice']!]) assert.equal((await stat(f)).mode & 0o777, 0o600, f);
    const r = keygen(['cluster', '--out-dir', sec.dir]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /exists already/);
    assert.deepEqual(Object.keys(JSON.parse(keyFileText(sec, 'alice'))), ['username', 'secret_key']);
  });
});

describe('no secret key or token in any log line or error body', () => {
  test('after a session with good and bad logins', async () => {
    const secrets = ['alice', 'bob'].map((u) => JSON.parse(keyFileText(sec, u)).secret_key as string);
    const bodies: string[] = [];
    const tokens: string[] = [];
    for (const e of endpoints) {
      tokens.push(await loginAs(e, 'alice'));
      for (const body of [JSON.stringify({ username: 'alice', secret_key: secrets[1] }), JSON.stringify({ username: 'nobody', secret_key: secrets[0] }), `{"username":"alice","secret_key":"${secrets[0]}"`, secrets[0]!.slice(21), `${secrets[0]}"`]) {
        const r = await call(e, 'POST', '/api/login', { body });
        assert.ok(r.status === 401 || r.status === 400);
        bodies.push(r.text());
      }
      const r = await call(e, 'GET', `/api/cluster?token=${tokens.at(-1)}x`);
      bodies.push(r.text());
      assert.equal((await call(e, 'POST', '/api/query', { body: '"select * from nowhere"', headers: { Authorization: `Bearer ${tokens.at(-1)}` } })).status, 400);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logs = await Promise.all(endpoints.map((e) => readFile(e.logFile(), 'utf8')));
    const everything = [...logs, ...bodies].join('\n');
    for (const s of [...secrets, ...tokens]) assert.ok(!everything.includes(s), 'a secret reached a log line or an error body');
    // A PKCS#8 Ed25519 key starts with the same 21 characters (its ASN.1 header); the rest is secret.
    for (const s of secrets) for (let at = 21; at + 8 <= s.length; at += 4) assert.ok(!everything.includes(s.slice(at, at + 8)), 'part of a secret key reached a log line or an error body');
    // The log itself is what the brief asks for: JSON lines with method, path, status, ms, bytes; query lines with the user.
    const lines = logs.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = lines.filter((l) => 'method' in l);
    assert.ok(requests.length > 10);
    for (const l of requests) for (const k of ['method', 'path', 'status', 'ms', 'bytes']) assert.ok(k in l, `${k} in ${JSON.stringify(l)}`);
    assert.ok(requests.every((l) => !String(l['path']).includes('?')));
    const queries = lines.filter((l) => l['event'] === 'query');
    assert.ok(queries.some((l) => l['user'] === 'bob' && typeof l['ms'] === 'number' && l['scanned_rows'] === 1), JSON.stringify(queries));
  });
});
