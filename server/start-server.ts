// Starts svc_rest in-process: the uWS app on host:port (and the SSL app on tls_port when a
// certificate and key are configured), the database in dataDir, the token authority and the auth
// policy. The ports listen before the database has recovered, so liveness answers and readiness
// says 503 during a long WAL replay; the promise resolves once everything is up.
// Secure mode = security on (a cluster public key) plus TLS: the plain port then only redirects
// (308) to HTTPS, so neither a secret key nor a token travels in clear.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { Database, defaultParallelism, openClusterNode } from '../engine/index.js';
import type { ClusterNode, Durability } from '../engine/index.js';
import { securityOff, securityOn } from './auth/auth-policy.js';
import type { AuthPolicy } from './auth/auth-policy.js';
import { TokenAuthority } from './auth/token-authority.js';
import { forgetAddress, recordAddress } from './server-address.js';
import { UserDirectory, loadUsers } from './auth/user-keys.js';
import { ConfigError } from './config-error.js';
import { machineFigures } from './handlers/api/cluster.js';
import type { Route, ServerState } from './handlers/context.js';
import { dispatch } from './http/dispatch.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { redirectToHttps } from './http/redirect-to-https.js';
import { RequestLog } from './http/request-log.js';
import { Router } from './http/router.js';
import { ASSETS_ROUTE, ROUTES } from './routes.js';
import { createApp, createSSLApp, uws } from './uws.js';
import type { App, us_listen_socket } from './uws.js';
import { packageVersion } from './version.js';
import { INGEST_TASKS } from './protocols/off-thread/parse-off-thread.js';

export interface ServerOptions {
  dataDir: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 40080; 0 picks a free port (see RunningServer.port). */
  port?: number;
  durability?: Durability;
  /** Largest request body and blob, in bytes (default 131072000). */
  maxInBufferSize?: number;
  /** Database.open's memoryLimit (bytes; default 60 % of the machine's or cgroup's memory). */
  memoryLimit?: number;
  /** Database.open's minFreeDisk (bytes; default the smaller of 1 GiB and 5 % of the disk). */
  minFreeDisk?: number;
  /** Database.open's retentionSize (bytes of table data on disk; none by default). */
  retentionSize?: number;
  /** Database.open's compression (default true: checkpoint columns encoded by codecs). */
  compression?: boolean;
  /**
   * Worker threads for scans and ingest parsing, answered by GET /api/option/parallelism (default:
   * the machine's cores; 1 keeps everything on the main thread: Database.open's `parallelism`).
   */
  parallelismCount?: number;
  /** Request log file, appended to (default none: stderr only). */
  logFile?: string | null;
  /** Served for non-API GET/HEAD paths (the dashboard); default none (404). */
  assetsDir?: string | null;
  /**
   * The cluster's URI: svc://host:port (one node; host:port is its id; the default
   * svc://127.0.0.1:2836) or nats://h1:p1,h2:p2[?groups=N&serve=g,…] (a cluster on NATS JetStream).
   */
  clusterUri?: string;
  /** This node's id in a cluster on NATS JetStream (default host:port of this server). */
  nodeId?: string | null;
  /** Origins that get CORS headers (`*` = any; default none). */
  allowedOrigins?: readonly string[];
  /** HTTPS port (default 40493; 0 = ephemeral), used when tlsCertificate and tlsKey are set. */
  tlsPort?: number;
  /** PEM certificate file; with tlsKey turns HTTPS on. */
  tlsCertificate?: string | null;
  /** PEM private key file of the certificate. */
  tlsKey?: string | null;
  /** Ed25519 cluster public key (PEM, svc_keygen): turns security on; needs usersFile. */
  clusterPublicKeyFile?: string | null;
  /** The users file signed with the cluster key (svc_keygen user). */
  usersFile?: string | null;
  /** Log each request to stderr too (default true; tests turn it off). */
  logToStderr?: boolean;
  /** Serve GET /metrics (default true; --no-metrics). */
  metrics?: boolean;
}

export interface RunningServer {
  readonly port: number;
  /** The HTTPS port, or null when TLS is off. */
  readonly tlsPort: number | null;
  /** Reopens the log file (SIGHUP). */
  reopenLog(): void;
  readonly db: Database;
  /** The cluster side of this node (null on a single node). */
  readonly cluster: ClusterNode | null;
  /** This node's id. */
  readonly nodeId: string;
  /** Stops accepting, finishes in-flight requests, closes the database (checkpoint). */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 40080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAX_IN_BUFFER_SIZE = 131_072_000;
export const DEFAULT_TLS_PORT = 40493;
export const DEFAULT_CLUSTER_URI = 'svc://127.0.0.1:2836';

/** A `nats://h1:p1,h2:p2[?groups=N&serve=g,…&checkpoint=bytes]` cluster URI, read; null for any other scheme. */
export function natsClusterOf(clusterUri: string): { servers: string[]; groups: number | undefined; serve: number[] | null; checkpoint: number | undefined } | null {
  if (!clusterUri.startsWith('nats://')) return null;
  const [list, query = ''] = clusterUri.slice('nats://'.length).split('?', 2);
  const servers = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (servers.length === 0) throw new ConfigError(`cluster URI '${clusterUri}' names no NATS server (nats://host:port[,host:port…])`);
  for (const s of servers) if (!/^[^:/\s]+:\d+$/.test(s)) throw new ConfigError(`cluster URI '${clusterUri}': '${s}' is not host:port`);
  const params = new URLSearchParams(query);
  for (const k of params.keys()) if (k !== 'groups' && k !== 'serve' && k !== 'checkpoint') throw new ConfigError(`cluster URI '${clusterUri}': unknown parameter '${k}' (groups, serve, checkpoint)`);
  const int = (text: string, what: string): number => {
    if (!/^\d+$/.test(text)) throw new ConfigError(`cluster URI '${clusterUri}': ${what} must be a whole number, got '${text}'`);
    return Number(text);
  };
  const groups = params.has('groups') ? int(params.get('groups')!, 'groups') : undefined;
  const serve = params.has('serve') ? params.get('serve')!.split(',').filter((g) => g !== '').map((g) => int(g, 'serve')) : null;
  const checkpoint = params.has('checkpoint') ? int(params.get('checkpoint')!, 'checkpoint') : undefined;
  return { servers, groups, serve, checkpoint };
}

/** The node id of a cluster URI: its host:port. */
export function nodeIdOf(clusterUri: string): string {
  let url: URL;
  try {
    url = new URL(clusterUri);
  } catch {
    throw new ConfigError(`cluster URI '${clusterUri}' is not a URI like svc://127.0.0.1:2836`);
  }
  if (url.hostname === '') throw new ConfigError(`cluster URI '${clusterUri}' has no host`);
  return `${url.hostname}:${url.port === '' ? '2836' : url.port}`;
}

/** The auth policy the options ask for; a missing or bad key or users file is a ConfigError. */
function policyOf(options: ServerOptions): AuthPolicy {
  const keyFile = options.clusterPublicKeyFile ?? null;
  const usersFile = options.usersFile ?? null;
  if (keyFile === null) {
    if (usersFile !== null) throw new ConfigError('a users file is set but no cluster public key file: security needs both (--cluster-public-key-file)');
    return securityOff;
  }
  if (usersFile === null) throw new ConfigError('security is on (--cluster-public-key-file) but no users file is set (--users-file)');
  const { users, admins } = loadUsers(usersFile, keyFile);
  return securityOn(new UserDirectory(users, admins));
}

/** Both TLS files readable and what they claim to be, or a ConfigError saying which is not. */
function checkTls(options: ServerOptions): { cert: string; key: string } | null {
  const cert = options.tlsCertificate ?? null;
  const key = options.tlsKey ?? null;
  if (cert === null && key === null) return null;
  if (cert === null || key === null) throw new ConfigError(`TLS needs both a certificate and a key; only the ${cert === null ? 'key' : 'certificate'} is set (--tls-certificate, --tls-key)`);
  const read = (what: string, file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new ConfigError(`TLS ${what} ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
    }
  };
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(read('certificate', cert));
  } catch (e) {
    throw e instanceof ConfigError ? e : new ConfigError(`TLS certificate ${cert}: not a PEM certificate`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(read('key', key));
  } catch (e) {
    throw e instanceof ConfigError ? e : new ConfigError(`TLS key ${key}: not a PEM private key`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new ConfigError(`TLS key ${key} is not the key of the certificate ${cert}`);
  return { cert, key };
}

function listen(app: App, host: string, port: number): Promise<us_listen_socket> {
  return new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(host, port, (s) => {
      if (s === false) reject(new Error(`cannot listen on ${host}:${port} (address in use or not available)`));
      else resolve(s);
    });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { dataDir } = options;
  const host = options.host ?? DEFAULT_HOST;
  // Configuration mistakes surface before anything listens or opens.
  const policy = policyOf(options);
  const tls = checkTls(options);
  const natsCluster = natsClusterOf(options.clusterUri ?? DEFAULT_CLUSTER_URI);
  let nodeId = natsCluster === null ? nodeIdOf(options.clusterUri ?? DEFAULT_CLUSTER_URI) : options.nodeId ?? '';
  const isSecureMode = tls !== null && policy !== securityOff;
  const log = new RequestLog(options.logFile ?? null, options.logToStderr ?? true);
  if (policy !== securityOff && tls === null) log.info('security is on without TLS: secret keys and tokens cross the network in clear; configure --tls-certificate and --tls-key');
  await mkdir(dataDir, { recursive: true });
  const state: ServerState = {
    db: null,
    isClosing: false,
    settings: {
      maxInBufferSize: options.maxInBufferSize ?? DEFAULT_MAX_IN_BUFFER_SIZE,
      parallelismCount: options.parallelismCount ?? defaultParallelism(),
      assetsDir: options.assetsDir ?? null,
      nodeId,
      dataDir,
      svcVersion: packageVersion(),
      allowedOrigins: options.allowedOrigins ?? [],
    },
    authority: await TokenAuthority.open(dataDir),
    policy,
    metrics: null,
    cluster: null,
  };
  if (options.metrics !== false) state.metrics = new ServerMetrics(() => state.db?.figures() ?? null, natsCluster !== null);
  const inFlight = new Set<Promise<void>>();
  const router = new Router<Route>(ROUTES, ASSETS_ROUTE);
  const app = createApp();
  const tlsApp = tls === null ? null : createSSLApp(tls.cert, tls.key);
  const deps = {
    router,
    state,
    log,
    metrics: state.metrics,
    track: (done: Promise<void>) => {
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    },
  };
  const sockets: us_listen_socket[] = [];
  const closeAll = (): void => {
    for (const s of sockets.splice(0)) uws().us_listen_socket_close(s);
    app.close();
    tlsApp?.close();
  };
  let tlsPort: number | null = null;
  try {
    if (tlsApp !== null) {
      tlsApp.any('/*', (res, req) => dispatch(res, req, deps));
      const s = await listen(tlsApp, host, options.tlsPort ?? DEFAULT_TLS_PORT);
      sockets.push(s);
      tlsPort = uws().us_socket_local_port(s as never);
    }
    const httpsPort = tlsPort;
    if (isSecureMode && httpsPort !== null) app.any('/*', (res, req) => redirectToHttps(res, req, httpsPort, host, log));
    else app.any('/*', (res, req) => dispatch(res, req, deps));
    sockets.push(await listen(app, host, options.port ?? DEFAULT_PORT));
  } catch (e) {
    closeAll();
    await log.close();
    throw e;
  }
  const port = uws().us_socket_local_port(sockets.at(-1) as never);
  let db: Database;
  let cluster: ClusterNode | null = null;
  try {
    if (natsCluster === null) {
      db = await Database.open({ dataDir, durability: options.durability ?? 'fsync', memoryLimit: options.memoryLimit, minFreeDisk: options.minFreeDisk, retentionSize: options.retentionSize, compression: options.compression, parallelism: state.settings.parallelismCount, log: (m) => log.info(m) });
    } else {
      if (nodeId === '') nodeId = `${host}:${port}`;
      state.settings.nodeId = nodeId;
      ({ db, cluster } = await openClusterNode({ dataDir, memoryLimit: options.memoryLimit, minFreeDisk: options.minFreeDisk, retentionSize: options.retentionSize, compression: options.compression, parallelism: state.settings.parallelismCount, log: (m) => log.info(m) }, {
        servers: natsCluster.servers, nodeId, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, groups: natsCluster.groups, serveGroups: natsCluster.serve, checkpointBytes: natsCluster.checkpoint,
        figures: () => machineFigures(dataDir), log: (m) => log.info(m),
      }));
      state.cluster = cluster;
      state.authority = TokenAuthority.withKey(await cluster.sharedSecret('jwt-key', 32));
    }
  } catch (e) {
    closeAll();
    await log.close();
    throw e;
  }
  // The ingest parsers run in the database's worker threads (when it has them).
  db.workers?.load(INGEST_TASKS);
  state.db = db;
  // A single node records where it serves, for `svc_rest backup` (a cluster node's data is the cluster's).
  if (cluster === null) await recordAddress(dataDir, host, port).catch((e: unknown) => log.info(`could not record the server's address in ${dataDir}: ${(e as Error).message}`));
  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    state.isClosing = true;
    for (const s of sockets) uws().us_listen_socket_close(s);
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    // Idle keep-alive connections would keep the process alive; nothing is in flight on them.
    app.close();
    tlsApp?.close();
    try {
      if (cluster === null) await forgetAddress(dataDir).catch(() => undefined);
      await db.close();
    } finally {
      await log.close();
    }
  };
  return {
    port,
    tlsPort,
    reopenLog: () => log.reopen(),
    db,
    cluster,
    nodeId,
    close: () => (closing ??= close()),
  };
}
