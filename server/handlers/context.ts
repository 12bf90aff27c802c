// What a handler gets: the request (already copied out of uWS), the decoded `:alias`, the reply,
// the body (received in full before the handler runs), and the server's state. Handlers are short: read the
// request, call one engine method, send the reply.
import type { ClusterNode, Database } from '../../engine/index.js';
import type { AuthPolicy, RouteAccess } from '../auth/auth-policy.js';
import type { TokenAuthority } from '../auth/token-authority.js';
import { HttpError } from '../errors.js';
import type { Reply, CompressPolicy } from '../http/reply.js';
import type { OptionalHeader, RequestInfo } from '../http/request-info.js';
import type { RequestLog } from '../http/request-log.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';

/** Server-wide settings handlers read (derived from the option table by startServer). */
export interface ServerSettings {
  readonly maxInBufferSize: number;
  readonly parallelismCount: number;
  /** The directory served for non-API GET/HEAD paths (the dashboard); null = none. */
  readonly assetsDir: string | null;
  /** This node's id: host:port of cluster_uri, or in a cluster --node-id (GET /api/nodes/:id). */
  nodeId: string;
  /** The data directory: api/cluster's disk figures are of its file system. */
  readonly dataDir: string;
  /** The package version (svcVersion). */
  readonly svcVersion: string;
  /** Origins that get CORS headers; `*` = any. */
  readonly allowedOrigins: readonly string[];
}

export interface ServerState {
  /** null while the database is still opening (recovery): data routes answer 503 meanwhile. */
  db: Database | null;
  /** Set once close() began: readiness turns 503 so load balancers stop sending. */
  isClosing: boolean;
  readonly settings: ServerSettings;
  /** Issues and checks tokens; in a cluster, with the key the nodes share. */
  authority: TokenAuthority;
  readonly policy: AuthPolicy;
  /** GET /metrics' registry; null with --no-metrics. */
  metrics: ServerMetrics | null;
  /** The cluster side of this node with --cluster nats://…; null on a single node. */
  cluster: ClusterNode | null;
}

export interface RouteContext {
  readonly request: RequestInfo;
  /** The percent-decoded `:alias` of the path ('' on routes without one). */
  readonly alias: string;
  readonly reply: Reply;
  readonly state: ServerState;
  /** The user the request's token names ('' on public routes and with security off). */
  readonly user: string;
  readonly log: RequestLog;
  /** The request body, received within max_in_buffer_size (empty when the request had none). */
  body(): Promise<Buffer>;
}

export type Handler = (ctx: RouteContext) => Promise<void>;

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly handler: Handler;
  readonly access: RouteAccess;
  readonly compress: CompressPolicy;
  readonly hasBody: boolean;
  /**
   * In a cluster, a route that reads or writes the database first waits until this node has
   * applied every write acknowledged before the request (Database.readBarrier); routes about the
   * node or the cluster itself say false, so they answer even while the log is unreachable.
   */
  readonly isData?: false;
  /** A body limit of its own, below max_in_buffer_size (login: a key file is small). */
  readonly maxBody?: number;
  /** Request headers beyond the common ones the handler reads (the others stay '' in ctx.request). */
  readonly reads?: readonly OptionalHeader[];
}

/** The open database, or NotReady while it is still recovering. */
export function database(ctx: RouteContext): Database {
  const db = ctx.state.db;
  if (db === null) throw new HttpError('NotReady', 'the database is still opening (recovering its log); retry shortly');
  return db;
}
