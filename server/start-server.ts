// Starts svc_rest in-process: the uWS app on host:port, the database in dataDir, the token
// authority. The port listens before the database has recovered, so liveness answers and
// readiness says 503 during a long WAL replay; the promise resolves once both are up.
import { mkdir } from 'node:fs/promises';
import { Database } from '../engine/index.js';
import type { Durability } from '../engine/index.js';
import { securityOff } from './auth/auth-policy.js';
import { TokenAuthority } from './auth/token-authority.js';
import type { Route, ServerState } from './handlers/context.js';
import { dispatch } from './http/dispatch.js';
import { RequestLog } from './http/request-log.js';
import { Router } from './http/router.js';
import { ASSETS_ROUTE, ROUTES } from './routes.js';
import { createApp, uws } from './uws.js';
import type { us_listen_socket } from './uws.js';

export interface ServerOptions {
  dataDir: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 40080; 0 picks a free port (see RunningServer.port). */
  port?: number;
  durability?: Durability;
  /** Largest request body and blob, in bytes (default 131072000). */
  maxInBufferSize?: number;
  /** Answered by GET /api/option/parallelism (default 1). */
  parallelismCount?: number;
  /** Request log file, appended to (default none: stderr only). */
  logFile?: string | null;
  /** Served for non-API GET/HEAD paths (the dashboard); default none (404). */
  assetsDir?: string | null;
  /** Reserved for issue 9 (node id = host:port of this URI). */
  clusterUri?: string;
  /** Log each request to stderr too (default true; tests turn it off). */
  logToStderr?: boolean;
}

export interface RunningServer {
  readonly port: number;
  readonly db: Database;
  /** Stops accepting, finishes in-flight requests, closes the database (checkpoint). */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 40080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAX_IN_BUFFER_SIZE = 131_072_000;
export const DEFAULT_PARALLELISM_COUNT = 1;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { dataDir } = options;
  const host = options.host ?? DEFAULT_HOST;
  const log = new RequestLog(options.logFile ?? null, options.logToStderr ?? true);
  await mkdir(dataDir, { recursive: true });
  const state: ServerState = {
    db: null,
    isClosing: false,
    settings: {
      maxInBufferSize: options.maxInBufferSize ?? DEFAULT_MAX_IN_BUFFER_SIZE,
      parallelismCount: options.parallelismCount ?? DEFAULT_PARALLELISM_COUNT,
      assetsDir: options.assetsDir ?? null,
    },
    authority: await TokenAuthority.open(dataDir),
    policy: securityOff,
  };
  const inFlight = new Set<Promise<void>>();
  const router = new Router<Route>(ROUTES, ASSETS_ROUTE);
  const app = createApp();
  const deps = {
    router,
    state,
    log,
    track: (done: Promise<void>) => {
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    },
  };
  app.any('/*', (res, req) => dispatch(res, req, deps));
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(host, options.port ?? DEFAULT_PORT, (s) => {
      if (s === false) reject(new Error(`cannot listen on ${host}:${options.port ?? DEFAULT_PORT} (address in use or not available)`));
      else resolve(s);
    });
  }).catch(async (e: unknown) => {
    app.close();
    await log.close();
    throw e;
  });
  const port = uws().us_socket_local_port(listenSocket as never);
  let db: Database;
  try {
    db = await Database.open({ dataDir, durability: options.durability ?? 'fsync', log: (m) => log.info(m) });
  } catch (e) {
    uws().us_listen_socket_close(listenSocket);
    app.close();
    await log.close();
    throw e;
  }
  state.db = db;
  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    state.isClosing = true;
    uws().us_listen_socket_close(listenSocket);
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    // Idle keep-alive connections would keep the process alive; nothing is in flight on them.
    app.close();
    try {
      await db.close();
    } finally {
      await log.close();
    }
  };
  return {
    port,
    db,
    close: () => (closing ??= close()),
  };
}
