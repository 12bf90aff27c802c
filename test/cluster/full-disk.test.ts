// A cluster node whose disk is below its floor (SPEC §14, docs/disk.md, docs/cluster.md): one
// nats-server and two svc nodes, one of them with its data directory on a 64 MiB tmpfs (root).
// Filling that disk past the floor makes the node stop applying the log rather than diverge: it
// says not ready, refuses every write asked of it with 507 (it could not apply its own), refuses
// reads it could not answer as of every acknowledged write, and the cluster is `unstable`; the
// other node goes on taking writes. Once space is freed it resumes by itself — no restart — and
// holds every row, the ones written while it was paused included.
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fillDisk, tmpfsMissing, withTmpfs } from '../tmpfs.js';
import { missingNatsServer, NatsCluster } from './nats-cluster.js';
import { SvcNode } from './svc-nodes.js';

const MIB = 1024 * 1024;
const missing = missingNatsServer() ?? tmpfsMissing();

/** Waits (at most `timeoutMs`) until `check` holds. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function keys(node: SvcNode): Promise<number[]> {
  return (await node.column('SELECT k FROM t', 'k')).map(Number).sort((a, b) => a - b);
}

describe('cluster: a node whose disk is below its floor', { skip: missing ?? false }, () => {
  let nats: NatsCluster;
  let wide: SvcNode;

  before(async () => {
    nats = await NatsCluster.start({ size: 1 });
    wide = await SvcNode.start('wide', nats.url);
    await wide.ready();
  });

  after(async () => {
    await wide?.stop();
    await nats?.stop();
  });

  it('pauses its apply, says not ready, refuses its writes with 507; resumes by itself with every row once space is back', async () => {
    await withTmpfs(64 * MIB, async (root) => {
      const narrow = await SvcNode.start('narrow', nats.url, ['--min-free-disk', '16MiB'], root);
      try {
        await narrow.ready();
        await wide.query('CREATE TABLE t (k INT64)');
        await wide.query('INSERT INTO t ($timestamp, k) VALUES (1, 1), (2, 2), (3, 3)');
        assert.deepEqual(await keys(narrow), [1, 2, 3]);

        const filler = await fillDisk(root, 8 * MIB);
        await until('the node says not ready', async () => (await narrow.request('GET', '/api/status/readiness')).status === 503);
        const ready = await narrow.request('GET', '/api/status/readiness');
        assert.match((ready.body as { message: string }).message, /--min-free-disk/);
        for (const text of ['INSERT INTO t ($timestamp, k) VALUES (9, 9)', 'DROP TABLE t']) {
          const r = await narrow.request('POST', '/api/query', { query: text });
          assert.equal(r.status, 507, `${text}: ${JSON.stringify(r.body)}`);
          assert.match((r.body as { message: string }).message, /applies none of the cluster's logs until space is freed/);
        }
        // The other node takes writes; this one applies none of them, and cannot answer reads.
        await wide.query('INSERT INTO t ($timestamp, k) VALUES (4, 4), (5, 5)');
        const read = await narrow.request('POST', '/api/query', { query: 'SELECT k FROM t' });
        assert.equal(read.status, 507, JSON.stringify(read.body));
        await until('the cluster says unstable', async () => ((await wide.request('GET', '/api/cluster')).body as { status: string }).status === 'unstable');

        await rm(filler);
        await narrow.ready(20_000);
        assert.deepEqual(await keys(narrow), [1, 2, 3, 4, 5]);
        await until('the cluster says stable', async () => ((await wide.request('GET', '/api/cluster')).body as { status: string }).status === 'stable');
        const log = await readFile(narrow.logFile, 'utf8');
        assert.match(log, /the disk is below its floor \(--min-free-disk\): applying paused at sequence \d+/);
        assert.match(log, /disk space is back: applying from sequence \d+/);
      } finally {
        await narrow.kill();
      }
    });
  });
});
