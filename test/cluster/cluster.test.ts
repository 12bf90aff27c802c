// 3 nats-servers + 3 svc_rest nodes on loopback, started and stopped here (SPEC §12):
// - DDL, inserts, blobs, tags and expiry through any node are visible on every node as soon as
//   they are acknowledged (no waiting in between), and two nodes creating one table at once cannot
//   both succeed (the alias claim is a compare-and-set);
// - api/cluster lists the nodes and says stable; api/nodes/:id answers for any node through any
//   node, with a token issued by another node;
// - a kill matrix under write load through every node: the NATS stream leader, a NATS follower and
//   an svc node are SIGKILLed and restarted: 0 acknowledged rows lost, 0 duplicated, every node
//   holds the same rows after — while DELETEs run through every node and a TTL removes shards
//   (log entries: every node removes the same rows);
// - a 4th node joins under load and catches up;
// - pointed at Debian 12's nats-server 2.9.10, svc_rest refuses to start.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { peerMissing } from '../server/peers.js';
import { spawnServer } from '../server/server-process.js';
import { tempDir } from '../engine/helpers.js';
import { keysIn, stubReplica } from '../engine/stub-replica.js';
import { missingNatsServer, NatsCluster, natsServerPath } from './nats-cluster.js';
import { SvcNode } from './svc-nodes.js';
import { timeText } from '../query/query-model.js';

const missing = missingNatsServer();

/** Sorted keys of table `t` as a node holds them. */
async function keysOn(node: SvcNode, table: string): Promise<number[]> {
  return (await node.column(`SELECT k FROM ${table}`, 'k')).map(Number).sort((a, b) => a - b);
}

const MICRO = 1_000n;
const MINUTE = 60_000_000_000n;

/**
 * The lifecycle's share of the kill matrix: table `life` (TTL 1h, 10-minute shards) gets rows
 * through every node — most 20 minutes old (kept), some 3 hours old (past the TTL: hidden, and
 * their shards removed by the sweeps' dropShards entries) — while DELETEs of ranges of
 * acknowledged rows go through every node. At the end every node holds the same rows; a row an
 * acknowledged DELETE targeted is gone, a kept row no DELETE targeted is there, no old row shows.
 */
function lifecycleLoad(nodes: readonly SvcNode[]) {
  const start = BigInt(Date.now()) * 1_000_000n;
  const fresh = start - 20n * MINUTE;
  const old = start - 180n * MINUTE;
  const timeOf = (k: number, isOld: boolean): bigint => (isOld ? old : fresh) + BigInt(k) * MICRO;
  const acked: number[] = [];
  const ackedOld: number[] = [];
  const gone = new Set<number>();
  const maybe: [number, number][] = [];
  const targeted: [number, number][] = [];
  let next = 0;
  let round = 0;
  const running = (): SvcNode | null => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[round++ % nodes.length];
      if (n.isRunning) return n;
    }
    return null;
  };
  return {
    create: () => nodes[0].query('CREATE TABLE life (k INT64) SHARD_SIZE 10min TTL 1h'),
    async insert(isStopped: () => boolean): Promise<void> {
      while (!isStopped()) {
        const node = running();
        if (node === null) { await new Promise((r) => setTimeout(r, 20)); continue; }
        const isOld = Math.random() < 0.2;
        const keys = Array.from({ length: 5 }, () => next++);
        const values = keys.map((k) => `(${timeOf(k, isOld)}, ${k})`).join(', ');
        const r = await node.request('POST', '/api/query', { query: `INSERT INTO life ($timestamp, k) VALUES ${values}` }, 40_000).catch(() => null);
        if (r?.status === 200) (isOld ? ackedOld : acked).push(...keys);
      }
    },
    async delete(isStopped: () => boolean): Promise<void> {
      while (!isStopped()) {
        await new Promise((r) => setTimeout(r, 300));
        const node = running();
        if (node === null || acked.length < 40) continue;
        const sorted = [...acked].sort((a, b) => a - b);
        const i = Math.floor(Math.random() * (sorted.length - 20));
        const [a, b] = [sorted[i], sorted[i + 19]];
        const before = sorted.slice(i, i + 20);
        targeted.push([a, b]);
        const text = `DELETE FROM life IN RANGE(${timeText(timeOf(a, false))}, ${timeText(timeOf(b, false) + 1n)})`;
        const r = await node.request('POST', '/api/query', { query: text }, 40_000).catch(() => null);
        if (r?.status === 200) for (const k of before) gone.add(k);
        else maybe.push([a, b]);
      }
    },
    async check(): Promise<string> {
      const holdings = await Promise.all(nodes.map((n) => keysOn(n, 'life')));
      for (const [i, h] of holdings.entries()) assert.deepEqual(h, holdings[0], `life: ${nodes[i].id} differs from ${nodes[0].id}`);
      const held = new Set(holdings[0]);
      assert.deepEqual([...gone].filter((k) => held.has(k)), [], 'life: rows an acknowledged DELETE took are back');
      assert.deepEqual(ackedOld.filter((k) => held.has(k)), [], 'life: rows past the TTL show');
      const isTargeted = (k: number) => targeted.some(([a, b]) => k >= a && k <= b);
      assert.deepEqual(acked.filter((k) => !isTargeted(k) && !held.has(k)), [], 'life: acknowledged rows no DELETE targeted are missing');
      return `life: ${acked.length + ackedOld.length} rows acknowledged (${ackedOld.length} past the TTL), ${targeted.length} DELETEs (${maybe.length} unsure), ${holdings[0].length} rows held by every node`;
    },
  };
}

describe('cluster: 3 nats-servers + 3 svc nodes', { skip: missing ?? false }, () => {
  let nats: NatsCluster;
  const nodes: SvcNode[] = [];
  // Two table groups; a checkpoint once 64 KiB were applied, so the tests see them taken and loaded.
  const CLUSTER_URL = (): string => `${nats.url}?groups=2&checkpoint=65536`;

  before(async () => {
    nats = await NatsCluster.start();
    for (const id of ['svc1', 'svc2', 'svc3']) nodes.push(await SvcNode.start(id, CLUSTER_URL()));
    for (const n of nodes) await n.ready();
  });

  after(async () => {
    for (const n of nodes) await n.stop();
    await nats?.stop();
  });

  it('DDL, inserts, blobs, tags and expiry through any node are visible on every node when acknowledged', async () => {
    const [a, b, c] = nodes;
    await a.query('CREATE TABLE vis (k INT64, s SYMBOL)');
    for (const n of nodes) assert.deepEqual((await n.query('SHOW vis')).tables.length, 1, n.id);
    await b.query("INSERT INTO vis ($timestamp, k, s) VALUES (1, 10, 'x'), (2, 20, 'y')");
    for (const n of nodes) assert.deepEqual(await keysOn(n, 'vis'), [10, 20], n.id);
    await c.query("INSERT INTO vis ($timestamp, k, s) VALUES (3, 30, 'z')");
    for (const n of nodes) assert.deepEqual(await keysOn(n, 'vis'), [10, 20, 30], n.id);

    assert.equal((await c.request('POST', '/api/v1/blobs/docs%2Fone', 'first content')).status, 201);
    for (const n of nodes) assert.equal((await n.request('GET', '/api/v1/blobs/docs%2Fone/content')).body, 'first content', n.id);
    assert.equal((await a.request('PUT', '/api/v1/blobs/docs%2Fone/content', 'second')).status, 204);
    for (const n of nodes) assert.equal((await n.request('GET', '/api/v1/blobs/docs%2Fone/content')).body, 'second', n.id);

    assert.equal((await a.request('PATCH', '/api/v1/entries/docs%2Fone?action=attachTag&tag=red')).status, 200);
    assert.equal((await b.request('PATCH', '/api/v1/entries/vis?action=attachTag&tag=red')).status, 200);
    for (const n of nodes) {
      const page = (await n.request('GET', '/api/v1/tags/red/entries')).body as { aliases?: string[] } | string[];
      assert.deepEqual(Array.isArray(page) ? page : page.aliases, ['docs/one', 'vis'], n.id);
    }
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    assert.equal((await b.request('PATCH', `/api/v1/entries/docs%2Fone?action=setExpiry&expiry=${expiry}`)).status, 204);
    for (const n of nodes) assert.equal(((await n.request('GET', '/api/v1/blobs/docs%2Fone')).body as { expiry: number }).expiry, expiry, n.id);
    // An expiry that passes removes the blob everywhere.
    assert.equal((await c.request('POST', '/api/v1/blobs/soon', 'x')).status, 201);
    const soon = Math.floor(Date.now() / 1000) + 2;
    assert.equal((await c.request('PATCH', `/api/v1/entries/soon?action=setExpiry&expiry=${soon}`)).status, 204);
    await new Promise((r) => setTimeout(r, (soon + 1) * 1000 - Date.now()));
    for (const n of nodes) assert.equal((await n.request('GET', '/api/v1/blobs/soon')).status, 404, n.id);

    assert.equal((await c.request('DELETE', '/api/v1/entries/docs%2Fone')).status, 200);
    for (const n of nodes) assert.equal((await n.request('GET', '/api/v1/blobs/docs%2Fone')).status, 404, n.id);
    await c.query('DROP TABLE vis');
    for (const n of nodes) {
      const r = await n.request('POST', '/api/query', { query: 'SHOW vis' });
      assert.equal((r.body as { error: string }).error, 'QuerySemantic', n.id); // as on a single node: no table named 'vis'
    }
    // The alias is free again, on any node.
    await b.query('CREATE TABLE vis (k INT64)');
    for (const n of nodes) assert.deepEqual(await keysOn(n, 'vis'), [], n.id);
  });

  it('two nodes creating the same table at once: exactly one succeeds', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race${round}`;
      const answers = await Promise.all(nodes.map((n) => n.request('POST', '/api/query', { query: `CREATE TABLE ${name} (v DOUBLE)` })));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses.filter((s) => s === 200), [200], `round ${round}: ${JSON.stringify(answers)}`);
      for (const r of answers) if (r.status !== 200) assert.equal((r.body as { error: string }).error, 'AliasAlreadyExists');
    }
  });

  it('line protocol through every node at once: one table made by the first writes, fields added on first sight by several nodes, every value in its column on every node', async () => {
    const writes: Promise<{ status: number; body: unknown }>[] = [];
    const expected = new Map<string, { count: number; sum: number }>();
    for (let j = 0; j < 12; j++) {
      for (const [i, n] of nodes.entries()) {
        const field = `f${i}_${j % 4}`;
        const e = expected.get(field) ?? { count: 0, sum: 0 };
        expected.set(field, { count: e.count + 1, sum: e.sum + j });
        writes.push(n.request('POST', '/write?precision=ns', `lp,host=n${i} ${field}=${j}i,common=${i * 100 + j} ${i * 1000 + j + 1}`));
      }
    }
    for (const r of await Promise.all(writes)) assert.equal(r.status, 204, JSON.stringify(r.body));
    const fields = [...expected.keys()].sort();
    const select = `SELECT count(common), ${fields.map((f) => `count(${f}), sum(${f})`).join(', ')} FROM lp`;
    for (const n of nodes) {
      const t = (await n.query(select)).tables[0];
      const value = (name: string): number => Number(t.columns.find((c) => c.name === name)!.data[0]);
      assert.equal(value('count(common)'), 36, n.id);
      for (const f of fields) {
        assert.equal(value(`count(${f})`), expected.get(f)!.count, `${n.id} ${f}`);
        assert.equal(value(`sum(${f})`), expected.get(f)!.sum, `${n.id} ${f}`);
      }
    }
  });

  it('api/cluster lists every node and is stable; api/nodes/:id answers for any node through any node; /metrics gives each log\'s position on the node', async () => {
    const deadline = Date.now() + 20_000;
    let cluster: { nodes: string[]; status: string; memoryTotal: number } | null = null;
    while (Date.now() < deadline) {
      cluster = (await nodes[1].request('GET', '/api/cluster')).body as typeof cluster;
      if (cluster!.status === 'stable') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(cluster!.nodes, ['svc1', 'svc2', 'svc3']);
    assert.equal(cluster!.status, 'stable');
    for (const asker of nodes) {
      for (const target of nodes) {
        const r = await asker.request('GET', `/api/nodes/${target.id}`);
        assert.equal(r.status, 200, `${asker.id} asking for ${target.id}: ${JSON.stringify(r.body)}`);
        assert.equal((r.body as { id: string }).id, target.id);
      }
    }
    assert.equal((await nodes[0].request('GET', '/api/nodes/nobody')).status, 404);
    // Every node has applied each stream up to its last sequence (nothing is written now).
    const nc = await connect({ servers: nats.servers });
    try {
      const jsm = await jetstreamManager(nc);
      const last = new Map<string, number>();
      for await (const s of jsm.streams.list()) if (/^svc_(meta|g\d+)$/.test(s.config.name)) last.set(s.config.name, s.state.last_seq);
      assert.ok((last.get('svc_meta') ?? 0) > 0, 'the blobs and tags written are in svc_meta');
      for (const node of nodes) {
        const text = String((await node.request('GET', '/metrics')).body);
        for (const [stream, seq] of last) {
          assert.match(text, new RegExp(`\\nsvc_cluster_applied_sequence\\{log="${stream}"\\} ${seq}\\n`), `${node.id}, ${stream}`);
          assert.match(text, new RegExp(`\\nsvc_cluster_pending_messages\\{log="${stream}"\\} 0\\n`), `${node.id}, ${stream}`);
          assert.match(text, new RegExp(`\\nsvc_cluster_publish_retries_total\\{log="${stream}"\\} \\d+\\n`), `${node.id}, ${stream}`);
        }
        const skip = peerMissing('promtool');
        if (skip !== null) continue;
        const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
        assert.equal(check.status, 0, `promtool check metrics: ${check.stdout}${check.stderr}`);
      }
    } finally {
      await nc.close();
    }
  });

  it('kill matrix under write load (NATS leader, NATS follower, an svc node), DELETE and TTL in the workload: 0 acknowledged rows lost or duplicated, all nodes equal', async (t) => {
    await nodes[0].query('CREATE TABLE load (k INT64)');
    const life = lifecycleLoad(nodes);
    await life.create();
    const acked = new Set<number>();
    const unsure = new Set<number>();
    const lastErrors: string[] = [];
    let next = 0;
    let stop = false;
    let round = 0;
    const writer = async (): Promise<void> => {
      while (!stop) {
        const node = nodes[round++ % nodes.length];
        if (!node.isRunning) { await new Promise((r) => setTimeout(r, 20)); continue; }
        const keys = Array.from({ length: 5 }, () => next++);
        const values = keys.map((k) => `(${k + 1}, ${k})`).join(', ');
        try {
          const r = await node.request('POST', '/api/query', { query: `INSERT INTO load ($timestamp, k) VALUES ${values}` }, 40_000);
          for (const k of keys) (r.status === 200 ? acked : unsure).add(k);
          if (r.status !== 200) lastErrors.push(`${node.id} ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        } catch (e) {
          lastErrors.push(`${node.id} ${(e as Error).message}`);
          for (const k of keys) unsure.add(k); // the connection died: the write may or may not be in
        }
      }
    };
    const until = async (more: number): Promise<void> => {
      const want = acked.size + more;
      const deadline = Date.now() + 60_000;
      while (acked.size < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const problems = nodes.map((n) => `${n.id}: ${n.server.stderr().split('\n').filter((l) => l !== '' && !l.includes('"status":200') && !l.includes('"event":"query"')).slice(-5).join(' | ')}`);
      assert.ok(acked.size >= want, `writes stalled: ${acked.size} of ${want} rows acknowledged; last errors: ${lastErrors.slice(-5).join('; ')}; ${problems.join('; ')}`);
    };
    const writers = [...Array.from({ length: 6 }, () => writer()), life.insert(() => stop), life.delete(() => stop)];
    const stream = (await nodes[0].request('GET', '/api/cluster')).status === 200 ? `svc_g${groupOf('load', 2)}` : '';
    try {
      await until(200);
      const leader = await nats.leaderOf(stream);
      t.diagnostic(`killing NATS ${nats.name(leader)}, leader of ${stream}`);
      await nats.kill(leader);
      await until(200);
      await nats.restart(leader);
      await until(200);
      const newLeader = await nats.leaderOf(stream);
      const follower = [0, 1, 2].find((i) => i !== newLeader)!;
      t.diagnostic(`killing NATS ${nats.name(follower)}, a follower of ${stream}`);
      await nats.kill(follower);
      await until(200);
      await nats.restart(follower);
      await until(200);
      t.diagnostic('killing svc3');
      await nodes[2].kill();
      await until(200);
      await nodes[2].restart();
      await nodes[2].ready();
      await until(200);
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const holdings = await Promise.all(nodes.map((n) => keysOn(n, 'load')));
    const counts = new Map<number, number>();
    for (const k of holdings[0]) counts.set(k, (counts.get(k) ?? 0) + 1);
    assert.deepEqual([...counts].filter(([, c]) => c > 1), [], 'rows applied twice');
    assert.deepEqual([...acked].filter((k) => !counts.has(k)), [], 'acknowledged rows lost');
    for (const k of counts.keys()) assert.ok(acked.has(k) || unsure.has(k), `row ${k} was never written`);
    // Should a node differ, say how (keys twice or missing, their range) and what it logged of its
    // checkpoints and catch-up, before asserting.
    for (const [i, h] of holdings.entries()) {
      if (h.length === holdings[0].length && h.every((k, j) => k === holdings[0][j])) continue;
      const seen = new Map<number, number>();
      for (const k of h) seen.set(k, (seen.get(k) ?? 0) + 1);
      const twice = [...seen].filter(([, c]) => c > 1).map(([k]) => k);
      const missing = holdings[0].filter((k) => !seen.has(k));
      const span = (ks: number[]): string => (ks.length === 0 ? 'none' : `${ks.length} (${Math.min(...ks)}–${Math.max(...ks)})`);
      const logged = (await readFile(nodes[i].logFile, 'utf8').catch(() => '')).split('\n').filter((l) => /checkpoint|caught up|loaded|stream|sequence/i.test(l) && !l.includes('"event":"query"'));
      await new Promise((r) => setTimeout(r, 2_000));
      const again = await keysOn(nodes[i], 'load');
      // What each node's newest checkpoint holds, as written here (before any upload).
      for (const n of nodes) {
        const copy = await tempDir('svc-cp-copy-');
        await cp(join(n.dataDir, 'checkpoints'), join(copy, 'node', 'checkpoints'), { recursive: true }).catch(() => undefined);
        const held = await stubReplica(join(copy, 'node')).then(async ({ db, state }) => {
          try {
            await state.checkpoints.load();
            const all = await keysIn(db, 'load');
            return `${all.length} rows, ${new Set(all).size} distinct`;
          } finally {
            await db.close();
          }
        }, (e: Error) => `not loaded: ${e.message}`);
        t.diagnostic(`${n.id}'s newest checkpoint here: ${held}`);
        // Which batches (file, rows, time range) each checkpoint it published named.
        const published = (await readFile(n.logFile, 'utf8').catch(() => '')).split('\n').filter((l) => l.includes(' published ')).slice(-6);
        t.diagnostic(`${n.id} published last:\n${published.join('\n')}`);
      }
      t.diagnostic(`${nodes[i].id} holds ${h.length} rows, ${nodes[0].id} ${holdings[0].length}: twice ${span(twice)}, missing ${span(missing)}; asked again 2 s later: ${again.length} rows; its log:\n${logged.slice(-40).join('\n')}`);
    }
    for (const [i, h] of holdings.entries()) assert.deepEqual(h, holdings[0], `${nodes[i].id} differs from ${nodes[0].id}`);
    t.diagnostic(`${acked.size} rows acknowledged, ${unsure.size} unsure (their node died or the answer was an error), ${holdings[0].length} held by every node; ${nats.extraRestarts} NATS restarts repeated`);
    t.diagnostic(await life.check());
  });

  it('a 4th node joins under write load and catches up', async () => {
    await nodes[1].query('CREATE TABLE join4 (k INT64)');
    let stop = false;
    let next = 0;
    const acked: number[] = [];
    const writer = async (node: SvcNode): Promise<void> => {
      while (!stop) {
        const k = next++;
        const r = await node.request('POST', '/api/query', { query: `INSERT INTO join4 ($timestamp, k) VALUES (${k + 1}, ${k})` });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        acked.push(k);
      }
    };
    const writers = nodes.map((n) => writer(n));
    let fourth: SvcNode | null = null;
    try {
      await new Promise((r) => setTimeout(r, 500));
      fourth = await SvcNode.start('svc4', CLUSTER_URL());
      nodes.push(fourth);
      await fourth.ready();
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const expected = [...acked].sort((a, b) => a - b);
    // Read through the new node: its read barrier waits for everything acknowledged before.
    assert.deepEqual(await keysOn(fourth!, 'join4'), expected);
    assert.deepEqual(await keysOn(fourth!, 'load'), await keysOn(nodes[0], 'load'));
    const cluster = (await fourth!.request('GET', '/api/cluster')).body as { nodes: string[] };
    assert.deepEqual(cluster.nodes, ['svc1', 'svc2', 'svc3', 'svc4']);
    // It started from the cluster's newest checkpoint, not from the streams' first messages, and
    // the streams were trimmed behind the checkpoints every node had passed.
    assert.match(await readFile(fourth!.logFile, 'utf8'), /loaded checkpoint \d+ of svc\d/);
    const nc = await connect({ servers: nats.servers });
    try {
      const jsm = await jetstreamManager(nc);
      let first = 1;
      for (let i = 0; i < 100 && first <= 1; i++) {
        first = (await jsm.streams.info(`svc_g${groupOf('load', 2)}`)).state.first_seq;
        if (first <= 1) await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(first > 1, 'the stream was not trimmed within 20 s');
    } finally {
      await nc.close();
    }
  });

  it('placement: each table\'s part of a query runs on a node serving its group, and every query route answers with a single node\'s bytes', async () => {
    const names = Array.from({ length: 16 }, (_, i) => `part${i}`);
    const a = names.find((t) => groupOf(t, 2) === 0)!;
    const b = names.find((t) => groupOf(t, 2) === 1)!;
    // svc5 serves group 0, svc6 group 1, svc7 none: it holds no table's rows at all.
    const zero = await SvcNode.start('svc5', `${nats.url}?groups=2&serve=0`);
    nodes.push(zero);
    const one = await SvcNode.start('svc6', `${nats.url}?groups=2&serve=1`);
    nodes.push(one);
    const none = await SvcNode.start('svc7', `${nats.url}?groups=2&serve=`);
    nodes.push(none);
    for (const n of [zero, one, none]) await n.ready();
    const whole = nodes[0]; // serves every group: it runs every query alone, as a single node does
    for (const [i, t] of [a, b].entries()) {
      await [zero, one][i].query(`CREATE TABLE ${t} (k INT64, v DOUBLE, s SYMBOL, note STRING)`);
      const rows = Array.from({ length: 40 }, (_, r) => `(${r * 1_000_000_000 + i}, ${r}, ${r % 7 === 3 ? 'NULL' : (r * 1.25 + i) / 3}, '${['x', 'y', 'z'][r % 3]}', ${r % 5 === 0 ? 'NULL' : `'${t} ${r}'`})`);
      await none.query(`INSERT INTO ${t} ($timestamp, k, v, s, note) VALUES ${rows.join(', ')}`);
      assert.equal((await one.request('PATCH', `/api/v1/entries/${t}?action=attachTag&tag=placed`)).status, 200);
    }
    const arrow = { accept: 'application/vnd.apache.arrow.stream' };
    const q = (text: string): string => encodeURIComponent(text);
    const asks: [string, string, unknown?, Record<string, string>?][] = [
      ['POST', '/api/query', { query: `SELECT count(v), sum(v), min(v), max(v), first(v), last(v), sum_of_squares(v), avg(k) FROM ${a}, ${b}` }],
      ['POST', '/api/query', { query: `SELECT * FROM ${b}, ${a} WHERE k > 20 ORDER BY v DESC LIMIT 7` }],
      ['POST', '/api/query', { query: `SELECT count(k), sum(v), last(note) FROM ${a}, ${b} GROUP BY s` }],
      ['POST', '/api/query', { query: `SELECT min(v), max(k) FROM ${a}, ${b} GROUP BY 10s` }, arrow],
      ['POST', '/api/query', { query: "SELECT count(note), first(note) FROM FIND(tag='placed')" }],
      ['GET', `/query_exp?query=${q(`SELECT k, v, s FROM ${a}, ${b} WHERE v > 9`)}&date_format=js`],
      ['POST', '/query_exp', { query: "SELECT spread(v), last(s) FROM FIND(tag='placed') GROUP BY 5s" }],
      ['POST', '/query_find', { query: "find(tag='placed')" }],
    ];
    const join = `SELECT ${b}.v, ${a}.v FROM ${b} ASOF JOIN ${a}`;
    const answers = async (node: SvcNode, list: typeof asks): Promise<string[]> => {
      const out: string[] = [];
      for (const [method, path, body, headers] of list) {
        const r = await node.raw(method, path, body, headers);
        assert.equal(r.status, 200, `${node.id} ${method} ${path}: ${r.bytes.toString().slice(0, 300)}`);
        out.push(`${r.type}\n${r.bytes.toString('base64')}`);
      }
      return out;
    };
    const expected = await answers(whole, [...asks, ['POST', '/api/query', { query: join }]]);
    assert.ok(expected[0].length > 100 && expected[5].length > 100, 'the reference answers hold rows');
    for (const n of [zero, one, none]) assert.deepEqual(await answers(n, [...asks, ['POST', '/api/query', { query: join }]]), expected, `${n.id} answers as one node holding everything does`);

    // Now no live node holds both tables: each runs where its group is served.
    for (const n of nodes.slice(0, 4)) await n.kill();
    for (const n of [zero, one, none]) assert.deepEqual(await answers(n, asks), expected.slice(0, asks.length), `${n.id} with no node holding both tables`);
    // A join reads both tables in one place: no node can run it.
    const refused = await none.request('POST', '/api/query', { query: join });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal((refused.body as { error: string }).error, 'ClusterUnavailable');
    // svc6 is the last node serving group 1: without it, b cannot be read, a still can.
    await one.kill();
    const lost = await none.request('POST', '/api/query', { query: `SELECT count(v) FROM ${b}` });
    assert.equal(lost.status, 503, JSON.stringify(lost.body));
    assert.match(JSON.stringify(lost.body), /group 1/);
    const [count] = await answers(none, [['POST', '/api/query', { query: `SELECT count(v) FROM ${a}` }]]);
    const [single] = await answers(zero, [['POST', '/api/query', { query: `SELECT count(v) FROM ${a}` }]]);
    assert.equal(count, single);
  });

  it('pointed at nats-server 2.9.10 (Debian 12), svc_rest refuses to start', { skip: missingNatsServer('bookworm') ?? false }, async () => {
    const old = await NatsCluster.start({ size: 1, binary: natsServerPath('bookworm'), isSyncAlways: false });
    try {
      const dir = await tempDir('svc-old-');
      const e = await spawnServer(dir, ['--cluster', old.url, '--node-id', 'old', '--log-file', `${dir}/log`], 30_000).then(() => null, (err: Error) => err);
      assert.ok(e !== null, 'svc_rest started against nats-server 2.9.10');
      assert.match(e.message, /exited \(code 1[,)].*2\.9\.10.*2\.10\.23/s);
    } finally {
      await old.stop();
    }
  });
});

/** The table group of `name` among `groups` (FNV-1a of the name, computed here as table-groups.ts says). */
function groupOf(name: string, groups: number): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(name)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h % groups;
}
