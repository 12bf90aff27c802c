// CORS from allowed_origins (SPEC §4): an allowed Origin is echoed in Access-Control-Allow-Origin
// (`*` in the list allows any); any other origin gets no allow header, so browsers refuse the
// answer. Preflight OPTIONS requests are answered here, before routing, on any path.
import type { Headers } from './reply.js';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Accept-Encoding';
const EXPOSE_HEADERS = 'X-Scanned-Rows-Count';

/** Shared by every same-origin request: no object per request. */
const NO_HEADERS: Headers = Object.freeze({});

export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  return origin !== '' && (allowed.includes('*') || allowed.includes(origin));
}

/** Headers for every reply to a cross-origin request (none when the origin is not allowed). */
export function corsHeaders(origin: string, allowed: readonly string[]): Headers {
  if (!isAllowedOrigin(origin, allowed)) return NO_HEADERS;
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
}

/** Extra headers of a preflight answer (204) for an allowed origin. */
export function preflightHeaders(origin: string, allowed: readonly string[]): Headers {
  if (!isAllowedOrigin(origin, allowed)) return {};
  return { 'Access-Control-Allow-Methods': ALLOW_METHODS, 'Access-Control-Allow-Headers': ALLOW_HEADERS, 'Access-Control-Max-Age': '600' };
}
