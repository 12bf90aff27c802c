// Opens one svc node of a cluster: a replicated Database (its state from the cluster's logs) and
// the handle the server asks about the cluster (nodes, stability, where a table's rows are).
import { Database } from '../database.js';
import type { OpenOptions } from '../open-options.js';
import { ClusterReplication } from './cluster-replication.js';
import type { ClusterOptions } from './cluster-replication.js';

export async function openClusterNode(options: OpenOptions, cluster: ClusterOptions): Promise<{ db: Database; cluster: ClusterReplication }> {
  let replication: ClusterReplication | null = null;
  const db = await Database.openReplicated(options, async (state) => (replication = await ClusterReplication.start(cluster, state)));
  return { db, cluster: replication! };
}
