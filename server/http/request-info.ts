// Everything a handler may need from a uWS HttpRequest, copied out at once: the HttpRequest is
// stack-allocated and dies when the route callback returns, so nothing may read it after an await.
import type { HttpRequest } from '../uws.js';
import { QueryParams } from './query-params.js';

export interface RequestInfo {
  /** Upper-case method, e.g. 'GET'. */
  readonly method: string;
  /** The path as sent, still percent-encoded, without the query string. */
  readonly path: string;
  readonly query: QueryParams;
  readonly authorization: string;
  readonly accept: string;
  readonly acceptEncoding: string;
  /** The Content-Length header ('' when absent). */
  readonly contentLength: string;
  readonly transferEncoding: string;
  /** If-None-Match ('' when absent): assets answer 304 when it holds their ETag. */
  readonly ifNoneMatch: string;
  /** Origin ('' when absent): CORS. */
  readonly origin: string;
  /** Access-Control-Request-Method ('' when absent): marks an OPTIONS request as a CORS preflight. */
  readonly preflightMethod: string;
  /** Host ('' when absent): where the secure mode's redirect points. */
  readonly host: string;
  /** The query string as sent ('' when none), kept for redirects. */
  readonly rawQuery: string;
  readonly startedAt: number;
}

export function readRequest(req: HttpRequest): RequestInfo {
  const rawQuery = req.getQuery() ?? '';
  return {
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    query: new QueryParams(rawQuery),
    rawQuery,
    origin: req.getHeader('origin'),
    preflightMethod: req.getHeader('access-control-request-method'),
    host: req.getHeader('host'),
    authorization: req.getHeader('authorization'),
    accept: req.getHeader('accept'),
    acceptEncoding: req.getHeader('accept-encoding'),
    contentLength: req.getHeader('content-length'),
    transferEncoding: req.getHeader('transfer-encoding'),
    ifNoneMatch: req.getHeader('if-none-match'),
    startedAt: performance.now(),
  };
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
