// Issue 18, the cluster on NATS JetStream: 3 nats-servers (R3, sync_interval: always) and 3
// svc_rest nodes on loopback, started by the suite (skipped when nats-server is missing: run
// scripts/install-test-peers.sh). Peers in one run:
// - `svc REST INSERT, 3 nodes`: 1,000-row INSERTs through POST /api/query, 8 in flight spread
//   over the 3 nodes; each is acknowledged once its entry is on a quorum and applied on the node;
// - `svc REST /write line protocol, 3 nodes`: the same rows as InfluxDB line protocol, POST /write;
// - `svc cluster write path (typed columns)`: the same rows through an in-process 4th node's
//   Database.insert (no query text to parse): svc's log path alone;
// - `JetStream alone, same bytes`: the substrate publishing, with the same 8 in flight, the very
//   entries svc would append for those inserts (the same encoded bytes), to a stream of its own.
// Metrics: ack latency p50/p99 of the REST inserts; the write pause when the stream's leader is
// SIGKILLed (the longest gap between acknowledgements of a writer that keeps going); the replay
// rate of a node joining a cluster whose stream holds the data (stream bytes ÷ time to ready).
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { join as joinPath } from 'node:path';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { openClusterNode } from '../../engine/index.js';
import type { ClusterNode, Database } from '../../engine/index.js';
import { entryBody, ensureStream } from '../../engine/cluster/jetstream-log.js';
import { groupOf } from '../../engine/cluster/table-groups.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { WalWriter } from '../../engine/durability/wal/wal-writer.js';
import { tempDir } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { missingNatsServer, NatsCluster } from '../../test/cluster/nats-cluster.js';
import { SvcNode } from '../../test/cluster/svc-nodes.js';

export const CLUSTER_SUITE = 'cluster';
export const CLUSTER_REST = 'svc REST INSERT, 3 nodes';
export const CLUSTER_LINE = 'svc REST /write line protocol, 3 nodes';
export const CLUSTER_EMBEDDED = 'svc cluster write path (typed columns)';
export const CLUSTER_SUBSTRATE = 'JetStream alone, same bytes';
export const CLUSTER_PAUSE = 'write pause on a stream leader kill';
export const CLUSTER_REPLAY = 'rejoin replay';

const ROWS_PER_INSERT = 1_000;
const INSERTS = Number(process.env.BENCH_CLUSTER_INSERTS ?? 200);
const IN_FLIGHT = 8;
const T0 = 1_700_000_000_000_000_000n;

export const clusterSkipReason: string | null = (() => {
  try {
    return missingNatsServer();
  } catch (e) {
    return (e as Error).message;
  }
})();

const fixture: {
  nats: NatsCluster | null;
  nodes: SvcNode[];
  local: { db: Database; cluster: ClusterNode; dir: { path: string; remove: () => Promise<void> } } | null;
  nc: NatsConnection | null;
  round: number;
  latencies: number[];
} = { nats: null, nodes: [], local: null, nc: null, round: 0, latencies: [] };

/** Batch `b` of the bench's rows: `$timestamp` plus v DOUBLE and k INT64. */
function batch(b: number): { ts: BigInt64Array; v: Float64Array; k: BigInt64Array } {
  const ts = new BigInt64Array(ROWS_PER_INSERT);
  const v = new Float64Array(ROWS_PER_INSERT);
  const k = new BigInt64Array(ROWS_PER_INSERT);
  for (let i = 0; i < ROWS_PER_INSERT; i++) {
    const n = b * ROWS_PER_INSERT + i;
    ts[i] = T0 + BigInt(n) * 1000n;
    v[i] = n + 0.25;
    k[i] = BigInt(n);
  }
  return { ts, v, k };
}

/** The same rows as InfluxDB line protocol (`v` a float, `k` an integer; nanosecond times). */
function lineProtocol(table: string, b: number): string {
  const { ts, v, k } = batch(b);
  const lines: string[] = [];
  for (let i = 0; i < ROWS_PER_INSERT; i++) lines.push(`${table} v=${v[i]},k=${k[i]}i ${ts[i]}`);
  return lines.join('\n');
}

function insertText(table: string, b: number): string {
  const { ts, v, k } = batch(b);
  const values: string[] = [];
  for (let i = 0; i < ROWS_PER_INSERT; i++) values.push(`(${ts[i]}, ${v[i]}, ${k[i]})`);
  return `INSERT INTO ${table} ($timestamp, v, k) VALUES ${values.join(', ')}`;
}

/** Problems unless every node holds all the rows of a run in `table`. */
async function rowsOnEveryNode(table: string): Promise<string[]> {
  const counts = await Promise.all(fixture.nodes.map((n) => n.column(`SELECT count(k) FROM ${table}`, 'count(k)')));
  return counts.every((c) => Number(c[0]) === INSERTS * ROWS_PER_INSERT) ? [] : [`nodes hold ${counts.map((c) => c[0]).join(', ')} rows`];
}

/** Runs `count` jobs with `width` in flight. */
async function pipelined(count: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await job(next++);
  }));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function start(): Promise<void> {
  if (clusterSkipReason !== null) throw new Error(clusterSkipReason);
  fixture.nats = await NatsCluster.start();
  for (const id of ['b1', 'b2', 'b3']) fixture.nodes.push(await SvcNode.start(id, fixture.nats.url));
  for (const n of fixture.nodes) await n.ready();
  const dir = await tempDir('svc-bench-cluster-');
  // SVC_COMPRESSION=false: the suite with checkpoint compression off (the svc_rest nodes read the variable too).
  const { db, cluster } = await openClusterNode({ dataDir: dir.path, sweepIntervalMs: 0, compression: process.env.SVC_COMPRESSION !== 'false' }, { servers: fixture.nats.servers, nodeId: 'bench-local', url: 'http://127.0.0.1:1' });
  fixture.local = { db, cluster, dir };
  fixture.nc = await connect({ servers: fixture.nats.servers });
  await ensureStream(await jetstreamManager(fixture.nc), { name: 'bench_raw', subjects: ['bench.raw'], replicas: 3 });
}

async function stop(): Promise<void> {
  await fixture.nc?.close();
  if (fixture.local !== null) {
    await fixture.local.db.close();
    await fixture.local.dir.remove();
  }
  for (const n of fixture.nodes) await n.stop();
  await fixture.nats?.stop();
  fixture.nodes = [];
  fixture.local = null;
  fixture.nats = null;
}

/** A fresh table for one run (created through node 0, visible on all once acknowledged). */
async function freshTable(kind: string): Promise<string> {
  const name = `${kind}_${fixture.round++}`;
  await fixture.nodes[0].query(`CREATE TABLE ${name} (v DOUBLE, k INT64)`);
  return name;
}

const restCase = defineCase({
  name: CLUSTER_REST,
  rows: INSERTS * ROWS_PER_INSERT,
  vs: [CLUSTER_SUBSTRATE],
  setup: async () => {
    const table = await freshTable('rest');
    // The query texts are made before the clock starts: the bench times svc, not the text's making.
    return { table, texts: Array.from({ length: INSERTS }, (_, b) => insertText(table, b)) };
  },
  run: async ({ texts }) => {
    const latencies: number[] = [];
    await pipelined(texts.length, IN_FLIGHT, async (i) => {
      const t = performance.now();
      await fixture.nodes[i % fixture.nodes.length].query(texts[i]);
      latencies.push(performance.now() - t);
    });
    fixture.latencies.push(...latencies);
  },
  check: (_, { table }) => rowsOnEveryNode(table),
});

const lineCase = defineCase({
  name: CLUSTER_LINE,
  rows: INSERTS * ROWS_PER_INSERT,
  vs: [CLUSTER_SUBSTRATE],
  setup: () => {
    const table = `line_${fixture.round++}`; // created by its first write, as line protocol does
    return { table, bodies: Array.from({ length: INSERTS }, (_, b) => lineProtocol(table, b)) };
  },
  run: async ({ bodies }) => {
    await pipelined(bodies.length, IN_FLIGHT, async (i) => {
      const r = await fixture.nodes[i % fixture.nodes.length].request('POST', '/write?precision=ns', bodies[i]);
      if (r.status !== 204) throw new Error(`/write answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    });
  },
  check: (_, { table }) => rowsOnEveryNode(table),
});

const embeddedCase = defineCase({
  name: CLUSTER_EMBEDDED,
  rows: INSERTS * ROWS_PER_INSERT,
  vs: [CLUSTER_SUBSTRATE],
  setup: async () => {
    const table = await freshTable('embedded');
    // The create, acknowledged by node 0, applied here too (db.query has no barrier of its own: a
    // SHOW alone once answered 'no table named' and the case failed).
    await fixture.local!.db.readBarrier();
    await fixture.local!.db.query(`SHOW ${table}`);
    return { table, batches: Array.from({ length: INSERTS }, (_, b) => batch(b)) };
  },
  run: async ({ table, batches }) => {
    await pipelined(batches.length, IN_FLIGHT, async (i) => {
      const { ts, v, k } = batches[i];
      await fixture.local!.db.insert(table, { $timestamp: ts, v, k });
    });
  },
  check: async (_, { table }) => {
    const n = fixture.local!.db.describeTable(table).rowCount;
    return n === INSERTS * ROWS_PER_INSERT ? [] : [`the node holds ${n} rows`];
  },
});

const substrateCase = defineCase({
  name: CLUSTER_SUBSTRATE,
  rows: INSERTS * ROWS_PER_INSERT,
  setup: () => {
    // The entries svc appends for these inserts, encoded as svc encodes them.
    return Array.from({ length: INSERTS }, (_, b) => {
      const { ts, v, k } = batch(b);
      const record: WalRecord = { kind: 'TableInsert', name: 'substrate', batch: { ts, columns: [{ type: 'DOUBLE', values: v, nulls: null }, { type: 'INT64', values: k, nulls: null }] } };
      return entryBody([record]);
    });
  },
  run: async (bodies) => {
    const js = jetstream(fixture.nc!);
    await pipelined(bodies.length, IN_FLIGHT, async (i) => {
      await js.publish('bench.raw', bodies[i]);
    });
  },
});

const pauseCase = defineCase({
  name: CLUSTER_PAUSE,
  setup: () => freshTable('pause'),
  run: async (table) => {
    // One writer per node keeps inserting; the leader of the table's stream is SIGKILLed after
    // 1 s and restarted after 12 s; the longest gap between two acknowledgements is the pause.
    const nats = fixture.nats!;
    const nc = fixture.nc!;
    const stream = `svc_g${groupOf(table, fixture.local!.cluster.groups)}`;
    const leader = nats.indexOf((await (await jetstreamManager(nc)).streams.info(stream)).cluster!.leader!);
    let stop = false;
    let last = performance.now();
    let longest = 0;
    let n = 0;
    const writers = fixture.nodes.map(async (node) => {
      while (!stop) {
        const k = n++;
        const r = await node.request('POST', '/api/query', { query: `INSERT INTO ${table} ($timestamp, k) VALUES (${k + 1}, ${k})` }, 60_000).catch(() => null);
        if (r?.status === 200) {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1_000));
    await nats.kill(leader);
    await new Promise((r) => setTimeout(r, 12_000));
    await nats.restart(leader);
    await new Promise((r) => setTimeout(r, 2_000));
    stop = true;
    await Promise.all(writers);
    recordMetric(CLUSTER_SUITE, CLUSTER_PAUSE, longest, 'ms', `NATS ${nats.name(leader)} (leader of ${stream}) SIGKILLed under 3 writers`);
  },
});

/** Rows the streams get before the replay is timed (env BENCH_CLUSTER_REPLAY_ROWS). */
const REPLAY_ROWS = Number(process.env.BENCH_CLUSTER_REPLAY_ROWS ?? 4_000_000);

/** Rows of one entry of the replay data: big entries (~2.4 MB, cut into parts under the 1 MiB message limit). */
const REPLAY_PER = 100_000;

/** Entry `b` of the replay data: `$timestamp`, v DOUBLE, k INT64. */
function replayBatch(b: number): { ts: BigInt64Array; v: Float64Array; k: BigInt64Array } {
  const ts = new BigInt64Array(REPLAY_PER);
  const v = new Float64Array(REPLAY_PER);
  const k = new BigInt64Array(REPLAY_PER);
  for (let i = 0; i < REPLAY_PER; i++) {
    ts[i] = T0 + BigInt(b * REPLAY_PER + i);
    v[i] = i;
    k[i] = BigInt(b * REPLAY_PER + i);
  }
  return { ts, v, k };
}

/**
 * The physical bound of a replay on this machine: the same entries (same records, same bytes)
 * replayed by a single node from its WAL (read from the page cache, decoded, applied to an empty
 * state) by a fresh process, as the joining node is one. MB/s of entry bytes, as the follower
 * counts them.
 */
async function walReplayRate(table: string): Promise<{ mbPerS: number; note: string }> {
  const dir = await tempDir('svc-bench-walreplay-');
  try {
    const wal = new WalWriter(joinPath(dir.path, 'wal'), 1, 'os');
    await mkdir(joinPath(dir.path, 'wal'), { recursive: true });
    let bytes = 0;
    const create: WalRecord = { kind: 'TableCreate', name: table, columns: [{ name: 'v', type: 'DOUBLE' }, { name: 'k', type: 'INT64' }], shardSize: 86_400_000_000_000n };
    await wal.append([create]);
    for (let b = 0; b < Math.ceil(REPLAY_ROWS / REPLAY_PER); b++) {
      const { ts, v, k } = replayBatch(b);
      const records: WalRecord[] = [{ kind: 'TableInsert', name: table, batch: { ts, columns: [{ type: 'DOUBLE', values: v, nulls: null }, { type: 'INT64', values: k, nulls: null }] } }];
      bytes += entryBody(records).length;
      await wal.append(records);
    }
    await wal.close();
    const child = fileURLToPath(new URL('../peers/wal-replay-process.js', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [child, joinPath(dir.path, 'wal')], { timeout: 300_000 });
    const ms = Number(stdout.trim());
    return { mbPerS: bytes / 1e6 / (ms / 1000), note: `${(bytes / 1e6).toFixed(1)} MB of the same entries replayed from a WAL (page cache) in ${ms.toFixed(0)} ms by a fresh process` };
  } finally {
    await dir.remove();
  }
}

const replayCase = defineCase({
  name: CLUSTER_REPLAY,
  setup: async () => {
    const table = await freshTable('replay');
    const db = fixture.local!.db;
    await db.readBarrier();
    await db.query(`SHOW ${table}`);
    await pipelined(Math.ceil(REPLAY_ROWS / REPLAY_PER), 4, async (b) => {
      const { ts, v, k } = replayBatch(b);
      await db.insert(table, { $timestamp: ts, v, k });
    });
    return table;
  },
  run: async (table) => {
    // A node joining replays the streams after the newest checkpoint (none yet, unless the nodes
    // passed 256 MiB since they started: the note says which); then a checkpoint is taken and a
    // second node joins, loading it.
    const jsm = await jetstreamManager(fixture.nc!);
    let bytes = 0;
    for await (const s of jsm.streams.list()) if (s.config.name.startsWith('svc_')) bytes += s.state.bytes;
    const first = await join();
    const loaded = first.checkpoint === null ? 'no checkpoint loaded' : `after loading a checkpoint of ${(first.checkpoint.bytes / 1e6).toFixed(1)} MB`;
    recordMetric(CLUSTER_SUITE, `${CLUSTER_REPLAY}: MB/s`, first.replay.bytes / 1e6 / (first.replay.ms / 1000), 'MB/s', `${(first.replay.bytes / 1e6).toFixed(1)} MB in ${first.replay.entries} entries applied in ${first.replay.ms} ms by the follower, ${loaded}`);
    recordMetric(CLUSTER_SUITE, `${CLUSTER_REPLAY}: start to ready`, first.ms, 'ms', `${(bytes / 1e6).toFixed(1)} MB of streams, process start included`);
    const wal = await walReplayRate(table);
    recordMetric(CLUSTER_SUITE, `${CLUSTER_REPLAY}: single-node WAL replay MB/s`, wal.mbPerS, 'MB/s', wal.note);
    await fixture.local!.db.checkpoint();
    const second = await join();
    if (second.checkpoint !== null) {
      recordMetric(CLUSTER_SUITE, `${CLUSTER_REPLAY}: checkpoint load MB/s`, second.checkpoint.bytes / 1e6 / (second.checkpoint.ms / 1000), 'MB/s', `${(second.checkpoint.bytes / 1e6).toFixed(1)} MB downloaded from the object store and loaded in ${second.checkpoint.ms} ms; then ${(second.replay.bytes / 1e6).toFixed(1)} MB replayed in ${second.replay.ms} ms; start to ready ${second.ms.toFixed(0)} ms`);
    }
  },
});

interface Joined {
  readonly ms: number;
  readonly replay: { entries: number; bytes: number; ms: number };
  readonly checkpoint: { bytes: number; ms: number } | null;
}

/** Starts a node, waits until it is ready, reads what it logged of its start, stops it. */
async function join(): Promise<Joined> {
  const t = performance.now();
  const joiner = await SvcNode.start(`join${fixture.round++}`, fixture.nats!.url);
  try {
    await joiner.ready(300_000);
    const ms = performance.now() - t;
    // The node logs what its followers applied and how long they took, from their start.
    const deadline = Date.now() + 10_000;
    let log = '';
    let line: RegExpExecArray | null = null;
    while (line === null && Date.now() < deadline) {
      log = await readFile(joiner.logFile, 'utf8').catch(() => '');
      line = /caught up with the cluster's logs: (\d+) entries, (\d+) bytes in (\d+) ms/.exec(log);
      if (line === null) await new Promise((r) => setTimeout(r, 100));
    }
    if (line === null) throw new Error(`${joiner.id} logged no catch-up line`);
    const cp = /loaded checkpoint \d+ of \S+ \((\d+) bytes\) in (\d+) ms/.exec(log);
    return {
      ms,
      replay: { entries: Number(line[1]), bytes: Number(line[2]), ms: Number(line[3]) },
      checkpoint: cp === null ? null : { bytes: Number(cp[1]), ms: Number(cp[2]) },
    };
  } finally {
    await joiner.stop();
  }
}

export const clusterSuite: Suite = {
  name: CLUSTER_SUITE,
  mode: 'once',
  rounds: 2,
  setup: async () => {
    if (fixture.nats === null) await start();
  },
  cases: [restCase, lineCase, embeddedCase, substrateCase],
};

export const clusterFailoverSuite: Suite = {
  name: 'cluster failover',
  mode: 'once',
  rounds: 1,
  setup: async () => {
    if (fixture.nats === null) await start();
  },
  cases: [replayCase, pauseCase],
};

/** Stops the suites' nats-servers and svc nodes (run.ts calls it once every suite ran). */
export async function releaseClusterFixture(): Promise<void> {
  recordClusterLatencies();
  await stop();
}

/** Ack latency of the REST inserts of every round, recorded once the suites ran. */
function recordClusterLatencies(): void {
  if (fixture.latencies.length === 0) return;
  const sorted = [...fixture.latencies].sort((a, b) => a - b);
  recordMetric(CLUSTER_SUITE, 'REST insert ack p50', percentile(sorted, 0.5), 'ms', `${sorted.length} INSERTs of ${ROWS_PER_INSERT} rows, ${IN_FLIGHT} in flight`);
  recordMetric(CLUSTER_SUITE, 'REST insert ack p99', percentile(sorted, 0.99), 'ms', '');
}
