// The public API of the svc HTTP server: start `svc_rest` in-process.
export { startServer, DEFAULT_PORT, DEFAULT_HOST, DEFAULT_MAX_IN_BUFFER_SIZE } from './start-server.js';
export type { ServerOptions, RunningServer } from './start-server.js';
export { DEFAULT_TLS_PORT, DEFAULT_CLUSTER_URI } from './start-server.js';
export { ConfigError } from './config-error.js';
