// The public API of svc as an embedded library: `import { Database } from 'svc'`.
export { Database } from './database.js';
export type { OpenOptions, BlobDescription, TableDescription, ChangeResult, QueryOptions } from './database.js';
export type { AliasPage, PageOptions } from './alias-page.js';
export type { ColumnarBatch } from './batch-input.js';
export type { EntryType } from './entry-store.js';
export { SvcError, isSvcError, ERROR_CODES } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { BatchView, ColumnDef, ColumnStats, ColumnType, ColumnVector, Durability } from './types.js';
export { columnVector } from './column-vector.js';
export type { QueryResult } from './query/result.js';
