// The HTTP bench's load generator reads its answers with this: a streaming HTTP/1.1 response
// framer for one keep-alive connection. It finds where each response ends (status line and
// headers, then a Content-Length body or a chunked body with its trailers), whatever way the bytes
// are split across reads, and reports each response's status and body length without copying the
// body. Only what the bench servers send is accepted: `HTTP/1.x NNN`, no `Connection: close`
// framing by end of stream, no 1xx interim responses; anything else is a protocol error.

const CR = 13;
const LF = 10;
const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** Larger heads or chunk-size lines are a server bug (or not HTTP at all). */
const MAX_LINE_BYTES = 64 * 1024;

const enum State { Head, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailer }

export interface ResponseSink {
  /** One whole response: its status and its body length (decoded length for chunked bodies). */
  response(status: number, bodyBytes: number): void;
}

export class ResponseParser {
  private state = State.Head;
  /** Bytes of a head or line that straddles reads (null when none is pending). */
  private pending: Buffer | null = null;
  private status = 0;
  private bodyBytes = 0;
  /** Body bytes left of a Content-Length body or of the current chunk. */
  private remaining = 0;

  constructor(private readonly sink: ResponseSink) {}

  /** Feeds the bytes of one read; throws on anything that is not a well-framed response. */
  push(data: Buffer): void {
    let buf = data;
    let pos = 0;
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, data]);
      this.pending = null;
    }
    const end = buf.length;
    while (pos < end) {
      switch (this.state) {
        case State.Head: {
          const at = buf.indexOf(HEAD_END, pos);
          if (at < 0) return this.keep(buf, pos);
          this.head(buf, pos, at);
          pos = at + 4;
          break;
        }
        case State.Body: {
          const n = Math.min(this.remaining, end - pos);
          this.remaining -= n;
          this.bodyBytes += n;
          pos += n;
          if (this.remaining === 0) this.complete();
          break;
        }
        case State.ChunkSize: {
          const at = buf.indexOf(CRLF, pos);
          if (at < 0) return this.keep(buf, pos);
          const size = chunkSize(buf, pos, at);
          pos = at + 2;
          if (size === 0) this.state = State.Trailer;
          else { this.remaining = size; this.state = State.ChunkData; }
          break;
        }
        case State.ChunkData: {
          const n = Math.min(this.remaining, end - pos);
          this.remaining -= n;
          this.bodyBytes += n;
          pos += n;
          if (this.remaining === 0) { this.remaining = 2; this.state = State.ChunkDataEnd; }
          break;
        }
        case State.ChunkDataEnd: {
          // The CRLF after a chunk's data, possibly split across reads.
          const expected = this.remaining === 2 ? CR : LF;
          if (buf[pos] !== expected) throw new Error('chunked body: no CRLF after a chunk');
          pos++;
          if (--this.remaining === 0) this.state = State.ChunkSize;
          break;
        }
        case State.Trailer: {
          const at = buf.indexOf(CRLF, pos);
          if (at < 0) return this.keep(buf, pos);
          // Trailer fields are skipped; the empty line ends the response.
          const isEmpty = at === pos;
          pos = at + 2;
          if (isEmpty) this.complete();
          break;
        }
      }
    }
  }

  /** True between responses (no partial response read). */
  get isIdle(): boolean {
    return this.state === State.Head && this.pending === null;
  }

  private keep(buf: Buffer, pos: number): void {
    if (buf.length - pos > MAX_LINE_BYTES) throw new Error(`no end of line within ${MAX_LINE_BYTES} bytes`);
    // A copy: `buf` may be the socket's buffer, reused by the next read.
    this.pending = Buffer.from(buf.subarray(pos));
  }

  /** Status line and header fields in buf[from, to) (without the blank line). */
  private head(buf: Buffer, from: number, to: number): void {
    // "HTTP/1.1 200 OK": the version, one space, three digits.
    if (to - from < 12 || buf.toString('latin1', from, from + 7) !== 'HTTP/1.' || buf[from + 8] !== 32) {
      throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(buf.toString('latin1', from, Math.min(to, from + 40)))}`);
    }
    const status = (buf[from + 9]! - 48) * 100 + (buf[from + 10]! - 48) * 10 + (buf[from + 11]! - 48);
    if (!(status >= 100 && status <= 599)) throw new Error('bad status code');
    if (status < 200) throw new Error(`interim ${status} responses are not expected`);
    let contentLength = -1;
    let isChunked = false;
    let line = buf.indexOf(CRLF, from);
    while (line >= 0 && line < to) {
      const start = line + 2;
      let stop = buf.indexOf(CRLF, start);
      if (stop < 0 || stop > to) stop = to;
      const colon = buf.indexOf(58, start);
      if (colon > start && colon < stop) {
        const name = buf.toString('latin1', start, colon).toLowerCase();
        if (name === 'content-length') {
          const value = buf.toString('latin1', colon + 1, stop).trim();
          if (!/^\d+$/.test(value) || (contentLength >= 0 && Number(value) !== contentLength)) throw new Error(`bad Content-Length '${value}'`);
          contentLength = Number(value);
        } else if (name === 'transfer-encoding') {
          const value = buf.toString('latin1', colon + 1, stop).trim().toLowerCase();
          if (value !== 'chunked') throw new Error(`unsupported Transfer-Encoding '${value}'`);
          isChunked = true;
        }
      } else if (stop > start) {
        throw new Error('header line without a colon');
      }
      line = stop === to ? -1 : stop;
    }
    if (isChunked && contentLength >= 0) throw new Error('both Content-Length and chunked');
    this.status = status;
    this.bodyBytes = 0;
    if (status === 204 || status === 304) {
      this.complete();
    } else if (isChunked) {
      this.state = State.ChunkSize;
    } else if (contentLength > 0) {
      this.remaining = contentLength;
      this.state = State.Body;
    } else if (contentLength === 0) {
      this.complete();
    } else {
      throw new Error('a response without Content-Length or chunked framing (read to end of stream) is not supported');
    }
  }

  private complete(): void {
    this.state = State.Head;
    this.sink.response(this.status, this.bodyBytes);
  }
}

/** The hex size of a chunk-size line buf[from, to), extensions after ';' ignored. */
function chunkSize(buf: Buffer, from: number, to: number): number {
  let size = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = buf[i]!;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) {
      if (c === 59 || c === 32 || c === 9) break; // chunk extension or whitespace before it
      throw new Error('bad chunk size');
    }
    size = size * 16 + d;
    digits++;
    if (digits > 12) throw new Error('chunk size too large');
  }
  if (digits === 0) throw new Error('empty chunk size');
  return size;
}
