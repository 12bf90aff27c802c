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
import { join } from 'node:path';
import { freePort } from '../../bench/peers/ingest-peers.js';

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

interface ServerSlot {
  readonly name: string;
  readonly port: number;
  readonly clusterPort: number;
  readonly monitorPort: number;
  readonly config: string;
  child: ChildProcess | null;
  log: string;
}

const live = new Set<ChildProcess>();
process.once('exit', () => { for (const c of live) c.kill('SIGKILL'); });

export class NatsCluster {
  private constructor(readonly dir: string, private readonly binary: string, private readonly slots: ServerSlot[]) {}

  /** Starts `size` servers (3 by default) and waits until JetStream answers on every one. */
  /** `isSyncAlways: false` leaves out `sync_interval`, which servers before 2.10 do not know. */
  static async start(options: { size?: number; binary?: string; timeoutMs?: number; isSyncAlways?: boolean } = {}): Promise<NatsCluster> {
    const size = options.size ?? 3;
    const binary = options.binary ?? natsServerPath();
    const dir = await mkdtemp(join(tmpdir(), 'svc-nats-'));
    const ports = await Promise.all(Array.from({ length: size * 3 }, () => freePort()));
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

  /** The server's output so far (for failure messages). */
  logOf(i: number): string {
    return this.slots[i].log;
  }

  private spawn(i: number): void {
    const s = this.slots[i];
    const child = spawn(this.binary, ['-c', s.config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (b: Buffer): void => { s.log = (s.log + b.toString()).slice(-20_000); };
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

  /** Starts server i again on its ports and store, and waits until it reports healthy. */
  async restart(i: number, timeoutMs = 90_000): Promise<void> {
    await this.kill(i);
    this.spawn(i);
    await this.waitHealthy(timeoutMs, [i]);
  }

  /** Waits until /healthz answers 200 (JetStream up and its meta group current) on the given servers (all by default). */
  async waitHealthy(timeoutMs: number, which: number[] = this.slots.map((_, i) => i)): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const i of which) {
      const s = this.slots[i];
      for (;;) {
        if (s.child === null || s.child.exitCode !== null) throw new Error(`nats-server ${s.name} exited: ${s.log.slice(-2000)}`);
        const ok = await fetch(`http://127.0.0.1:${s.monitorPort}/healthz`).then((r) => r.ok, () => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`nats-server ${s.name} not healthy after ${timeoutMs} ms: ${s.log.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
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
