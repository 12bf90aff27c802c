// Secure mode's plain port (security on + TLS): every request, login included, is answered 308
// with the same path and query on the HTTPS port. Nothing is routed and no body is read (the
// connection closes after the answer), so a key file or token sent in clear is never accepted.
import type { HttpRequest, HttpResponse } from '../uws.js';
import { readRequest } from './request-info.js';
import type { RequestLog } from './request-log.js';

/** Answers 308 to https://<Host's name or fallbackHost>:<tlsPort><path>?<query>. */
export function redirectToHttps(res: HttpResponse, req: HttpRequest, tlsPort: number, fallbackHost: string, log: RequestLog): void {
  const request = readRequest(req);
  const hostname = hostOnly(req.getHeader('host')) ?? fallbackHost;
  const location = `https://${hostname}:${tlsPort}${request.path}${request.rawQuery === '' ? '' : `?${request.rawQuery}`}`;
  // Not an error (SPEC §8's bodies are 4xx/5xx): the same shape, for a client that shows bodies.
  const status = 308;
  const body = JSON.stringify({ code: status, message: `this server takes requests over HTTPS only: ${location}` });
  res.cork(() => {
    res.writeStatus(`${status} Permanent Redirect`).writeHeader('Location', location).writeHeader('Content-Type', 'application/json');
    res.end(body, true);
  });
  log.request(request.method, request.path, status, performance.now() - request.startedAt, Buffer.byteLength(body), false);
}

/** The host name of a Host header (IPv6 brackets kept), or null when it is not a plain host[:port]. */
function hostOnly(host: string): string | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d+)?$/.exec(host);
  return m === null ? null : m[1]!;
}
