// The formats an export writes, by the name `format=` and `db.export(…, { format })` take: the
// MIME type an HTTP answer carries, the file extension a download gets, and the writer.
import { SvcError } from '../errors.js';
import type { ExportSchema } from './export-schema.js';
import { arrowWriter } from './formats/arrow-writer.js';
import { csvWriter } from './formats/csv-writer.js';
import type { FormatWriter } from './formats/format-writer.js';
import { ndjsonWriter } from './formats/ndjson-writer.js';
import { parquetWriter } from './parquet/parquet-writer.js';
import type { ParquetOptions } from './parquet/parquet-writer.js';

export type ExportFormat = 'csv' | 'parquet' | 'arrow' | 'ndjson';

export interface ExportFormatInfo {
  readonly mime: string;
  readonly extension: string;
  readonly writer: (schema: ExportSchema, options: ParquetOptions) => FormatWriter;
}

export const EXPORT_FORMATS: Readonly<Record<ExportFormat, ExportFormatInfo>> = {
  csv: { mime: 'text/csv; charset=utf-8; header=present', extension: 'csv', writer: csvWriter },
  parquet: { mime: 'application/vnd.apache.parquet', extension: 'parquet', writer: parquetWriter },
  arrow: { mime: 'application/vnd.apache.arrow.stream', extension: 'arrows', writer: arrowWriter },
  ndjson: { mime: 'application/x-ndjson', extension: 'ndjson', writer: ndjsonWriter },
};

/** The format named `name`, or InvalidArgument listing the formats. */
export function exportFormat(name: unknown): ExportFormat {
  if (typeof name === 'string' && Object.hasOwn(EXPORT_FORMATS, name)) return name as ExportFormat;
  throw new SvcError('InvalidArgument', `the export format must be one of ${Object.keys(EXPORT_FORMATS).join(', ')}, not ${JSON.stringify(name)}`);
}
