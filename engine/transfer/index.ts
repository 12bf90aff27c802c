// Data in and out of a database (SPEC §16): exports of a SELECT in CSV, NDJSON, Arrow IPC and
// Parquet, streamed; imports of CSV and Parquet files as one atomic write; online backups.
export { exportQuery } from './export-stream.js';
export type { ExportOptions, ExportStream } from './export-stream.js';
export { EXPORT_FORMATS, exportFormat } from './export-formats.js';
export type { ExportFormat } from './export-formats.js';
export { resultColumn, rowTimeColumn } from './arrow-columns.js';
export { packPieces, PieceSink } from './ipc-pieces.js';
export { importOps } from './import/import-table.js';
export type { ImportFormat, ImportOptions, ImportResult } from './import/import-table.js';
export { backupDatabase } from './backup.js';
export type { BackupResult } from './backup.js';
