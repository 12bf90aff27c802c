// The route table: every path the server answers, as constants, and one (method, path, handler)
// entry per route with how it is guarded (access), compressed and whether it takes a body.
// Dispatch (http/dispatch.ts) matches against this list only; a route not here does not exist.
//
// `:alias` is the rest of the path after the prefix, minus the suffix, percent-decoded (see
// http/router.ts). Access: `public` never needs a token, `token` always, `bridge` when the policy
// says (security on). Compression: REST answers always (SPEC §4), bridge answers over 1 KiB.
import { clusterInfo, nodeInfo } from './handlers/api/cluster.js';
import { login } from './handlers/api/login.js';
import { readOption } from './handlers/api/options.js';
import { apiQuery } from './handlers/api/query.js';
import { liveness, readiness } from './handlers/api/status.js';
import { listTags } from './handlers/api/tags.js';
import { backup, exportGet, exportPost, importData } from './handlers/api/transfer.js';
import { metrics } from './handlers/api/metrics.js';
import { health, influxQuery, ping, questdbSettings } from './handlers/ingest/influx-compat.js';
import { lineProtocolWrite } from './handlers/ingest/line-protocol-write.js';
import { prometheusRead, prometheusWrite } from './handlers/ingest/prometheus-remote.js';
import { createBlob, describeBlob, listBlobs, readBlob, replaceBlob } from './handlers/bridge/blobs.js';
import { describeEntry, entryTags, listEntries, patchEntry, removeEntry } from './handlers/bridge/entries.js';
import { queryExpGet, queryExpPost, queryFindGet, queryFindPost } from './handlers/bridge/query.js';
import { describeTag, taggedEntries } from './handlers/bridge/tags.js';
import type { Handler, Route } from './handlers/context.js';
import { serveAsset } from './http/assets.js';

export const PATHS = {
  // REST (seed 001)
  login: '/api/login',
  query: '/api/query',
  cluster: '/api/cluster',
  node: '/api/nodes/:alias',
  /** The seed's usage examples call the node route this way too. */
  clusterNode: '/api/cluster/nodes/:alias',
  optionMaxInBufferSize: '/api/option/max-in-buffer-size',
  optionParallelism: '/api/option/parallelism',
  liveness: '/api/status/liveness',
  readiness: '/api/status/readiness',
  /** qdb_rest's tag list (QuasarDB's Grafana plugin). */
  tags: '/api/tags',
  // data in and out (SPEC §16)
  export: '/api/export',
  import: '/api/import',
  backup: '/api/backup',
  // web bridge (seed 000)
  entries: '/api/v1/entries',
  entry: '/api/v1/entries/:alias',
  entryTags: '/api/v1/entries/:alias/tags',
  blobs: '/api/v1/blobs',
  blob: '/api/v1/blobs/:alias',
  blobContent: '/api/v1/blobs/:alias/content',
  blobTags: '/api/v1/blobs/:alias/tags',
  tag: '/api/v1/tags/:alias',
  tagEntries: '/api/v1/tags/:alias/entries',
  tagTags: '/api/v1/tags/:alias/tags',
  queryExp: '/query_exp',
  queryFind: '/query_find',
  // InfluxDB / QuestDB compatibility (SPEC §11) and svc's own metrics
  ping: '/ping',
  health: '/health',
  settings: '/settings',
  influxQuery: '/query',
  influxWrite: '/write',
  influxWriteV2: '/api/v2/write',
  prometheusWrite: '/api/prometheus/write',
  prometheusRead: '/api/prometheus/read',
  metrics: '/metrics',
} as const;

type Method = Route['method'];

function rest(method: Method, path: string, handler: Handler, access: 'public' | 'token' = 'token'): Route {
  return { method, path, handler, access, compress: 'always', hasBody: method === 'POST' || method === 'PUT' };
}

function bridge(method: Method, path: string, handler: Handler): Route {
  return { method, path, handler, access: 'bridge', compress: 'large', hasBody: method === 'POST' || method === 'PUT' };
}

/**
 * A route of the ingest protocols and their probes: a token only when security is on (Telegraf
 * and friends write unconfigured to a server without security), answers compressed over 1 KiB.
 */
function ingest(method: Method, path: string, handler: Handler, access: 'public' | 'bridge' = 'bridge'): Route {
  return { method, path, handler, access, compress: 'large', hasBody: method === 'POST' };
}

/** Line-protocol bodies may come gzip-encoded. */
const CONTENT_ENCODING = ['content-encoding'] as const;

/** Query answers come as JSON or, on `Accept: application/vnd.apache.arrow.stream`, as Arrow. */
const ACCEPT = ['accept'] as const;

/** A key file is about a hundred bytes: a login body over this is refused (413) unread. */
export const LOGIN_MAX_BODY = 16 * 1024;

export const ROUTES: readonly Route[] = [
  { ...rest('POST', PATHS.login, login, 'public'), maxBody: LOGIN_MAX_BODY, isData: false },
  { ...rest('POST', PATHS.query, apiQuery), reads: ACCEPT },
  { ...rest('GET', PATHS.cluster, clusterInfo), isData: false },
  { ...rest('GET', PATHS.node, nodeInfo), isData: false },
  { ...rest('GET', PATHS.clusterNode, nodeInfo), isData: false },
  { ...rest('GET', PATHS.optionMaxInBufferSize, readOption('max-in-buffer-size')), isData: false },
  { ...rest('GET', PATHS.optionParallelism, readOption('parallelism')), isData: false },
  { ...rest('GET', PATHS.liveness, liveness, 'public'), isData: false },
  { ...rest('GET', PATHS.readiness, readiness, 'public'), isData: false },
  rest('GET', PATHS.tags, listTags),
  rest('GET', PATHS.export, exportGet),
  rest('POST', PATHS.export, exportPost),
  rest('POST', PATHS.import, importData),
  { ...rest('POST', PATHS.backup, backup), access: 'admin' },

  bridge('GET', PATHS.entries, listEntries),
  bridge('GET', PATHS.entry, describeEntry),
  bridge('PATCH', PATHS.entry, patchEntry(null)),
  bridge('DELETE', PATHS.entry, removeEntry(null)),
  bridge('GET', PATHS.entryTags, entryTags(null)),

  bridge('GET', PATHS.blobs, listBlobs),
  bridge('GET', PATHS.blob, describeBlob),
  bridge('POST', PATHS.blob, createBlob),
  bridge('PUT', PATHS.blob, replaceBlob),
  bridge('PATCH', PATHS.blob, patchEntry('blob')),
  bridge('DELETE', PATHS.blob, removeEntry('blob')),
  bridge('GET', PATHS.blobContent, readBlob),
  bridge('PUT', PATHS.blobContent, replaceBlob),
  bridge('GET', PATHS.blobTags, entryTags('blob')),

  bridge('GET', PATHS.tag, describeTag),
  bridge('PATCH', PATHS.tag, patchEntry('tag')),
  bridge('DELETE', PATHS.tag, removeEntry('tag')),
  bridge('GET', PATHS.tagEntries, taggedEntries),
  bridge('GET', PATHS.tagTags, entryTags('tag')),

  { ...bridge('GET', PATHS.queryExp, queryExpGet), reads: ACCEPT },
  { ...bridge('POST', PATHS.queryExp, queryExpPost), reads: ACCEPT },
  bridge('GET', PATHS.queryFind, queryFindGet),
  bridge('POST', PATHS.queryFind, queryFindPost),

  { ...ingest('GET', PATHS.ping, ping, 'public'), isData: false },
  { ...ingest('GET', PATHS.health, health, 'public'), isData: false },
  { ...ingest('GET', PATHS.settings, questdbSettings, 'public'), isData: false },
  ingest('GET', PATHS.influxQuery, influxQuery),
  ingest('POST', PATHS.influxQuery, influxQuery),
  { ...ingest('POST', PATHS.influxWrite, lineProtocolWrite(1)), reads: CONTENT_ENCODING },
  { ...ingest('POST', PATHS.influxWriteV2, lineProtocolWrite(2)), reads: CONTENT_ENCODING },
  // Snappy bodies both ways: never gzip the answer (Prometheus reads it as snappy).
  { ...ingest('POST', PATHS.prometheusWrite, prometheusWrite), compress: 'never' },
  { ...ingest('POST', PATHS.prometheusRead, prometheusRead), compress: 'never' },
  { ...ingest('GET', PATHS.metrics, metrics, 'public'), isData: false },
];

/** GET/HEAD of any other path: a file of the assets directory (the dashboard), no token needed. */
export const ASSETS_ROUTE: Route = {
  method: 'GET', path: '/*', handler: (ctx) => serveAsset(ctx, ctx.state.settings.assetsDir), access: 'public', compress: 'large', hasBody: false, isData: false,
  reads: ['if-none-match'],
};
