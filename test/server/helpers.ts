// Shared helpers of the HTTP tests: a real server on an ephemeral port in a temporary data
// directory, and a raw node:http client (not fetch: tests need the bytes and the compression
// headers exactly as the server sent them).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startServer } from '../../server/index.js';
import type { RunningServer, ServerOptions } from '../../server/index.js';

export interface TestServer {
  readonly server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly dataDir: string;
  /** Closes the server and removes its data directory (unless `keepData`). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts a server on 127.0.0.1:<free port>; request logging to stderr is off unless asked. */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? await mkdtemp(join(tmpdir(), 'svc-server-test-'));
  const server = await startServer({ durability: 'none', logToStderr: false, ...options, dataDir, host: '127.0.0.1', port: 0 });
  let isStopped = false;
  return {
    server,
    base: `http://127.0.0.1:${server.port}`,
    dataDir,
    async stop(stopOptions = {}) {
      if (isStopped) return;
      isStopped = true;
      await server.close();
      if (stopOptions.keepData !== true) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Response {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body, gunzipped when Content-Encoding is gzip. */
  readonly body: Buffer;
  /** The body exactly as received. */
  readonly rawBody: Buffer;
  text(): string;
  json(): any;
}

export interface RequestInit {
  readonly body?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  /** The certificate authority to trust, for an `https:` base (e.g. the test's self-signed one). */
  readonly ca?: string;
}

/** One HTTP request over a fresh connection (no keep-alive, so tests never leak sockets). */
export function request(base: string, method: string, path: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(base);
  const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make({
      host: url.hostname,
      port: url.port,
      method,
      path,
      ca: init.ca,
      // node:http sends no Content-Length for a GET or DELETE body unless told to.
      headers: { Connection: 'close', ...(init.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(init.body)) }), ...init.headers },
      agent: false,
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const rawBody = Buffer.concat(parts);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(rawBody) : rawBody;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          rawBody,
          text: () => body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('error', reject);
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}

/** POST /api/login with empty credentials → the token. */
export async function login(base: string): Promise<string> {
  const r = await request(base, 'POST', '/api/login', { body: JSON.stringify({ username: '', secret_key: '' }) });
  assert.equal(r.status, 200, r.text());
  const token = r.json().token;
  assert.equal(typeof token, 'string');
  return token as string;
}

/** Asserts the SPEC §8 error body: `{"code":status,"error":code,"message":…}`. */
export function assertError(r: Response, status: number, code: string): void {
  assert.equal(r.status, status, `expected ${status} ${code}, got ${r.status}: ${r.text()}`);
  const body = r.json();
  assert.equal(body.code, status);
  assert.equal(body.error, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
}
