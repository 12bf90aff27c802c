// The JetStream log on 3 nats-servers (R3, sync_interval: always): entries of any size come back
// whole and in order through a follower; under publish load, the stream's leader and then a
// follower are SIGKILLed and restarted — every acknowledged entry is in the stream exactly once,
// no entry is applied twice (retries after the failover are dropped by message id), and a new
// follower reading the whole stream agrees with the one that followed it live. Also: svc's
// version check refuses Debian 12's nats-server 2.9.10.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamClient, JetStreamManager, PubAck } from '@nats-io/jetstream';
import { ensureStream, JetStreamLog } from '../../engine/cluster/jetstream-log.js';
import { LogFollower } from '../../engine/cluster/log-follower.js';
import { checkServerVersion } from '../../engine/cluster/server-version.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { prng } from '../prng.js';
import { missingNatsServer, NatsCluster, natsServerPath } from './nats-cluster.js';

const missing = missingNatsServer();
const SPEC = { name: 'svc_test', subjects: ['svc.test'], replicas: 3 };

function blob(alias: string, size: number, fill: number): WalRecord {
  return { kind: 'BlobPut', alias, data: new Uint8Array(size).fill(fill), mime: 'application/octet-stream', expiry: 0 };
}

/** Follows the stream from `from`, collecting the alias of every record applied. */
async function follow(nc: NatsConnection, from = 1): Promise<{ follower: LogFollower; seen: string[]; sizes: Map<string, number> }> {
  const seen: string[] = [];
  const sizes = new Map<string, number>();
  const follower = new LogFollower(jetstream(nc), SPEC.name, from, (records) => {
    for (const r of records) {
      if (r.kind !== 'BlobPut') continue;
      seen.push(r.alias);
      sizes.set(r.alias, r.data.length);
    }
  });
  await follower.start();
  return { follower, seen, sizes };
}

async function leaderOf(jsm: JetStreamManager): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const leader = await jsm.streams.info(SPEC.name).then((si) => si.cluster?.leader ?? '', () => '');
    if (leader !== '') return leader;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the stream has no leader after 10 s');
}

describe('JetStream log against scripted acknowledgements (no server)', () => {
  /** A client whose publishes answer, in turn, each of `answers` (an Error is thrown). */
  function scripted(answers: (PubAck | Error)[]): { js: JetStreamClient; msgIds: string[] } {
    const msgIds: string[] = [];
    const js = {
      publish: async (_subject: string, _data: Uint8Array, options: { msgID: string }) => {
        msgIds.push(options.msgID);
        const a = answers.length > 1 ? answers.shift()! : answers[0];
        if (a instanceof Error) throw a;
        return a;
      },
    } as unknown as JetStreamClient;
    return { js, msgIds };
  }
  const ack = (seq: number, duplicate = false): PubAck => ({ stream: SPEC.name, seq, duplicate, domain: '' });

  it('"duplicate" without a sequence is no acknowledgement: the same message id is asked again until the stream gives its sequence', async () => {
    // nats-server 2.10 answers a retry whose first attempt it has not stored yet with
    // {seq: 0, duplicate: true}; taken as stored, an entry whose first attempt was then lost
    // would be acknowledged and missing.
    const { js, msgIds } = scripted([new Error('timeout'), ack(0, true), ack(0, true), ack(7, true)]);
    const log = new JetStreamLog(js, SPEC.name, 'svc.test', 1 << 20);
    assert.equal(await log.append([blob('a', 10, 1)]), 7);
    assert.equal(msgIds.length, 4);
    assert.equal(new Set(msgIds).size, 1, 'every attempt carries the same message id');
    assert.equal(log.unstoredDuplicates, 2);
    assert.equal(log.duplicates, 1);
  });

  it('an id the stream keeps answering "duplicate, sequence 0" fails the append at the deadline: never acknowledged', async () => {
    const { js } = scripted([ack(0, true)]);
    const log = new JetStreamLog(js, SPEC.name, 'svc.test', 1 << 20, 600);
    await assert.rejects(log.append([blob('b', 10, 1)]), { code: 'ClusterUnavailable', message: /duplicate.*without a sequence/ });
  });
});

describe('JetStream log (3 nats-servers, R3)', { skip: missing ?? false }, () => {
  let cluster: NatsCluster;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  before(async () => {
    cluster = await NatsCluster.start();
    nc = await connect({ servers: cluster.servers, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
    jsm = await jetstreamManager(nc);
    await ensureStream(jsm, SPEC);
    await ensureStream(jsm, SPEC); // a second node finding the stream made
  });

  after(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  it('the servers are versions svc accepts', () => {
    checkServerVersion(nc.info!.version, 'test');
  });

  it('entries small and over the 1 MiB message limit come back whole, in order, at the acknowledged sequence', async () => {
    const log = new JetStreamLog(jetstream(nc), SPEC.name, 'svc.test', nc.info!.max_payload);
    const { follower, seen, sizes } = await follow(nc);
    const sizesIn = [0, 10, 1 << 20, 3 * (1 << 20) + 17, 100, 2_500_000];
    const positions: number[] = [];
    for (const [i, size] of sizesIn.entries()) positions.push(await log.append([blob(`e${i}`, size, i), blob(`e${i}b`, 1, 0)]));
    for (let i = 1; i < positions.length; i++) assert.ok(positions[i] > positions[i - 1]);
    await follower.waitFor(positions.at(-1)!, 10_000);
    assert.deepEqual(seen, sizesIn.flatMap((_, i) => [`e${i}`, `e${i}b`]));
    for (const [i, size] of sizesIn.entries()) assert.equal(sizes.get(`e${i}`), size);
    assert.equal(follower.appliedSeq, positions.at(-1));
    assert.ok(follower.isCaughtUp);
    await follower.stop();
  });

  it('SIGKILL of the stream leader, then of a follower, under publish load: every acknowledged entry exactly once', async (t) => {
    const log = new JetStreamLog(jetstream(nc), SPEC.name, 'svc.test', nc.info!.max_payload);
    const live = await follow(nc);
    const rand = prng(18);
    const acked = new Set<string>();
    /** The stream sequence each acknowledged entry was given (to tell, should one be missed, whether the stream holds it). */
    const ackedAt = new Map<string, number>();
    const failed = new Set<string>();
    let stop = false;
    let n = 0;
    const writer = async (): Promise<void> => {
      while (!stop) {
        const id = `k${n++}`;
        // One entry in 20 is over the message limit: parts publish and retry on their own.
        const size = rand() < 0.05 ? 1_500_000 : 200 + Math.floor(rand() * 2000);
        try {
          ackedAt.set(id, await log.append([blob(id, size, n & 0xff)]));
          acked.add(id);
        } catch {
          failed.add(id);
        }
      }
    };
    const writers = Array.from({ length: 8 }, () => writer());
    const until = async (count: number): Promise<void> => {
      const deadline = Date.now() + 60_000;
      while (acked.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(acked.size >= count, `only ${acked.size} of ${count} entries acknowledged within 60 s`);
    };
    try {
      await until(300);
      const leader = cluster.indexOf(await leaderOf(jsm));
      await cluster.kill(leader);
      const before = acked.size;
      await until(before + 300); // writes go on: a new leader took over
      await cluster.restart(leader);
      await until(acked.size + 300);
      const newLeader = cluster.indexOf(await leaderOf(jsm));
      const follower = [0, 1, 2].find((i) => i !== newLeader)!;
      await cluster.kill(follower);
      await until(acked.size + 300);
      await cluster.restart(follower);
      await until(acked.size + 300);
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const last = (await jsm.streams.info(SPEC.name)).state.last_seq;
    await live.follower.waitFor(last, 30_000);
    const replay = await follow(nc);
    await replay.follower.waitFor(last, 30_000);
    // Should an entry be missed, say by whom and what the stream holds at its sequence before asserting.
    for (const [name, { seen, follower }] of [['live', live], ['replay', replay]] as const) {
      const set = new Set(seen);
      for (const id of [...acked].filter((a) => !set.has(a))) {
        const seq = ackedAt.get(id)!;
        const held = await jsm.streams.getMessage(SPEC.name, { seq }).then((m) => (m === null ? 'nothing' : `${m.data.length} bytes, headers ${[...(m.header?.keys() ?? [])].map((k) => `${k}=${m.header.get(k)}`).join(' ')}`), (e: Error) => `nothing (${e.message})`);
        t.diagnostic(`${name} follower missed ${id}, acknowledged at sequence ${seq}; the stream holds ${held} there; reassembly ${JSON.stringify(follower.reassembly)}, reopens ${follower.reopens}`);
      }
    }
    for (const { seen } of [live, replay]) {
      const counts = new Map<string, number>();
      for (const id of seen) if (id.startsWith('k')) counts.set(id, (counts.get(id) ?? 0) + 1);
      const twice = [...counts].filter(([, c]) => c > 1);
      assert.deepEqual(twice, [], 'entries applied twice');
      const lost = [...acked].filter((id) => !counts.has(id));
      assert.deepEqual(lost, [], 'acknowledged entries lost');
      for (const id of counts.keys()) assert.ok(acked.has(id) || failed.has(id), `${id} was never written`);
    }
    // The kills did interrupt publishing: some parts were retried.
    assert.ok(log.retries > 0, 'no publish was retried: the kills did not hit the writers');
    t.diagnostic(`${acked.size} entries acknowledged, ${failed.size} failed, ${log.retries} parts retried, ${log.duplicates} retries found stored already, ${log.unstoredDuplicates} answered "duplicate" without a sequence; ${cluster.extraRestarts} restarts repeated`);
    assert.deepEqual(replay.seen, live.seen, 'a follower reading the stream afresh applies the same entries in the same order');
    await live.follower.stop();
    await replay.follower.stop();
  });

  it('Debian 12 nats-server 2.9.10 is refused by the version check', { skip: missingNatsServer('bookworm') ?? false }, () => {
    const out = spawnSync(natsServerPath('bookworm'), ['--version'], { encoding: 'utf8' });
    const version = /v?(\d+\.\d+\.\d+)/.exec(out.stdout + out.stderr)![1];
    assert.equal(version, '2.9.10');
    assert.throws(() => checkServerVersion(version, 'old'), { code: 'ClusterUnavailable', message: /2\.9\.10.*2\.10\.23/ });
    checkServerVersion('2.10.23', 'x');
    checkServerVersion('2.11.0', 'x');
    assert.throws(() => checkServerVersion('2.10.22', 'x'), { code: 'ClusterUnavailable' });
  });
});
