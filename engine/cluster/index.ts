// The cluster on NATS JetStream (engine/cluster/), loaded by the server only with
// `--cluster nats://…`: a node's replication (cluster-replication.ts), the JetStream log and its
// follower, and what the server asks of the cluster (nodes, stability, placement).
export { ClusterReplication } from './cluster-replication.js';
export type { ClusterOptions } from './cluster-replication.js';
export type { NodeReport } from './node-registry.js';
export { MIN_NATS_SERVER } from './server-version.js';
export { openClusterNode } from './open-cluster-node.js';
