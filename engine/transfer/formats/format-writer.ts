// The interface every export format implements: bytes for the start of the file, for each chunk
// of rows, and for its end. Writers are synchronous and keep at most what their format must
// gather before writing (Parquet: one row group), so the export's memory is bounded by a chunk
// and that.
import type { ExportChunk, ExportSchema } from '../export-schema.js';

export interface FormatWriter {
  /** The file's first bytes (a header, a schema). */
  begin(): Uint8Array[];
  /** The bytes of a chunk of rows (possibly none yet: a format that gathers rows). */
  write(chunk: ExportChunk): Uint8Array[];
  /** The file's last bytes (rows gathered, a footer). */
  end(): Uint8Array[];
}

export type FormatWriterFactory = (schema: ExportSchema) => FormatWriter;
