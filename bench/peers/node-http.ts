// The HTTP bench's peer: the same handlers as svc_rest for the benched routes, served by
// node:http instead of uWebSockets.js. Each calls the same engine method and the same encoder
// (server/encode) as the real handler, and streams the chunks with the same backpressure rule
// (wait for 'drain' when the socket's buffer is full), so the ratio measures the HTTP layer.
// Routes: GET /api/status/liveness, GET /api/v1/blobs/:alias/content, GET /query_exp
// (date_format js|native; Arrow with `Accept: application/vnd.apache.arrow.stream`).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Database } from '../../engine/index.js';
import { ARROW_STREAM_MIME, encodeArrowStream, encodeQueryExp } from '../../server/encode/index.js';

const BLOB_PREFIX = '/api/v1/blobs/';
const CONTENT_SUFFIX = '/content';

export interface NodeHttpPeer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startNodeHttpPeer(db: Database, host = '127.0.0.1'): Promise<NodeHttpPeer> {
  const server = createServer((req, res) => {
    handle(db, req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { code: 500, error: 'InternalError', message: e instanceof Error ? e.message : String(e) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function handle(db: Database, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://peer');
  const path = url.pathname;
  if (req.method !== 'GET') return sendJson(res, 405, { code: 405, error: 'MethodNotAllowed', message: 'GET only' });
  if (path === '/api/status/liveness') return sendJson(res, 200, { status: 'up' });
  if (path.startsWith(BLOB_PREFIX) && path.endsWith(CONTENT_SUFFIX)) {
    const alias = decodeURIComponent(path.slice(BLOB_PREFIX.length, -CONTENT_SUFFIX.length));
    const { mime } = db.describeBlob(alias);
    const data = await db.getBlob(alias);
    res.writeHead(200, { 'Content-Type': mime, 'Content-Length': data.byteLength });
    res.end(data);
    return;
  }
  if (path === '/query_exp') {
    const query = url.searchParams.get('query') ?? '';
    const dateFormat = url.searchParams.get('date_format') === 'js' ? 'js' : 'native';
    // The same cancellation as svc_rest: a flag the engine reads (an AbortSignal costs ~3 µs).
    const signal = { aborted: false };
    res.on('close', () => { signal.aborted = true; });
    const result = await db.query(query, { readOnly: true, signal });
    const isArrow = (req.headers.accept ?? '').includes(ARROW_STREAM_MIME);
    res.writeHead(200, { 'Content-Type': isArrow ? ARROW_STREAM_MIME : 'application/json' });
    await streamChunks(res, isArrow ? encodeArrowStream(result) : encodeQueryExp(query, result, dateFormat));
    return;
  }
  sendJson(res, 404, { code: 404, error: 'RouteNotFound', message: `no route ${path}` });
}

/** Writes the chunks, pausing on a full socket buffer until 'drain'; stops if the client left. */
async function streamChunks(res: ServerResponse, chunks: Iterable<Uint8Array>): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
