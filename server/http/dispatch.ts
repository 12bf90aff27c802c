// One request, start to end: copy it out of uWS, register onAborted, match the route, start
// receiving the body, check the token, run the handler, and turn any failure into the JSON error
// reply of SPEC §8 (a bug: 500, its stack logged once). Everything before the first await runs in
// the uWS callback, as uWS requires.
import { authorize } from '../auth/auth-policy.js';
import { errorReply, HttpError } from '../errors.js';
import type { Route, RouteContext, ServerState } from '../handlers/context.js';
import type { HttpRequest, HttpResponse } from '../uws.js';
import { startBody } from './body.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import type { BodyReader } from './body.js';
import { Reply } from './reply.js';
import { acceptsGzip, readRequest, readRouteHeaders } from './request-info.js';
import type { RequestInfo } from './request-info.js';
import type { RequestLog } from './request-log.js';
import type { Router } from './router.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';

export interface DispatchDeps {
  readonly router: Router<Route>;
  readonly state: ServerState;
  readonly log: RequestLog;
  /** Where answered requests are counted (GET /metrics); null with --no-metrics. */
  readonly metrics: ServerMetrics | null;
  /** Called with the promise of each request's whole life (graceful close waits for them). */
  readonly track: (done: Promise<void>) => void;
}

export function dispatch(res: HttpResponse, req: HttpRequest, deps: DispatchDeps): void {
  const request = readRequest(req);
  const isHead = request.method === 'HEAD';
  const reply = new Reply(res, acceptsGzip(request.acceptEncoding), request.path.startsWith('/api/') ? 'always' : 'large', isHead);
  reply.extraHeaders = corsHeaders(request.origin, deps.state.settings.allowedOrigins);
  let body: BodyReader | null = null;
  let run: Promise<void>;
  try {
    if (request.method === 'OPTIONS' && request.origin !== '' && request.preflightMethod !== '') {
      // A CORS preflight: no route runs, no token is needed; a refused origin just gets no allow
      // headers. Any other OPTIONS goes to the router like any method (405 with Allow).
      run = declaresBody(request)
        ? fail(reply, new HttpError('BadRequest', 'a preflight request has no body'), request, deps, true)
        : reply.empty(204, preflightHeaders(request.origin, deps.state.settings.allowedOrigins));
      finish(run, request, reply, deps);
      return;
    }
    const match = deps.router.match(request.method, request.path);
    request.route = match.route.path;
    readRouteHeaders(req, request, match.route.reads, deps.state.policy.requiresToken(match.route.access));
    reply.compress = match.route.compress;
    // Any declared body is received (within the limit) before the handler acts, on every route:
    // a write never happens while its request is still arriving or is about to be refused.
    if (match.route.hasBody || declaresBody(request)) body = startBody(res, request.contentLength, Math.min(match.route.maxBody ?? Infinity, deps.state.settings.maxInBufferSize), (fn) => reply.onAbort(fn));
    run = handle(match.route, match.alias, request, reply, body, deps);
  } catch (e) {
    run = fail(reply, e, request, deps, hasUnreadBody(request, body));
  }
  finish(run, request, reply, deps);
}

function finish(run: Promise<void>, request: RequestInfo, reply: Reply, deps: DispatchDeps): void {
  // Logged once both the handler's promise settled and the reply is complete (or aborted); a
  // reply that is already complete when the handler returns (the usual case) costs no more waiting.
  const settled = (isFailed: boolean, reason: unknown): Promise<void> | void => {
    const log = (): void => {
      // Only a failure inside the error path itself lands here; it must not take the process down.
      if (isFailed) deps.log.bug(request.method, request.path, reason);
      const ms = performance.now() - request.startedAt;
      deps.log.request(request.method, request.path, reply.status, ms, reply.bytesSent, reply.aborted);
      deps.metrics?.observeRequest(request.method, request.route, reply.status, ms / 1000);
    };
    if (reply.isFinished) return log();
    return reply.done().then(log);
  };
  deps.track(run.then(() => settled(false, undefined), (e: unknown) => settled(true, e)));
}


async function handle(route: Route, alias: string, request: RequestInfo, reply: Reply, body: BodyReader | null, deps: DispatchDeps): Promise<void> {
  try {
    // A route that needs no token resolves its (empty) user without a promise of its own; the
    // token parameter is still read first, so a malformed one is a 400 on every route as before.
    const queryToken = request.query.get('token') ?? request.query.get('p');
    const user = deps.state.policy.requiresToken(route.access) ? await authorize(deps.state.policy, deps.state.authority, route.access, request.authorization, queryToken) : '';
    if (body !== null) await body.body;
    // A cluster node first applies every write acknowledged before this request (null: one node).
    const barrier = route.isData === false ? null : deps.state.db?.readBarrier() ?? null;
    if (barrier !== null) await barrier;
    const ctx: RouteContext = {
      request,
      alias,
      reply,
      state: deps.state,
      user,
      log: deps.log,
      body: () => body?.body ?? Promise.resolve(Buffer.alloc(0)),
    };
    await route.handler(ctx);
    if (!reply.isFinished && !reply.hasResponded) throw new Error(`handler of ${route.method} ${route.path} returned without replying`);
  } catch (e) {
    await fail(reply, e, request, deps, hasUnreadBody(request, body));
  }
}

async function fail(reply: Reply, e: unknown, request: RequestInfo, deps: DispatchDeps, closeConnection: boolean): Promise<void> {
  const r = errorReply(e);
  if (r.isBug) deps.log.bug(request.method, request.path, e);
  if (reply.isFinished) return;
  if (reply.hasResponded) {
    // Bytes already went out: the only honest signal left is a cut connection.
    reply.abortConnection();
    return;
  }
  await reply.send(r.status, r.body, { 'Content-Type': 'application/json', ...r.headers }, closeConnection);
}

/** A reply sent before the whole declared body arrived must close the connection. */
function hasUnreadBody(request: RequestInfo, body: BodyReader | null): boolean {
  return body !== null ? !body.isComplete() : declaresBody(request);
}

function declaresBody(request: RequestInfo): boolean {
  return (request.contentLength !== '' && request.contentLength !== '0') || request.transferEncoding !== '';
}

