// The data routes of SPEC §16 over HTTP: /api/export in every format (headers, a failure before
// the first byte as a JSON error), /api/import (a bad row → 400 naming row and column, nothing
// stored), /api/backup while writers run — every row acknowledged before the call is in the
// copy, which a second server serves — `svc_rest backup` against a running server and offline,
// and the admin rule with security on (403 for a user who is not an admin).
import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { startServer } from '../../server/index.js';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { keyFileText, makeSecurity } from './security-fixtures.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));

/** Runs `svc_rest backup …` (asynchronously: the server it may ask runs in this process). */
function backupCli(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'backup', ...args], { encoding: 'utf8', timeout: 60_000 }, (e, stdout, stderr) => {
      resolve({ status: e === null ? 0 : typeof e.code === 'number' ? e.code : -1, stdout, stderr });
    });
  });
}

function q(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

describe('export and import routes', () => {
  let t: TestServer;
  let auth: Record<string, string>;
  before(async () => {
    t = await startTestServer();
    auth = { Authorization: `Bearer ${await login(t.base)}` };
    const create = await request(t.base, 'POST', '/api/query', { headers: auth, body: JSON.stringify({ query: 'CREATE TABLE t (v DOUBLE, s SYMBOL)' }) });
    assert.equal(create.status, 200);
    await t.server.db.insert('t', { $timestamp: BigInt64Array.from({ length: 100_000 }, (_, i) => BigInt(i) * 1000n), v: Float64Array.from({ length: 100_000 }, (_, i) => i / 2), s: Array.from({ length: 100_000 }, (_, i) => `k${i % 3}`) });
  });
  after(() => t.stop());

  it('streams every format with its MIME type and a file name', async () => {
    const csv = await request(t.base, 'GET', `/api/export?${q({ query: 'SELECT * FROM t', format: 'csv' })}`, { headers: { ...auth, 'Accept-Encoding': 'gzip' } });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8; header=present');
    assert.equal(csv.headers['content-disposition'], 'attachment; filename="export.csv"');
    assert.equal(csv.headers['content-encoding'], 'gzip');
    const lines = csv.text().trimEnd().split('\r\n');
    assert.equal(lines.length, 100_001);
    assert.deepEqual([lines[0], lines[2], lines.at(-1)], ['$timestamp,v,s', '1970-01-01T00:00:00.000001Z,0.5,k1', '1970-01-01T00:00:00.099999Z,49999.5,k0']);
    const arrow = await request(t.base, 'POST', '/api/export', { headers: auth, body: JSON.stringify({ query: 'SELECT v FROM t WHERE v < 10', format: 'arrow' }) });
    assert.equal(arrow.headers['content-type'], 'application/vnd.apache.arrow.stream');
    assert.deepEqual([...tableFromIPC(arrow.body).getChild('v')!.toArray()], Array.from({ length: 20 }, (_, i) => i / 2));
    const parquet = await request(t.base, 'POST', `/api/export?${q({ query: 'SELECT count(v) FROM t GROUP BY s', format: 'parquet' })}`, { headers: auth });
    assert.equal(parquet.headers['content-type'], 'application/vnd.apache.parquet');
    assert.equal(parquet.body.subarray(0, 4).toString(), 'PAR1');
    assert.equal(parquet.body.subarray(-4).toString(), 'PAR1');
    const ndjson = await request(t.base, 'GET', `/api/export?${q({ query: 'SELECT v FROM t LIMIT 1', format: 'ndjson' })}`, { headers: auth });
    assert.equal(ndjson.text(), '{"$timestamp":"1970-01-01T00:00:00Z","v":0}\n');
  });

  it('answers a failure before the first byte as a JSON error', async () => {
    assertError(await request(t.base, 'GET', `/api/export?${q({ query: 'SELECT * FROM nope', format: 'csv' })}`, { headers: auth }), 400, 'QuerySemantic');
    assertError(await request(t.base, 'GET', `/api/export?${q({ query: 'SELECT * FROM t', format: 'xlsx' })}`, { headers: auth }), 400, 'InvalidArgument');
    assertError(await request(t.base, 'GET', `/api/export?${q({ query: 'DROP TABLE t' })}`, { headers: auth }), 400, 'ReadOnlyQuery');
    assertError(await request(t.base, 'GET', '/api/export?format=csv', { headers: auth }), 400, 'BadRequest');
    assertError(await request(t.base, 'GET', `/api/export?${q({ query: 'SELECT * FROM t' })}`), 401, 'Unauthorized');
  });

  it('imports a CSV body atomically: a bad row is a 400 naming it, and nothing is stored', async () => {
    const ok = await request(t.base, 'POST', `/api/import?${q({ table: 'imp', format: 'csv' })}`, { headers: auth, body: '$timestamp,v,s\n2024-01-01T00:00:00Z,1.5,a\n2024-01-01T00:00:01+01:00,2.5,b\n' });
    assert.equal(ok.status, 200, ok.text());
    assert.deepEqual(ok.json(), { table: 'imp', rows: 2, created: true });
    const bad = await request(t.base, 'POST', `/api/import?${q({ table: 'imp', format: 'csv' })}`, { headers: auth, body: '$timestamp,v,s\n2024-01-02T00:00:00Z,3,c\n2024-01-02T00:00:01Z,x,d\n' });
    assertError(bad, 400, 'InvalidArgument');
    assert.match(bad.json().message, /^row 2 \(line 3\), column 'v'/);
    assert.equal(t.server.db.describeTable('imp').rowCount, 2);
    assertError(await request(t.base, 'POST', `/api/import?${q({ format: 'csv' })}`, { headers: auth, body: 'x' }), 400, 'BadRequest');
    assertError(await request(t.base, 'POST', `/api/import?${q({ table: 'imp', format: 'json' })}`, { headers: auth, body: 'x' }), 400, 'BadRequest');
    const round = await request(t.base, 'POST', `/api/export?${q({ query: 'SELECT * FROM imp', format: 'parquet' })}`, { headers: auth });
    const back = await request(t.base, 'POST', `/api/import?${q({ table: 'imp2', format: 'parquet' })}`, { headers: auth, body: round.body });
    assert.deepEqual(back.json(), { table: 'imp2', rows: 2, created: true });
  });
});

describe('backup', () => {
  let root: string;
  before(async () => { root = await mkdtemp(join(tmpdir(), 'svc-backup-test-')); });
  after(() => rm(root, { recursive: true, force: true }));

  it('holds every row acknowledged before the call while writers run, and a second server serves it', async () => {
    const a = await startTestServer({ durability: 'os' });
    const auth = { Authorization: `Bearer ${await login(a.base)}` };
    const db = a.server.db;
    await db.createTable('w', [{ name: 'n', type: 'INT64' }]);
    const acked: bigint[] = [];
    let isRunning = true;
    let next = 0n;
    const writer = async (): Promise<void> => {
      // Bounded: at most 2,000 inserts of 50 rows per writer.
      for (let k = 0; k < 2000 && isRunning; k++) {
        const ts = BigInt64Array.from({ length: 50 }, () => next++);
        await db.insert('w', { $timestamp: ts, n: ts });
        acked.push(...ts);
        if (k % 10 === 0) await new Promise((r) => setImmediate(r));
      }
    };
    const writers = [writer(), writer(), writer()];
    while (acked.length < 20_000) await new Promise((r) => setTimeout(r, 5));
    const before = acked.length;
    const ackedBefore = acked.slice(0, before);
    const to = join(root, 'copy');
    const r = await request(a.base, 'POST', '/api/backup', { headers: auth, body: JSON.stringify({ to }) });
    assert.equal(r.status, 200, r.text());
    isRunning = false;
    await Promise.all(writers);
    const total = acked.length;
    await a.stop();
    assert.ok(r.json().files >= 2);
    const b = await startServer({ dataDir: to, host: '127.0.0.1', port: 0, durability: 'os', logToStderr: false });
    try {
      const rows = await b.db.query('SELECT n FROM w');
      const held = new Set(Array.from(rows.tables[0].columns[0].values as BigInt64Array));
      for (const v of ackedBefore) assert.ok(held.has(v), `row ${v}, acknowledged before the backup, is missing`);
      assert.ok(held.size >= before && held.size <= total);
    } finally {
      await b.close();
    }
  });

  it('svc_rest backup copies a running server through it, then an offline directory itself', async () => {
    const a = await startTestServer({ durability: 'os', dataDir: join(root, 'live') });
    await a.server.db.createTable('x', [{ name: 'v', type: 'DOUBLE' }]);
    await a.server.db.insert('x', { $timestamp: new BigInt64Array([1n, 2n]), v: [1, 2] });
    const online = await backupCli(['--data-dir', a.dataDir, '--to', join(root, 'online')]);
    assert.equal(online.status, 0, online.stderr);
    assert.equal(JSON.parse(online.stdout).to, join(root, 'online'));
    const refused = await backupCli(['--data-dir', a.dataDir, '--to', join(root, 'online')]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /is not empty/);
    await a.stop({ keepData: true });
    const offline = await backupCli(['--data-dir', a.dataDir, '--to', join(root, 'offline')]);
    assert.equal(offline.status, 0, offline.stderr);
    for (const dir of ['online', 'offline']) {
      const s = await startServer({ dataDir: join(root, dir), host: '127.0.0.1', port: 0, durability: 'none', logToStderr: false });
      try {
        assert.equal(s.db.describeTable('x').rowCount, 2, dir);
      } finally {
        await s.close();
      }
    }
    assert.ok((await readdir(join(root, 'offline', 'checkpoints'))).some((n) => n.endsWith('.manifest')));
    // A --data-dir that holds no database (a typo) fails, and makes none there.
    const typo = await backupCli(['--data-dir', join(root, 'liv'), '--to', join(root, 'from-typo')]);
    assert.equal(typo.status, 1);
    assert.match(typo.stderr, /holds no svc database/);
    assert.equal(existsSync(join(root, 'liv')), false);
  });

  it('is for admins when security is on (403 for other users)', async () => {
    const sec = await makeSecurity(join(root), ['alice', 'bob'], ['alice']);
    const s = await startServer({ dataDir: join(root, 'secured'), host: '127.0.0.1', port: 0, durability: 'none', logToStderr: false, clusterPublicKeyFile: sec.clusterPublicKeyFile, usersFile: sec.usersFile });
    const base = `http://127.0.0.1:${s.port}`;
    try {
      const token = async (user: string): Promise<string> => (await request(base, 'POST', '/api/login', { body: keyFileText(sec, user) })).json().token as string;
      const bob = await request(base, 'POST', '/api/backup', { headers: { Authorization: `Bearer ${await token('bob')}` }, body: JSON.stringify({ to: join(root, 'by-bob') }) });
      assertError(bob, 403, 'Forbidden');
      const alice = await request(base, 'POST', '/api/backup', { headers: { Authorization: `Bearer ${await token('alice')}` }, body: JSON.stringify({ to: join(root, 'by-alice') }) });
      assert.equal(alice.status, 200, alice.text());
      assertError(await request(base, 'POST', '/api/backup', { body: JSON.stringify({ to: join(root, 'anyone') }) }), 401, 'Unauthorized');
    } finally {
      await s.close();
    }
  });
});
