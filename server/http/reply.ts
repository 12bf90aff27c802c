// Writing one response on a uWS HttpResponse, safely: every write inside res.cork, nothing after
// the client went away (onAborted is registered before any async work), large bodies through
// tryEnd/write with onWritable backpressure, gzip when the client accepts it and the route wants
// it. Compression of large bodies runs off the event loop (zlib's thread pool), and long encodings
// yield to the event loop between chunks so other requests keep being served.
import type { QuerySignal } from '../../engine/index.js';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { constants as zc, createGzip, gzip as gzipCb, gzipSync } from 'node:zlib';
import type { HttpResponse } from '../uws.js';

const gzipAsync = promisify(gzipCb);

/**
 * `always`: gzip every body when accepted (REST routes, SPEC §4); `large`: only bodies over 1 KiB
 * (bridge); `never`: content that is compressed already (PNG, zip, …).
 */
export type CompressPolicy = 'always' | 'large' | 'never';

export const COMPRESS_THRESHOLD = 1024;
/** Bodies up to this size are compressed synchronously (cheaper than a thread-pool hop). */
const SYNC_GZIP_LIMIT = 64 * 1024;
/** A streamed body is first gathered up to this size; a result that fits goes out in one piece. */
const GATHER_LIMIT = 64 * 1024;
/** Encoding yields to the event loop once it has held it this long. */
const SLICE_MS = 8;

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 302: 'Found', 304: 'Not Modified', 308: 'Permanent Redirect', 400: 'Bad Request',
  401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Payload Too Large',
  422: 'Unprocessable Entity', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

export type Headers = Readonly<Record<string, string>>;

/** The default of every headers argument: shared, so a plain reply allocates no header object. */
const NO_HEADERS: Headers = Object.freeze({});
const JSON_HEADERS: Headers = Object.freeze({ 'Content-Type': 'application/json' });

function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? ''}`.trimEnd();
}

/** The status lines of the known statuses, built once. */
const STATUS_LINES = new Map(Object.keys(STATUS_TEXT).map((s) => [Number(s), statusLine(Number(s))]));

export class Reply {
  /** The HTTP status sent (0 until the status line is written). */
  status = 0;
  /** Body bytes handed to the socket (after compression), for the request log. */
  bytesSent = 0;
  /** Headers every reply of this request carries (CORS), set before the handler runs. */
  extraHeaders: Headers = NO_HEADERS;
  private isAborted = false;
  private isEnded = false;
  private hasStarted = false;
  private writable: (() => void) | null = null;
  /** Called once if the client disconnects (a body reader waiting for the rest). */
  private abortListeners: (() => void)[] | null = null;
  private readonly doneWaiters: (() => void)[] = [];

  constructor(
    private readonly res: HttpResponse,
    private readonly gzipOk: boolean,
    /** Set by the route once matched; errors before that use 'always' for /api paths. */
    public compress: CompressPolicy,
    /** A HEAD request: the same status and headers as GET, never a body. */
    private readonly isHead = false,
  ) {
    res.onAborted(() => {
      this.isAborted = true;
      if (this.abortListeners !== null) for (const fn of this.abortListeners) fn();
      this.wake();
      this.finish();
    });
  }

  /**
   * Turns `aborted` when the client disconnects: pass it to the engine so its query stops. It is
   * the reply itself (read through `aborted`): an AbortSignal per request cost ~3 µs on Node 20,
   * as much as the engine spends on a small query.
   */
  get signal(): QuerySignal {
    return this;
  }

  /** Calls `fn` once when the client disconnects (at once if it already has). */
  onAbort(fn: () => void): void {
    if (this.isAborted) { fn(); return; }
    (this.abortListeners ??= []).push(fn);
  }

  get isFinished(): boolean {
    return this.isAborted || this.isEnded;
  }

  get aborted(): boolean {
    return this.isAborted;
  }

  /** True once something was (or is being) sent. */
  get hasResponded(): boolean {
    return this.hasStarted;
  }

  /** Cuts the connection mid-response (a failure after the status line went out). */
  abortConnection(): void {
    if (this.isFinished) return;
    this.res.cork(() => this.res.close());
    this.ended();
  }

  /** Resolves once the response is complete or the client went away. */
  done(): Promise<void> {
    return this.isFinished ? Promise.resolve() : new Promise((resolve) => this.doneWaiters.push(resolve));
  }

  json(status: number, value: unknown, headers: Headers = NO_HEADERS): Promise<void> {
    return this.send(status, JSON.stringify(value), headers === NO_HEADERS ? JSON_HEADERS : { 'Content-Type': 'application/json', ...headers });
  }

  /** A status without a body (201, 204, 302, 304). */
  empty(status: number, headers: Headers = NO_HEADERS): Promise<void> {
    return this.send(status, null, headers);
  }

  /**
   * Sends a whole body with Content-Length, gzipped when allowed. A body too big for the socket
   * goes out in pieces as the socket drains.
   */
  async send(status: number, body: string | Uint8Array | null, headers: Headers = NO_HEADERS, closeConnection = false): Promise<void> {
    if (this.isFinished || this.hasStarted) return;
    this.hasStarted = true;
    let bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (this.isHead) return this.endHead(status, headers, bytes?.length ?? 0, closeConnection);
    let encoding: Headers = NO_HEADERS;
    if (bytes !== null && this.shouldGzip(bytes.length)) {
      bytes = bytes.length <= SYNC_GZIP_LIMIT ? gzipSync(bytes) : await gzipAsync(bytes, { level: zc.Z_BEST_SPEED });
      encoding = { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' };
      if (this.isAborted) return;
    }
    const all = encoding === NO_HEADERS ? headers : { ...headers, ...encoding };
    if (bytes === null || bytes.length === 0 || closeConnection) {
      // Closing replies are small error bodies: end() sends them and then closes gracefully.
      const body = bytes ?? undefined;
      this.bytesSent += body?.length ?? 0;
      this.res.cork(() => {
        this.writeHead(status, all);
        this.res.end(body, closeConnection);
      });
      this.ended();
      return;
    }
    await this.writeWhole(status, all, bytes);
  }

  /**
   * Sends a body produced lazily in chunks (an encoder's output). A body that turns out small is
   * sent whole with Content-Length; a larger one streams with chunked transfer encoding, gzipped
   * through a zlib stream when allowed. If the producer throws after bytes went out, the
   * connection is closed so the client sees a truncated response rather than a wrong one.
   */
  async stream(status: number, headers: Headers, chunks: Iterable<Uint8Array>): Promise<void> {
    if (this.isFinished || this.hasStarted) return;
    // HEAD of a result: the headers only, without encoding a body nobody will read.
    if (this.isHead) { this.hasStarted = true; return this.endHead(status, headers, undefined, false); }
    const it = chunks[Symbol.iterator]();
    const gathered: Uint8Array[] = [];
    let size = 0;
    let sliceStart = performance.now();
    for (;;) {
      const r = it.next();
      // A one-chunk answer (the usual small result) goes out as it is, without a copy.
      if (r.done === true) return this.send(status, gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered), headers);
      gathered.push(r.value);
      size += r.value.length;
      if (size > GATHER_LIMIT) break;
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        if (this.isAborted) return;
        sliceStart = performance.now();
      }
    }
    const rest: Iterable<Uint8Array> = { [Symbol.iterator]: () => it };
    const body = (function* () { yield* gathered; yield* rest; })();
    this.hasStarted = true;
    const gz = this.shouldGzip(size);
    await this.writeChunked(status, headers, gz ? gzipStream(body) : slicedSync(body), gz, Infinity);
  }

  /**
   * Streams a body produced asynchronously (an export) with chunked transfer encoding, gzipped
   * when allowed. The source is pulled only as the socket drains; its first chunk is awaited
   * before the status line, so a failure before any byte is still an error reply. A client that
   * takes nothing for `stallMs` is dropped and the source stopped (SPEC §16).
   */
  async pipe(status: number, headers: Headers, source: AsyncIterable<Uint8Array>, stallMs: number): Promise<void> {
    if (this.isFinished || this.hasStarted) return;
    const it = source[Symbol.asyncIterator]();
    try {
      const first = await it.next();
      if (this.isFinished) return;
      this.hasStarted = true;
      if (this.isHead) return this.endHead(status, headers, undefined, false);
      const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => it };
      const body = (async function* () { if (first.done !== true) yield first.value; yield* rest; })();
      const gz = this.shouldGzip(1);
      await this.writeChunked(status, headers, gz ? gzipStream(body) : body, gz, stallMs);
    } finally {
      await it.return?.();
    }
  }

  /** Writes `source` with chunked transfer encoding as the socket drains; see `stream` and `pipe`. */
  private async writeChunked(status: number, headers: Headers, source: AsyncIterable<Uint8Array>, isGzipped: boolean, stallMs: number): Promise<void> {
    const all = isGzipped ? { ...headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : headers;
    this.res.onWritable(() => { this.wake(); return true; });
    let isHeadWritten = false;
    try {
      for await (const chunk of source) {
        if (this.isAborted) break;
        let ok = true;
        this.res.cork(() => {
          if (!isHeadWritten) { this.writeHead(status, all); isHeadWritten = true; }
          ok = this.res.write(chunk);
          this.bytesSent += chunk.length;
        });
        if (!ok && !(await this.untilWritable(stallMs))) {
          this.abortConnection();
          return;
        }
      }
      if (this.isAborted) return;
      this.res.cork(() => {
        if (!isHeadWritten) this.writeHead(status, all);
        this.res.end();
      });
      this.ended();
    } catch (e) {
      if (!this.isAborted) {
        this.res.cork(() => this.res.close());
        this.ended();
      }
      throw e;
    }
  }

  /** HEAD: status and headers; Content-Length is the identity body's, when known. */
  private endHead(status: number, headers: Headers, length: number | undefined, closeConnection: boolean): void {
    this.res.cork(() => {
      this.writeHead(status, headers);
      this.res.endWithoutBody(length, closeConnection);
    });
    this.ended();
  }

  private shouldGzip(size: number): boolean {
    if (!this.gzipOk || this.compress === 'never') return false;
    return this.compress === 'always' ? size > 0 : size > COMPRESS_THRESHOLD;
  }

  private writeHead(status: number, headers: Headers): void {
    this.status = status;
    this.res.writeStatus(STATUS_LINES.get(status) ?? statusLine(status));
    for (const k in headers) this.res.writeHeader(k, headers[k]!);
    for (const k in this.extraHeaders) this.res.writeHeader(k, this.extraHeaders[k]!);
  }

  /** tryEnd with the full size; continue from the socket's offset each time it drains. */
  private writeWhole(status: number, headers: Headers, bytes: Uint8Array): Promise<void> {
    const total = bytes.length;
    this.bytesSent += total;
    let start = 0;
    let isDone = false;
    this.res.cork(() => {
      this.writeHead(status, headers);
      start = this.res.getWriteOffset();
      isDone = this.res.tryEnd(bytes, total)[1];
    });
    if (isDone) { this.ended(); return Promise.resolve(); }
    return new Promise((resolve) => {
      this.doneWaiters.push(resolve);
      this.res.onWritable((offset) => {
        const [ok, done] = this.res.tryEnd(bytes.subarray(offset - start), total);
        if (done) this.ended();
        return ok;
      });
    });
  }

  /** Resolves true once the socket drains (or the client left), false after `stallMs` without. */
  private untilWritable(stallMs: number): Promise<boolean> {
    if (this.isAborted) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = Number.isFinite(stallMs) ? setTimeout(() => { this.writable = null; resolve(false); }, stallMs) : null;
      this.writable = () => {
        if (timer !== null) clearTimeout(timer);
        resolve(true);
      };
    });
  }

  private wake(): void {
    const w = this.writable;
    this.writable = null;
    w?.();
  }

  private ended(): void {
    this.isEnded = true;
    this.finish();
  }

  private finish(): void {
    for (const w of this.doneWaiters.splice(0)) w();
  }
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Passes chunks on, yielding to the event loop whenever producing them held it too long. */
async function* slicedSync(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let sliceStart = performance.now();
  for (const c of chunks) {
    yield c;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
}

/** Gzips a chunk sequence in zlib's thread pool; the stream pulls the source only as it drains. */
async function* gzipStream(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const gz = createGzip({ level: zc.Z_BEST_SPEED });
  const source = Readable.from(Symbol.asyncIterator in chunks ? chunks : slicedSync(chunks), { objectMode: false });
  source.on('error', (e) => gz.destroy(e));
  source.pipe(gz);
  try {
    for await (const out of gz) yield out as Uint8Array;
  } finally {
    source.destroy();
    gz.destroy();
  }
}
