// Starts and stops a cluster of nats-servers on loopback for the cluster tests and bench: each
// server on free ports (client, cluster route, monitoring), JetStream in a temporary folder with
// `sync_interval: always` (fsync before every acknowledgement; without it a SIGKILLed server can
// come back without acknowledged messages). Servers are child processes killed on stop, on
// process exit, and by `kill`/`restart` for the kill matrix (SIGKILL, same ports and store).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** Where scripts/install-nats-server.sh puts the binary of a Debian suite. */
export function natsServerPath(suite: 'trixie' | 'bookworm' = 'trixie'): string {
  const base = process.env.SVC_NATS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc', 'nats-server');
  return join(base, suite, 'root', 'usr', 'sbin', 'nats-server');
}

/**
 * Why the cluster tests cannot run here, or null. With CI=true a missing peer is a failure, never
 * a skip: the caller throws instead of skipping.
 */
export function missingNatsServer(suite: 'trixie' | 'bookworm' = 'trixie'): string | null {
  const path = natsServerPath(suite);
  if (existsSync(path)) return null;
  const why = `${path} is missing (run scripts/install-test-peers.sh)`;
  if (process.env.CI === 'true') throw new Error(`CI: ${why}`);
  return why;
}

interface StartOptions {
  size?: number;
  binary?: string;
  timeoutMs?: number;
  isSyncAlways?: boolean;
}

/** How long a started cluster has to place its first stream, and how many clusters are tried. */
const PLACEMENT_MS = 20_000;
const START_ATTEMPTS = 3;
/** How long a restarted server has to become current before it is restarted again. */
const RESTART_WAIT_MS = 30_000;

/** What this harness reads of `/jsz?accounts=true&streams=true`. */
interface StreamCluster {
  readonly leader?: string;
  readonly replicas?: readonly { readonly name: string; readonly current: boolean }[];
}
interface Jsz {
  readonly account_details?: readonly { readonly name: string; readonly stream_detail?: readonly { readonly name: string; readonly cluster?: StreamCluster }[] }[];
}

interface ServerSlot {
  readonly name: string;
  readonly port: number;
  readonly clusterPort: number;
  readonly monitorPort: number;
  readonly config: string;
  child: ChildProcess | null;
  log: string;
}

/**
 * A free port below the kernel's ephemeral range (32768–60999 on Linux). A server is restarted on
 * its old ports: one from that range, as listen(0) gives, can meanwhile become the local port of
 * some outgoing connection, and the restart then fails "address already in use" (seen once in
 * ~80 runs of the cluster test beside other tests). Ports here are never handed out that way.
 */
async function restartablePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const isFree = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (isFree) return port;
  }
}

const live = new Set<ChildProcess>();
process.once('exit', () => { for (const c of live) c.kill('SIGKILL'); });

export class NatsCluster {
  private constructor(readonly dir: string, private readonly binary: string, private readonly slots: ServerSlot[]) {}

  /**
   * Starts `size` servers (3 by default) and waits until JetStream answers on every one and can
   * place a stream on all of them. `isSyncAlways: false` leaves out `sync_interval`, which servers
   * before 2.10 do not know.
   *
   * A fresh 2.10.27 cluster on loopback now and then never takes a stream: every server healthy,
   * a metadata leader elected, yet "no suitable peers for placement" for over a minute (3 of ~160
   * starts beside two busy cores). Such a cluster is given up and another started on new ports.
   */
  static async start(options: StartOptions = {}): Promise<NatsCluster> {
    for (let attempt = 1; ; attempt++) {
      const cluster = await NatsCluster.startOnce(options);
      const problem = await cluster.placementProblem(PLACEMENT_MS);
      if (problem === null) return cluster;
      await cluster.stop();
      if (attempt === START_ATTEMPTS) throw new Error(`${START_ATTEMPTS} nats-server clusters in a row could not place a stream: ${problem}`);
    }
  }

  private static async startOnce(options: StartOptions): Promise<NatsCluster> {
    const size = options.size ?? 3;
    const binary = options.binary ?? natsServerPath();
    const dir = await mkdtemp(join(tmpdir(), 'svc-nats-'));
    const ports: number[] = [];
    while (ports.length < size * 3) {
      const port = await restartablePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const slots: ServerSlot[] = [];
    for (let i = 0; i < size; i++) {
      const [port, clusterPort, monitorPort] = ports.slice(i * 3, i * 3 + 3);
      slots.push({ name: `n${i + 1}`, port, clusterPort, monitorPort, config: join(dir, `n${i + 1}.conf`), child: null, log: '' });
    }
    const routes = slots.map((s) => `nats-route://127.0.0.1:${s.clusterPort}`);
    for (const s of slots) {
      await writeFile(s.config, [
        `server_name: ${s.name}`,
        `listen: 127.0.0.1:${s.port}`,
        `http: 127.0.0.1:${s.monitorPort}`,
        `jetstream { store_dir: "${join(dir, s.name)}"${options.isSyncAlways === false ? '' : ', sync_interval: always'} }`,
        size > 1 ? `cluster { name: svc, listen: 127.0.0.1:${s.clusterPort}, routes: [${routes.join(', ')}] }` : '',
        '',
      ].join('\n'));
    }
    const cluster = new NatsCluster(dir, binary, slots);
    try {
      for (let i = 0; i < size; i++) cluster.spawn(i);
      await cluster.waitHealthy(options.timeoutMs ?? 90_000);
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  get size(): number {
    return this.slots.length;
  }

  /** `nats://127.0.0.1:p1,127.0.0.1:p2,…` — what `--cluster` takes. */
  get url(): string {
    return `nats://${this.slots.map((s) => `127.0.0.1:${s.port}`).join(',')}`;
  }

  get servers(): string[] {
    return this.slots.map((s) => `127.0.0.1:${s.port}`);
  }

  name(i: number): string {
    return this.slots[i].name;
  }

  indexOf(name: string): number {
    return this.slots.findIndex((s) => s.name === name);
  }
  /** The index of the server leading `stream` (asked for up to 10 s: a leader election takes a few). */
  async leaderOf(stream: string): Promise<number> {
    const nc = await connect({ servers: this.servers, maxReconnectAttempts: 5 });
    try {
      const jsm = await jetstreamManager(nc);
      for (let i = 0; i < 100; i++) {
        const leader = await jsm.streams.info(stream).then((si) => si.cluster?.leader ?? '', () => '');
        if (leader !== '') return this.indexOf(leader);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await nc.close();
    }
    throw new Error(`stream ${stream} has no leader after 10 s`);
  }


  /** The server's output so far (for failure messages). */
  logOf(i: number): string {
    return this.slots[i].log;
  }

  private spawn(i: number): void {
    const s = this.slots[i];
    const child = spawn(this.binary, ['-c', s.config], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The tail of its output, without the warnings our own health polling causes (they would
    // push out what tells why a server is not healthy).
    const keep = (b: Buffer): void => { s.log = (s.log + b.toString().replace(/^.*Healthcheck failed.*\n/gm, '')).slice(-20_000); };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    live.add(child);
    child.once('exit', () => live.delete(child));
    s.child = child;
  }

  /** SIGKILLs server i (no shutdown of any kind) and waits until it is gone. */
  async kill(i: number): Promise<void> {
    const child = this.slots[i].child;
    this.slots[i].child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }

  /** Restarts beyond the first that `restart` needed (see there; a figure for tests). */
  extraRestarts = 0;

  /**
   * Starts server i again on its ports and store, and waits until it is up and every stream's
   * leader counts it current again (a test that kills another server next keeps its quorum).
   * Now and then a restarted 2.10.27 stays behind for good — "not current with the meta leader",
   * or a stream's Raft node unhealthy, past 90 s (3 of ~160 restarts beside two busy cores): after
   * RESTART_WAIT_MS it is SIGKILLed and started again, as an operator would.
   */
  async restart(i: number, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.kill(i);
      this.spawn(i);
      const until = Math.min(deadline, Date.now() + RESTART_WAIT_MS);
      try {
        await this.waitHealthy(until - Date.now(), [i]);
        await this.waitCurrent(i, until - Date.now());
        return;
      } catch (e) {
        this.checkAlive(i); // one that exited is a failure, not a slow start
        if (until >= deadline) throw e;
        this.extraRestarts++;
      }
    }
  }

  /**
   * Waits until `/healthz?js-server-only=true` answers 200 (JetStream up and current with its
   * metadata leader) on the given servers (all by default). Not the whole `/healthz`: in 2.10.27
   * it repairs what it checks — a stream whose Raft node it finds skewed, a race right after a
   * restart, has that node deleted and its state reset — so polling it would disturb the very
   * replicas a test waits for (upstream made it report only in 2.11.10, nats-server PR 7001).
   */
  async waitHealthy(timeoutMs: number, which: number[] = this.slots.map((_, i) => i)): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const i of which) {
      const s = this.slots[i];
      for (;;) {
        this.checkAlive(i);
        const ok = await fetch(`http://127.0.0.1:${s.monitorPort}/healthz?js-server-only=true`).then((r) => r.ok, () => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`nats-server ${s.name} not healthy after ${timeoutMs} ms: ${s.log.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Waits until the leader of every stream lists server i among its current replicas (from `/jsz`, which only reports). */
  private async waitCurrent(i: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.checkAlive(i);
      const behind = await this.streamsNotCurrentOn(this.slots[i].name);
      if (behind.length === 0) return;
      if (Date.now() > deadline) throw new Error(`nats-server ${this.slots[i].name} not current on ${behind.join(', ')} after ${timeoutMs} ms: ${this.slots[i].log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Streams whose leader is unknown, or does not count `name` current (each with why). */
  private async streamsNotCurrentOn(name: string): Promise<string[]> {
    const leaders = new Map<string, StreamCluster | null>();
    for (const [j, s] of this.slots.entries()) {
      if (s.child === null) continue;
      const jsz = await this.monitor(j, 'jsz?accounts=true&streams=true').catch(() => null) as Jsz | null;
      for (const a of jsz?.account_details ?? []) {
        for (const d of a.stream_detail ?? []) {
          const key = `${a.name} > ${d.name}`;
          if (!leaders.has(key)) leaders.set(key, null);
          if (d.cluster?.leader === s.name) leaders.set(key, d.cluster);
        }
      }
    }
    const behind: string[] = [];
    for (const [stream, c] of leaders) {
      if (c === null) behind.push(`${stream} (no leader)`);
      else if (c.leader !== name && c.replicas?.some((r) => r.name === name && !r.current)) behind.push(`${stream} (leader ${c.leader})`);
    }
    return behind;
  }

  /** Null once a stream replicated on every server could be made (and removed again), else why not. */
  private async placementProblem(timeoutMs: number): Promise<string | null> {
    const nc = await connect({ servers: this.servers, maxReconnectAttempts: -1 });
    try {
      const jsm = await jetstreamManager(nc);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await jsm.streams.add({ name: 'svc_probe', subjects: ['svc.probe'], num_replicas: this.size, storage: StorageType.Memory });
          await jsm.streams.delete('svc_probe');
          return null;
        } catch (e) {
          if (Date.now() > deadline) return `after ${timeoutMs} ms: ${(e as Error).message}`;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    } finally {
      await nc.close();
    }
  }

  private checkAlive(i: number): void {
    const s = this.slots[i];
    if (s.child === null || s.child.exitCode !== null) throw new Error(`nats-server ${s.name} exited: ${s.log.slice(-2000)}`);
  }

  /** The monitoring endpoint's JSON (e.g. `jsz?streams=true`) of server i. */
  async monitor(i: number, path: string): Promise<unknown> {
    const r = await fetch(`http://127.0.0.1:${this.slots[i].monitorPort}/${path}`);
    return r.json();
  }

  /** Kills every server and removes their stores. */
  async stop(): Promise<void> {
    await Promise.all(this.slots.map((_, i) => this.kill(i)));
    await rm(this.dir, { recursive: true, force: true });
  }
}
