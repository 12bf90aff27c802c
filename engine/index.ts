// The public API of svc as an embedded library: `import { Database } from 'svc'`.
export { Database } from './database.js';
export type { OpenOptions, BlobDescription, TableDescription, ChangeResult, EngineFigures } from './database.js';
export type { MemoryFigures } from './memory/index.js';
export { defaultMemoryLimit, parseBytes } from './memory/index.js';
export type { QueryLimits, QueryOptions, QuerySignal } from './query/index.js';
export { DEFAULT_QUERY_LIMITS } from './query/index.js';
export type { AliasPage, PageOptions } from './catalog/alias-page.js';
export type { ColumnarBatch } from './write/columnar-input.js';
export type { EntryType } from './catalog/entry-store.js';
export { SvcError, isSvcError, ERROR_CODES } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { ColumnDef, ColumnStats, ColumnType, Durability } from './types.js';
export type { TableRows, WriteOp, WriteOpKind } from './write/index.js';
export type { ColumnValues } from './storage/column-values.js';
export type { QueryResult, ResultTable, ResultColumn, ResultType } from './query/result.js';
