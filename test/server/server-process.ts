// Test-only: runs `svc_rest` (dist/server/cli.js) as a child process on an ephemeral loopback
// port, and a small keep-alive HTTP client for it. The fuzz and crash tests use a child rather
// than an in-process server: SIGKILL must hit the server alone, and a server that dies or logs a
// stack must show up as an exit code and stderr, not take the test runner down with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));

/** The one line the CLI prints on stdout once it accepts requests (SERVER.md's CLI contract). */
const READY_LINE = /^svc_rest listening on (http:\/\/([0-9.]+):(\d+))$/;

export interface ServerProcess {
  readonly child: ChildProcess;
  /** e.g. `http://127.0.0.1:43117` */
  readonly base: string;
  readonly host: string;
  readonly port: number;
  /** Resolves when the process is gone, however it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
  /** Everything the server wrote to stderr so far (its request log and any stack). */
  stderr(): string;
}

/**
 * Starts the CLI on `dataDir` and resolves once it printed its ready line. Fails (and kills the
 * child) when the child exits first or is not ready within `readyTimeoutMs`.
 */
export async function spawnServer(dataDir: string, extraArgs: readonly string[] = [], readyTimeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  let isRunning = true;
  // Keep only the tail of a chatty request log.
  child.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-200_000); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => { isRunning = false; resolve({ code, signal }); });
  });
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc_rest printed no ready line within ${readyTimeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`));
    }, readyTimeoutMs);
    child.stdout!.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => READY_LINE.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(READY_LINE.exec(line)!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`svc_rest exited (code ${code}, signal ${signal}) before it was ready; stdout: ${stdout} stderr: ${stderr}`));
    });
  });
  return {
    child, base: ready[1]!, host: ready[2]!, port: Number(ready[3]), exited,
    isRunning: () => isRunning, stderr: () => stderr,
  };
}

/** Stops a server with SIGKILL (if still running) and waits for the process to be gone. */
export async function killServer(server: ServerProcess): Promise<void> {
  if (server.isRunning()) server.child.kill('SIGKILL');
  await server.exited;
}

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body, gunzipped when the server sent `Content-Encoding: gzip`. */
  readonly body: Buffer;
  readonly rawBody: Buffer;
  text(): string;
  json(): any;
}

export interface SendInit {
  readonly body?: string | Uint8Array;
  readonly headers?: Record<string, string | number>;
  /** Fail the request when no complete answer arrived in this time (default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * One request over `agent` (keep-alive, so thousands of requests reuse a few connections; `false`
 * for a connection of its own). Rejects on a connection error or a timeout; any status resolves.
 */
export function send(agent: http.Agent | false, base: string, method: string, path: string, init: SendInit = {}): Promise<Reply> {
  const url = new URL(base);
  return new Promise<Reply>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = Buffer.byteLength(init.body);
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('error', reject);
      res.on('end', () => {
        const rawBody = Buffer.concat(parts);
        let body = rawBody;
        try {
          if (res.headers['content-encoding'] === 'gzip') body = gunzipSync(rawBody);
        } catch (e) {
          reject(new Error(`${method} ${path}: the gzip body does not gunzip: ${(e as Error).message}`));
          return;
        }
        resolve({
          status: res.statusCode!, headers: res.headers, body, rawBody,
          text: () => body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.setTimeout(init.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${path}: no answer within ${init.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A keep-alive agent for one test; `maxSockets` bounds the connections (and so the concurrency). */
export function keepAliveAgent(maxSockets = 8): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets });
}

/** Every alias of a list endpoint, following `links.next` from page to page. */
export async function allPages(agent: http.Agent, base: string, path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const aliases: string[] = [];
  let next: string | undefined = path;
  for (let pages = 0; next !== undefined; pages++) {
    assert.ok(pages < 10_000, `${path}: links.next never ends`);
    const reply = await send(agent, base, 'GET', next, { headers });
    assert.equal(reply.status, 200, `GET ${next}: ${reply.text()}`);
    const page = reply.json() as { aliases: string[]; links?: { next?: string } };
    assert.ok(Array.isArray(page.aliases), `GET ${next}: no aliases array`);
    aliases.push(...page.aliases);
    next = page.links?.next;
  }
  return aliases;
}

/** An alias as one path segment (`b/1` → `b%2F1`). */
export function aliasPath(alias: string): string {
  return encodeURIComponent(alias);
}
