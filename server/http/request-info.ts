// What a handler may read of a uWS HttpRequest, copied out before the route callback returns: the
// HttpRequest is stack-allocated and dies then, so nothing may read it after an await. Each
// getHeader is a native call, and a small request's whole handling costs only a few dozen of
// them: the headers every request needs are copied by readRequest, the others by
// readRouteHeaders only for the routes that use them (still before the first await).
import type { HttpRequest } from '../uws.js';
import { QueryParams } from './query-params.js';

/** Headers only some routes read; a route lists them in `Route.reads`. */
export type OptionalHeader = 'accept' | 'if-none-match' | 'content-encoding';

export class RequestInfo {
  /** Upper-case method, e.g. 'GET'. */
  readonly method: string;
  /** The path as sent, still percent-encoded, without the query string. */
  readonly path: string;
  /** The query string as sent ('' when none), kept for redirects. */
  readonly rawQuery: string;
  readonly query: QueryParams;
  /** Origin ('' when absent): CORS. */
  readonly origin: string;
  readonly acceptEncoding: string;
  /** The Content-Length header ('' when absent). */
  readonly contentLength: string;
  readonly transferEncoding: string;
  readonly startedAt: number;
  /** Access-Control-Request-Method of an OPTIONS request ('' otherwise): marks a CORS preflight. */
  readonly preflightMethod: string;
  /** Read only when the route needs a token ('' otherwise, and when absent). */
  authorization = '';
  /** Read only for routes whose `reads` lists it ('' otherwise, and when absent). */
  accept = '';
  /** If-None-Match, read only for routes whose `reads` lists it: assets answer 304 on their ETag. */
  ifNoneMatch = '';
  /** Content-Encoding of the body, read only for routes whose `reads` lists it (gzip ingest bodies). */
  contentEncoding = '';
  /** The matched route's path pattern ('' until matched): what /metrics labels requests with. */
  route = '';

  constructor(req: HttpRequest) {
    this.startedAt = performance.now();
    const method = req.getMethod();
    // uWS gives the method lower-case; the usual ones skip toUpperCase.
    this.method = method === 'get' ? 'GET' : method === 'post' ? 'POST' : method.toUpperCase();
    this.path = req.getUrl();
    this.rawQuery = req.getQuery() ?? '';
    this.query = new QueryParams(this.rawQuery);
    this.origin = req.getHeader('origin');
    this.acceptEncoding = req.getHeader('accept-encoding');
    this.contentLength = req.getHeader('content-length');
    this.transferEncoding = req.getHeader('transfer-encoding');
    this.preflightMethod = this.method === 'OPTIONS' ? req.getHeader('access-control-request-method') : '';
  }
}

export function readRequest(req: HttpRequest): RequestInfo {
  return new RequestInfo(req);
}

/** Copies the headers the matched route uses (call before any await). */
export function readRouteHeaders(req: HttpRequest, request: RequestInfo, reads: readonly OptionalHeader[] | undefined, needsToken: boolean): void {
  if (needsToken) request.authorization = req.getHeader('authorization');
  if (reads === undefined) return;
  for (const h of reads) {
    if (h === 'accept') request.accept = req.getHeader('accept');
    else if (h === 'content-encoding') request.contentEncoding = req.getHeader('content-encoding');
    else request.ifNoneMatch = req.getHeader('if-none-match');
  }
}

/** True when Accept-Encoding lists gzip (or `*`) without `q=0`. */
export function acceptsGzip(acceptEncoding: string): boolean {
  if (acceptEncoding === '') return false;
  // Clients send the same few header values over and over: each is parsed once.
  let known = gzipAnswers.get(acceptEncoding);
  if (known === undefined) {
    known = parseAcceptsGzip(acceptEncoding);
    if (gzipAnswers.size >= GZIP_ANSWERS_MAX) gzipAnswers.clear();
    gzipAnswers.set(acceptEncoding, known);
  }
  return known;
}

const GZIP_ANSWERS_MAX = 256;
const gzipAnswers = new Map<string, boolean>();

function parseAcceptsGzip(acceptEncoding: string): boolean {
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';').map((s) => s.trim());
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
