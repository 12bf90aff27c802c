// The public API of svc as an embedded library: `import { Database } from 'svc'`.
export { Database } from './database.js';
export type { OpenOptions, BlobDescription, TableDescription, ChangeResult, ViewDescription } from './database.js';
export type { MemoryFigures } from './memory/index.js';
export { defaultMemoryLimit, parseBytes } from './memory/index.js';
export type { QueryLimits, QueryOptions, QuerySignal } from './query/index.js';
export { DEFAULT_DEADLINE_MS, DEFAULT_QUERY_LIMITS } from './query/index.js';
export type { AliasPage, PageOptions } from './catalog/alias-page.js';
export type { ColumnarBatch } from './write/columnar-input.js';
export type { EntryType } from './catalog/entry-store.js';
export { SvcError, isSvcError, ERROR_CODES } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { DiskFigures, DiskState, EngineFigures, ViewFigures, ViewState } from './figures.js';
export type { LogFigures, ReplicationFigures } from './figures.js';
export type { ColumnDef, ColumnStats, ColumnType, Durability, TimeToLive } from './types.js';
export type { TableRows, WriteOp, WriteOpKind } from './write/index.js';
export type { ColumnValues } from './storage/column-values.js';
export type { QueryResult, ResultTable, ResultColumn, ResultType } from './query/result.js';
export { compileQueryRegex } from './query/plan/query-regex.js';
export { defaultParallelism, WorkerPool } from './workers/index.js';
export type { TaskOutput, WorkerFigures, WorkerTask } from './workers/index.js';
export type { ClusterOptions, NodeReport } from './cluster/index.js';

/** The cluster side of a node, as the server asks it (api/cluster, api/nodes/:id, readiness). */
export type ClusterNode = import('./cluster/index.js').ClusterReplication;

/**
 * Opens a node of a cluster on NATS JetStream (SPEC §12). The cluster's code is loaded only by
 * this call: a single-node database never loads it.
 * @example
 * const { db, cluster } = await openClusterNode({ dataDir: './n1' }, { servers: ['127.0.0.1:4222'], nodeId: 'n1', url: 'http://127.0.0.1:40080' });
 */
export async function openClusterNode(options: import('./database.js').OpenOptions, cluster: import('./cluster/index.js').ClusterOptions): Promise<{ db: import('./database.js').Database; cluster: ClusterNode }> {
  const { openClusterNode: open } = await import('./cluster/index.js');
  return open(options, cluster);
}
export { EXPORT_FORMATS, exportFormat, packPieces, PieceSink, resultColumn, rowTimeColumn } from './transfer/index.js';
export type { BackupResult, ExportFormat, ExportOptions, ExportStream, ImportFormat, ImportOptions, ImportResult } from './transfer/index.js';
