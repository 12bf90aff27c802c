// Opens one svc node of a cluster: a replicated Database (its state from the cluster's logs) and
// the handle the server asks about the cluster (nodes, stability, where a table's rows are).
import { Database } from '../database.js';
import type { OpenOptions } from '../open-options.js';
import { ClusterReplication } from './cluster-replication.js';
import type { ClusterOptions } from './cluster-replication.js';

export async function openClusterNode(options: OpenOptions, cluster: ClusterOptions): Promise<{ db: Database; cluster: ClusterReplication }> {
  const replication = new ClusterReplication(cluster);
  const db = await Database.openReplicated(options, replication);
  return { db, cluster: replication };
}
