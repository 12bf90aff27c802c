// The servers of the HTTP ingest bench and the differential test, each a child process on a free
// loopback port with its data in a temporary directory: svc_rest (dist/server/cli.js), influxd
// 1.6.7 (Debian's `influxdb`, with a configuration of its own: no reporting, no monitor store, no
// services beyond HTTP) and VictoriaMetrics (Debian's `victoria-metrics`, its `/write` taking line
// protocol). `stop()` kills the process and removes its directory.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PeerServer {
  readonly name: string;
  readonly base: string;
  readonly port: number;
  /** The process, for its CPU figures. */
  readonly pid: number;
  /** Its data directory (removed by stop). */
  readonly dir: string;
  /** Asks the server to stop (SIGTERM) and waits until it has: a clean stop, its data on disk. */
  terminate(): Promise<void>;
  stop(): Promise<void>;
}

const SVC_CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** GET `path` until it answers `status` (the server is up), or throw after `ms`. */
async function waitFor(base: string, path: string, status: number, child: ChildProcess, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const got = await new Promise<number>((resolve) => {
      const req = http.get(`${base}${path}`, { agent: false }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      req.on('error', () => resolve(0));
      req.setTimeout(2_000, () => req.destroy());
    });
    if (got === status) return;
    if (child.exitCode !== null) throw new Error(`${base}: the server exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error(`${base}${path} did not answer ${status} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function start(name: string, command: string, args: (dir: string, port: number) => Promise<string[]>, ready: { path: string; status: number }): Promise<PeerServer> {
  const dir = await mkdtemp(join(tmpdir(), `svc-peer-${name.replace(/\W+/g, '-')}-`));
  const port = await freePort();
  const child = spawn(command, await args(dir, port), { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_, reject) => child.once('error', (e) => reject(e)));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const terminate = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await Promise.race([waitFor(base, ready.path, ready.status, child), failed]);
  } catch (e) {
    await stop();
    throw e;
  }
  return { name, base, port, pid: child.pid!, dir, terminate, stop };
}

/** svc_rest with `durability` (fsync by default), its request log in its directory, metrics on. */
export function startSvc(durability: 'fsync' | 'os' | 'none' = 'fsync', extra: readonly string[] = []): Promise<PeerServer> {
  return start('svc', process.execPath, async (dir, port) => [
    SVC_CLI, '--data-dir', join(dir, 'data'), '--host', '127.0.0.1', '--port', String(port), '--durability', durability, '--log-file', join(dir, 'svc_rest.log'), ...extra,
  ], { path: '/api/status/readiness', status: 200 });
}

/** influxd 1.6.7 with its WAL fsynced as it is by default (wal-fsync-delay 0); `data`: more lines of its [data] section. */
export function startInfluxd(data: readonly string[] = []): Promise<PeerServer> {
  return start('influxd', 'influxd', async (dir, port) => {
    const config = join(dir, 'influxdb.conf');
    await writeFile(config, [
      'reporting-disabled = true', `bind-address = "127.0.0.1:${await freePort()}"`,
      '[meta]', `  dir = "${dir}/meta"`, '  logging-enabled = false',
      '[data]', `  dir = "${dir}/data"`, `  wal-dir = "${dir}/wal"`, '  query-log-enabled = false', '  trace-logging-enabled = false', ...data.map((l) => `  ${l}`),
      '[http]', '  enabled = true', `  bind-address = "127.0.0.1:${port}"`, '  log-enabled = false', '  max-body-size = 0',
      '[monitor]', '  store-enabled = false', '[continuous_queries]', '  enabled = false', '[subscriber]', '  enabled = false', '',
    ].join('\n'));
    return ['-config', config];
  }, { path: '/ping', status: 204 });
}

/** VictoriaMetrics single-node; retention long enough for the bench's timestamps. */
export function startVictoriaMetrics(): Promise<PeerServer> {
  return start('victoria-metrics', 'victoria-metrics', async (dir, port) => [
    `-httpListenAddr=127.0.0.1:${port}`, `-storageDataPath=${dir}`, '-retentionPeriod=100y', '-loggerLevel=ERROR',
  ], { path: '/health', status: 200 });
}
