// A full disk over HTTP (SPEC §5, §8, §14; docs/disk.md):
// - `--min-free-disk` / SVC_MIN_FREE_DISK / `min_free_disk` take bytes or a size (0 allowed; a
//   config file's null is the default rule);
// - below the floor writes are 507 StorageFull naming the free bytes and the option, readiness and
//   InfluxDB's /health say 503 and why, /metrics shows the state, free bytes and floor, api/cluster
//   says `unstable`; reads, DROP TABLE and removals answer;
// - on a 64 MiB tmpfs (root), a real `svc_rest` process: line-protocol ingest until 507, reads and
//   removals while full, space freed and writes accepted again without a restart, then SIGKILL +
//   restart with every acknowledged row there; and with the floor at 0 an ENOSPC inside the WAL
//   append itself: 507, the log left whole (no torn record at the restart), writes back once
//   space is freed, every acknowledged row there and none of the failed request's.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../server/config-error.js';
import { parseCli, parseConfig } from '../../server/options.js';
import { tempDir } from '../engine/helpers.js';
import { fillDisk, tmpfsMissing, withTmpfs } from '../tmpfs.js';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { killServer, send, spawnServer } from './server-process.js';
import type { Reply, ServerProcess } from './server-process.js';

const MIB = 1024 * 1024;
const noTmpfs = tmpfsMissing();

describe('--min-free-disk', () => {
  const floor = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const c = parseCli(args, env);
    assert.equal(c.kind, 'serve');
    return (c as Extract<typeof c, { kind: 'serve' }>).options.minFreeDisk;
  };

  it('takes bytes or a size, 0 included, from the command line, the environment or a config file; none = the default rule', () => {
    assert.equal(floor(['--min-free-disk', '512MiB']), 512 * MIB);
    assert.equal(floor(['--min-free-disk=0']), 0);
    assert.equal(floor([], { SVC_MIN_FREE_DISK: '2GiB' }), 2048 * MIB);
    assert.equal(floor(['--min-free-disk', '100'], { SVC_MIN_FREE_DISK: '2GiB' }), 100);
    assert.equal(floor([]), undefined);
    assert.equal(parseConfig('{"min_free_disk": null}', 'f').min_free_disk, null);
    assert.equal(parseConfig('{"min_free_disk": "1GiB"}', 'f').min_free_disk, 1024 * MIB);
  });

  it('refuses a value that is not a size, naming the option', () => {
    for (const bad of ['lots', '-1', '1XB']) {
      assert.throws(() => parseCli([`--min-free-disk=${bad}`], {}), (e: unknown) => e instanceof ConfigError && /--min-free-disk/.test(e.message), bad);
    }
    assert.throws(() => parseCli([], { SVC_MIN_FREE_DISK: 'most' }), (e: unknown) => e instanceof ConfigError && /SVC_MIN_FREE_DISK/.test(e.message));
    assert.throws(() => parseConfig('{"min_free_disk": true}', 'f'), (e: unknown) => e instanceof ConfigError && /min_free_disk/.test(e.message));
  });
});

describe('a server below its floor', () => {
  let t: TestServer;
  let auth: Record<string, string>;
  before(async () => {
    const dataDir = await tempDir();
    const setup = await startTestServer({ dataDir });
    const token = await login(setup.base);
    const q = (query: string) => request(setup.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { authorization: `Bearer ${token}` } });
    assert.equal((await q('CREATE TABLE kept (v DOUBLE)')).status, 200);
    assert.equal((await q('INSERT INTO kept ($timestamp, v) VALUES (1, 1.5)')).status, 200);
    assert.equal((await q('CREATE TABLE dropped (v DOUBLE)')).status, 200);
    assert.equal((await request(setup.base, 'POST', '/api/v1/blobs/removed', { body: 'x' })).status, 201);
    await setup.stop({ keepData: true });
    // A floor above any disk's free space: below it from the start.
    t = await startTestServer({ dataDir, minFreeDisk: Number.MAX_SAFE_INTEGER });
    auth = { authorization: `Bearer ${await login(t.base)}` };
  });
  after(async () => { await t.stop(); });

  it('answers writes 507 StorageFull naming the free bytes and the option; reads, DROP TABLE and removals answer', async () => {
    const write = await request(t.base, 'POST', '/write', { body: 'kept v=2 2\n' });
    assertError(write, 507, 'StorageFull');
    assert.match(write.json().message, /is \d+ bytes, below the floor of 9007199254740991 bytes \(--min-free-disk/);
    assertError(await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: 'CREATE TABLE x (v DOUBLE)' }), headers: auth }), 507, 'StorageFull');
    assertError(await request(t.base, 'POST', '/api/v1/blobs/new', { body: 'y' }), 507, 'StorageFull');
    assertError(await request(t.base, 'PATCH', '/api/v1/entries/kept?action=attachTag&tag=t'), 507, 'StorageFull');
    const read = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: 'SELECT v FROM kept' }), headers: auth });
    assert.equal(read.status, 200, read.text());
    assert.deepEqual(read.json().tables[0].columns.find((c: { name: string }) => c.name === 'v').data, [1.5]);
    assert.equal((await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: 'DROP TABLE dropped' }), headers: auth })).status, 200);
    assert.equal((await request(t.base, 'DELETE', '/api/v1/entries/removed')).status, 200);
    assert.deepEqual(JSON.parse((await request(t.base, 'GET', '/api/v1/entries?prefix=')).text()).aliases, ['kept']);
  });

  it('readiness and /health say 503 and why; /metrics the state; api/cluster unstable', async () => {
    const ready = await request(t.base, 'GET', '/api/status/readiness');
    assertError(ready, 503, 'NotReady');
    assert.match(ready.json().message, /free disk space is \d+ bytes, below the floor of \d+ bytes \(--min-free-disk\)/);
    const health = await request(t.base, 'GET', '/health');
    assert.equal(health.status, 503);
    assert.match(health.json().message, /--min-free-disk/);
    const metrics = (await request(t.base, 'GET', '/metrics')).text();
    assert.match(metrics, /\nsvc_disk_state\{state="full"\} 1\n/);
    assert.match(metrics, /\nsvc_disk_state\{state="ok"\} 0\n/);
    assert.match(metrics, /\nsvc_disk_min_free_bytes 9007199254740991\n/);
    assert.match(metrics, /\nsvc_disk_free_bytes \d+\n/);
    assert.match(metrics, /\nsvc_disk_refusals_total [1-9]\d*\n/);
    const cluster = await request(t.base, 'GET', '/api/cluster', { headers: auth });
    assert.equal(cluster.json().status, 'unstable');
  });
});

/** One line-protocol request of `n` rows into `cpu`, ids from `first` on (value = id). */
function lines(first: number, n: number): string {
  let out = '';
  for (let id = first; id < first + n; id++) out += `cpu,host=h${id % 8} v=${id}i ${1_700_000_000_000_000_000 + id * 1_000_000}\n`;
  return out;
}

/** Rows acknowledged so far: count and sum of their ids. */
interface Acked { count: number; sum: number }

function ack(acked: Acked, first: number, n: number): void {
  acked.count += n;
  acked.sum += n * first + (n * (n - 1)) / 2;
}

async function query(server: ServerProcess, token: string, text: string) {
  const r = await send(false, server.base, 'POST', '/api/query', { body: JSON.stringify({ query: text }), headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, `${text}: ${r.status} ${r.text()}`);
  return r.json().tables as { columns: { data: unknown[] }[] }[];
}

async function expectRows(server: ServerProcess, acked: Acked): Promise<void> {
  const token = await login(server.base);
  const [table] = await query(server, token, 'SELECT count(v), sum(v) FROM cpu');
  assert.deepEqual(table.columns.map((c) => Number(c.data[0])), [acked.count, acked.sum]);
}

/** Sends writes of `n` rows until one is accepted (space came back), at most `timeoutMs`. */
async function writeWhenSpace(server: ServerProcess, first: number, n: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await send(false, server.base, 'POST', '/write', { body: lines(first, n) });
    if (r.status === 204) return;
    assert.equal(r.status, 507, r.text());
    assert.ok(Date.now() < deadline, `writes still refused ${timeoutMs} ms after space was freed: ${r.text()}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('a full disk on a 64 MiB tmpfs, a real server process', { skip: noTmpfs ?? false }, () => {
  it('ingest until 507; reads, DROP and removals while full; writes back without a restart once space is freed; every acknowledged row after SIGKILL', async () => {
    const logDir = await tempDir();
    await withTmpfs(64 * MIB, async (root) => {
      const dataDir = join(root, 'data');
      const filler = join(root, 'filler');
      await writeFile(filler, Buffer.alloc(24 * MIB));
      const args = ['--durability', 'fsync', '--min-free-disk', '16MiB', '--log-file', join(logDir, 'svc.log')];
      let server = await spawnServer(dataDir, args);
      try {
        const token = await login(server.base);
        await query(server, token, 'CREATE TABLE side (v DOUBLE)');
        assert.equal((await send(false, server.base, 'POST', '/api/v1/blobs/spare', { body: 'x' })).status, 201);
        const acked: Acked = { count: 0, sum: 0 };
        const N = 20_000;
        let next = 0;
        let refusal: Reply | null = null;
        for (let i = 0; refusal === null; i++) {
          assert.ok(i < 200, 'ingest never met the floor');
          const r = await send(false, server.base, 'POST', '/write', { body: lines(next, N) });
          if (r.status === 204) ack(acked, next, N);
          else refusal = r;
          next += N;
        }
        assertError(refusal, 507, 'StorageFull');
        assert.match(refusal.json().message, /below the floor of 16777216 bytes \(--min-free-disk/);
        // Full: reads answer, DROP and removals go on, other writes are refused.
        await expectRows(server, acked);
        await query(server, token, 'DROP TABLE side');
        assert.equal((await send(false, server.base, 'DELETE', '/api/v1/entries/spare')).status, 200);
        assert.equal((await send(false, server.base, 'POST', '/api/v1/blobs/more', { body: 'y' })).status, 507);
        assert.equal((await send(false, server.base, 'GET', '/api/status/readiness')).status, 503);
        // Space back: writes are accepted again by themselves, readiness too.
        await rm(filler);
        await writeWhenSpace(server, next, 1_000);
        ack(acked, next, 1_000);
        next += 1_000;
        assert.equal((await send(false, server.base, 'GET', '/api/status/readiness')).status, 200);
        await expectRows(server, acked);
        // SIGKILL and restart: every acknowledged row, and the removals, are there.
        await killServer(server);
        server = await spawnServer(dataDir, args);
        await expectRows(server, acked);
        assert.deepEqual(JSON.parse((await send(false, server.base, 'GET', '/api/v1/entries?prefix=')).text()).aliases, ['cpu']);
      } finally {
        await killServer(server);
      }
    });
  });

  it('an ENOSPC inside the WAL append (floor 0): 507, the log left whole, writes back once space is freed, every acknowledged row after SIGKILL', async () => {
    const logDir = await tempDir();
    await withTmpfs(32 * MIB, async (root) => {
      const dataDir = join(root, 'data');
      const log = join(logDir, 'svc.log');
      const args = ['--durability', 'fsync', '--min-free-disk', '0', '--log-file', log];
      let server = await spawnServer(dataDir, args);
      try {
        const acked: Acked = { count: 0, sum: 0 };
        for (let first = 0; first < 3_000; first += 1_000) {
          assert.equal((await send(false, server.base, 'POST', '/write', { body: lines(first, 1_000) })).status, 204);
          ack(acked, first, 1_000);
        }
        // Less room than one write of 20,000 rows needs: the append meets ENOSPC.
        const filler = await fillDisk(root, 64 * 1024);
        const r = await send(false, server.base, 'POST', '/write', { body: lines(1_000_000, 20_000) });
        assert.equal(r.status, 507, r.text());
        assert.equal(r.json().error, 'StorageFull');
        assert.match(r.json().message, /full/);
        assert.equal((await send(false, server.base, 'GET', '/api/status/readiness')).status, 503);
        await expectRows(server, acked);
        await rm(filler);
        await writeWhenSpace(server, 5_000, 1_000);
        ack(acked, 5_000, 1_000);
        await killServer(server);
        server = await spawnServer(dataDir, args);
        // None of the failed request's rows, every acknowledged one, and no torn record to cut.
        await expectRows(server, acked);
      } finally {
        await killServer(server);
      }
      assert.doesNotMatch(await readFile(log, 'utf8'), /torn/);
    });
  });
});
