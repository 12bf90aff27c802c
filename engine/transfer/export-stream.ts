// An export: a SELECT's result written in a file format as an async stream of byte chunks,
// pulled by the consumer. The query runs as a stream (query/execute-query.ts streamQuery): each
// chunk of rows is encoded by the format's writer and handed over, and the query builds the next
// chunk only once the consumer has taken every byte of this one — so a slow consumer (a socket
// that drains slowly) holds the query, and memory holds one chunk and the format's row group,
// whatever the size of the result. The query starts on the first pull; a consumer that stops
// early (`return()`, or a `break` out of `for await`) cancels it and its snapshot is released.
import { SvcError } from '../errors.js';
import { streamQuery } from '../query/index.js';
import type { QueryCatalog } from '../query/catalog.js';
import type { QueryLimits } from '../query/limits.js';
import type { QueryOptions, QuerySignal, ResultShape, ResultSink } from '../query/index.js';
import { exportChunk, exportSchema } from './export-schema.js';
import { EXPORT_FORMATS, exportFormat } from './export-formats.js';
import type { ExportFormat } from './export-formats.js';
import type { ParquetCompression } from './parquet/parquet-writer.js';

export interface ExportOptions extends QueryOptions {
  /** csv (RFC 4180 with a header), parquet, arrow (IPC stream) or ndjson. */
  readonly format: ExportFormat;
  /** Parquet pages: snappy (the default, as DuckDB and pyarrow write) or none. */
  readonly compression?: ParquetCompression;
}

/** The bytes of an export, in order; `mime` and `extension` name its format. */
export interface ExportStream extends AsyncIterable<Uint8Array> {
  readonly format: ExportFormat;
  readonly mime: string;
  readonly extension: string;
}

/** Runs `text` (a SELECT) on `catalog` as an export; nothing runs until the stream is pulled. */
export function exportQuery(catalog: QueryCatalog, text: string, options: ExportOptions, defaults: QueryLimits): ExportStream {
  const format = exportFormat(options?.format);
  const compression = options.compression;
  if (compression !== undefined && compression !== 'snappy' && compression !== 'none') {
    throw new SvcError('InvalidArgument', `compression must be snappy or none, not ${JSON.stringify(compression)}`);
  }
  const info = EXPORT_FORMATS[format];
  return {
    format,
    mime: info.mime,
    extension: info.extension,
    [Symbol.asyncIterator]: () => {
      const handoff = new Handoff(options.signal);
      const start = (shape: ResultShape): ResultSink => {
        const schema = exportSchema(shape);
        const writer = info.writer(schema, { compression });
        handoff.put(writer.begin());
        handoff.onEnd = () => writer.end();
        return (table) => handoff.hand(writer.write(exportChunk(schema, table)));
      };
      const { format: _, compression: __, ...queryOptions } = options;
      handoff.run(() => streamQuery(catalog, text, { ...queryOptions, signal: handoff.signal }, defaults, start));
      return handoff;
    },
  };
}

/**
 * Bytes handed from the query to the consumer: the query waits in `hand` until the consumer has
 * taken every chunk queued, so at most one chunk of rows is encoded ahead of the consumer.
 */
class Handoff implements AsyncIterator<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;
  private isDone = false;
  private isStopped = false;
  private failure: { readonly error: unknown } | null = null;
  private starter: (() => Promise<void>) | null = null;
  /** The format's last bytes, taken once the query has handed over every row. */
  onEnd: () => Uint8Array[] = () => [];

  /** The query's signal: aborted once the consumer stopped, or the caller's own signal is. */
  readonly signal: QuerySignal;

  constructor(outer: QuerySignal | undefined) {
    const self = this;
    this.signal = { get aborted() { return self.isStopped || outer?.aborted === true; } };
  }

  /** The query to start on the first pull. */
  run(query: () => Promise<void>): void {
    this.starter = query;
  }

  put(pieces: readonly Uint8Array[]): void {
    for (const p of pieces) if (p.byteLength > 0) this.queue.push(p);
    this.wake();
  }

  /** Queues a chunk's bytes; resolves once the consumer has taken them (or rejects: it stopped). */
  async hand(pieces: readonly Uint8Array[]): Promise<void> {
    this.put(pieces);
    while (this.queue.length > 0 && !this.isStopped) await new Promise<void>((resolve) => { this.wakeProducer = resolve; });
    if (this.isStopped) throw new SvcError('QueryCancelled', 'the export was stopped by its reader');
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    if (this.starter !== null) {
      const query = this.starter;
      this.starter = null;
      query().then(() => {
        this.put(this.onEnd());
        this.isDone = true;
      }, (error: unknown) => {
        this.failure = { error };
      }).finally(() => this.wake());
    }
    for (;;) {
      const piece = this.queue.shift();
      if (piece !== undefined) {
        if (this.queue.length === 0) this.release();
        return { value: piece, done: false };
      }
      if (this.failure !== null) throw this.failure.error;
      if (this.isDone || this.isStopped) return { value: undefined, done: true };
      this.release();
      await new Promise<void>((resolve) => { this.wakeConsumer = resolve; });
    }
  }

  /** The consumer stops: the query is cancelled at its next chunk or pause. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.isStopped = true;
    this.starter = null;
    this.queue.length = 0;
    this.release();
    return Promise.resolve({ value: undefined, done: true });
  }

  private wake(): void {
    const w = this.wakeConsumer;
    this.wakeConsumer = null;
    w?.();
  }

  private release(): void {
    const w = this.wakeProducer;
    this.wakeProducer = null;
    w?.();
  }
}
