// The route table: every path the server answers, as constants, and one (method, path, handler)
// entry per route with how it is guarded and compressed. Dispatch (http/dispatch.ts) matches
// against this list only; a route that is not here does not exist.
import { liveness, readiness } from './handlers/api/status.js';
import type { Route } from './handlers/context.js';

export const PATHS = {
  liveness: '/api/status/liveness',
  readiness: '/api/status/readiness',
} as const;

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: PATHS.liveness, handler: liveness, access: 'public', compress: 'always', hasBody: false },
  { method: 'GET', path: PATHS.readiness, handler: readiness, access: 'public', compress: 'always', hasBody: false },
];
