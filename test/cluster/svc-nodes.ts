// svc_rest nodes of a cluster for the tests and the bench: each a child process started with
// `--cluster nats://…` and its own data directory and node id, on a free loopback port; `api`
// speaks its REST routes. Killed with SIGKILL and restarted (same data directory and node id,
// a new port) by the kill matrix; every process is killed on stop.
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killServer, spawnServer } from '../server/server-process.js';
import type { ServerProcess } from '../server/server-process.js';

export interface ApiReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

export class SvcNode {
  constructor(readonly id: string, readonly dataDir: string, private readonly args: readonly string[], public server: ServerProcess) {}

  /** `root`: the folder to hold the node's data directory and log (default a new temporary one, removed by stop). */
  static async start(id: string, clusterUrl: string, extra: readonly string[] = [], root?: string): Promise<SvcNode> {
    // Not the tests' tempDir (its cleanup hook needs node:test, which the bench does not load).
    const dataDir = join(root ?? await mkdtemp(join(tmpdir(), 'svc-node-')), id);
    const args = ['--cluster', clusterUrl, '--node-id', id, '--log-file', logFileOf(dataDir), ...extra];
    return new SvcNode(id, dataDir, args, await spawn(id, dataDir, args));
  }

  /** The node's request log (the file --log-file names). */
  get logFile(): string {
    return logFileOf(this.dataDir);
  }

  get base(): string {
    return this.server.base;
  }

  get isRunning(): boolean {
    return this.server.isRunning();
  }

  async kill(): Promise<void> {
    await killServer(this.server);
  }

  async restart(): Promise<void> {
    await this.kill();
    this.token = null;
    this.server = await spawn(this.id, this.dataDir, this.args);
  }

  private token: string | null = null;

  async request(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<ApiReply> {
    if (this.token === null && path.startsWith('/api/') && !path.startsWith('/api/v1/') && path !== '/api/login' && !path.startsWith('/api/status/')) {
      const login = await this.request('POST', '/api/login', { username: '', secret_key: '' }, timeoutMs);
      this.token = (login.body as { token: string }).token;
    }
    const init: RequestInit = { method, signal: AbortSignal.timeout(timeoutMs), headers: this.token === null ? {} : { authorization: `Bearer ${this.token}` } };
    if (body !== undefined) init.body = (typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)) as BodyInit;
    const r = await fetch(`${this.base}${path}`, init).catch((e: Error) => { throw withLog(e, this.id, this.logFile, `${method} ${path}`); });
    const text = await r.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON: the text */ }
    return { status: r.status, body: parsed, headers: r.headers };
  }

  /** A request's status, Content-Type and body bytes as sent (authorised like `request`). */
  async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string; bytes: Buffer }> {
    if (this.token === null) await this.request('GET', '/api/cluster');
    const init: RequestInit = { method, signal: AbortSignal.timeout(30_000), headers: { ...headers, authorization: `Bearer ${this.token}` } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const r = await fetch(`${this.base}${path}`, init).catch((e: Error) => { throw withLog(e, this.id, this.logFile, `${method} ${path}`); });
    return { status: r.status, type: r.headers.get('content-type') ?? '', bytes: Buffer.from(await r.arrayBuffer()) };
  }

  /** POST /api/query; throws with the answer unless 200. */
  async query(text: string): Promise<{ tables: { columns: { name: string; type: string; data: unknown[] }[] }[] }> {
    const r = await this.request('POST', '/api/query', { query: text });
    if (r.status !== 200) throw new Error(`${this.id}: ${text.slice(0, 100)} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { tables: { columns: { name: string; type: string; data: unknown[] }[] }[] };
  }

  /** The values of column `name` of a SELECT's first table (empty when no rows). */
  async column(text: string, name: string): Promise<unknown[]> {
    const t = (await this.query(text)).tables[0];
    return t === undefined ? [] : t.columns.find((c) => c.name === name)!.data;
  }

  /** Waits until GET /api/status/readiness answers 200. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.request('GET', '/api/status/readiness').catch(() => null);
      if (r?.status === 200) return;
      if (Date.now() > deadline) throw new Error(`${this.id} not ready after ${timeoutMs} ms: ${JSON.stringify(r?.body)}; ${this.server.stderr().slice(-2000)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  async stop(): Promise<void> {
    await this.kill();
    // A stress loop keeps every node's log (SVC_TEST_KEEP_LOGS=<folder>) to read after a failed run.
    const keep = process.env.SVC_TEST_KEEP_LOGS;
    if (keep !== undefined && keep !== '') await cp(this.logFile, join(keep, `${this.id}-${process.pid}-${Date.now()}.log`)).catch(() => undefined);
    await rm(join(this.dataDir, '..'), { recursive: true, force: true });
  }
}

function logFileOf(dataDir: string): string {
  return join(dataDir, '..', 'svc_rest.log');
}

/** Starts the node's process; a start that fails says why with the tail of the node's log. */
function spawn(id: string, dataDir: string, args: readonly string[]): Promise<ServerProcess> {
  return spawnServer(dataDir, args, 60_000).catch((e: Error) => { throw withLog(e, id, logFileOf(dataDir)); });
}

/**
 * `e` naming the node (and request) it came from, with the tail of the node's log: a start that
 * never printed its ready line, or a request that timed out, tells what the node was doing.
 */
function withLog(e: Error, id: string, logFile: string, request = 'start'): Error {
  let tail: string;
  try {
    tail = readFileSync(logFile, 'utf8').split('\n').filter((l) => !l.includes('"method"') && !l.includes('"event":"query"')).slice(-25).join('\n');
  } catch (r) {
    tail = `(no log: ${(r as Error).message})`;
  }
  return new Error(`${id} ${request}: ${e.message}\n${id}'s log (last lines, requests left out):\n${tail}`, { cause: e });
}
