// The server's log: one JSON line per request (method, path without its query string — which may
// carry a token —, status, milliseconds, body bytes sent), one per query (user, milliseconds,
// scanned rows), plus start-up notes and bugs with their stacks, to stderr and to the log file.
// Bodies, headers, tokens and secret keys are never logged. SIGHUP reopens the file (logrotate).
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';

export class RequestLog {
  private file: WriteStream | null = null;
  private stderrLines: string[] = [];
  private fileLines: string[] = [];
  private isFlushScheduled = false;
  /** The last `time` value and the millisecond it is of: one ISO formatting per ms, not per line. */
  private timeMs = -1;
  private timeText = '';

  constructor(private readonly logFile: string | null, private readonly toStderr: boolean) {
    this.open();
  }

  request(method: string, path: string, status: number, ms: number, bytes: number, isAborted: boolean): void {
    // Nowhere to write (tests, the bench): the line is not built at all.
    if (!this.toStderr && this.logFile === null) return;
    // The hot line is assembled by hand (same keys, order and JSON as JSON.stringify of the object):
    // building and stringifying an object per request costs more than the rest of a small reply.
    const text = `{"time":"${this.now()}","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${jsonNumber(status)},"ms":${jsonNumber(Math.round(ms * 10) / 10)},"bytes":${jsonNumber(bytes)}${isAborted ? ',"aborted":true' : ''}}\n`;
    this.push(text, this.toStderr);
  }

  /** One query: who ran it ('' with security off), how long it took, how many rows it scanned. */
  query(user: string, ms: number, scannedRows: number): void {
    if (!this.toStderr && this.logFile === null) return;
    this.write({ time: this.now(), event: 'query', user, ms: Math.round(ms * 10) / 10, scanned_rows: scannedRows }, this.toStderr);
  }

  /** Closes and opens the log file again (after logrotate moved it away). */
  reopen(): void {
    this.flush();
    const old = this.file;
    this.file = null;
    old?.end();
    this.open();
  }

  private open(): void {
    if (this.logFile === null) return;
    const f = createWriteStream(this.logFile, { flags: 'a' });
    // A file that cannot be written is said once on stderr; the log goes on to stderr only.
    f.on('error', (e) => {
      if (this.file === f) this.file = null;
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', message: `log file: ${e.message}` })}\n`);
    });
    this.file = f;
  }

  info(message: string): void {
    this.write({ time: new Date().toISOString(), level: 'info', message }, this.toStderr);
  }

  /** A bug: always on stderr, with its stack, once. */
  bug(method: string, path: string, e: unknown): void {
    const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
    this.write({ time: new Date().toISOString(), level: 'error', method, path, stack }, true);
    this.flush();
  }

  close(): Promise<void> {
    this.flush();
    const f = this.file;
    return f === null ? Promise.resolve() : new Promise((resolve) => f.end(resolve));
  }

  /**
   * Lines of one event-loop turn go out in one write per destination: under load a write(2) per
   * request to stderr costs more than the request itself.
   */
  private write(line: Record<string, unknown>, toStderr: boolean): void {
    if (!toStderr && this.logFile === null) return;
    this.push(`${JSON.stringify(line)}\n`, toStderr);
  }

  private push(text: string, toStderr: boolean): void {
    if (toStderr) this.stderrLines.push(text);
    if (this.logFile !== null) this.fileLines.push(text);
    if (!this.isFlushScheduled) {
      this.isFlushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** `new Date().toISOString()`, formatted once per millisecond. */
  private now(): string {
    const t = Date.now();
    if (t !== this.timeMs) {
      this.timeMs = t;
      this.timeText = new Date(t).toISOString();
    }
    return this.timeText;
  }

  private flush(): void {
    this.isFlushScheduled = false;
    if (this.stderrLines.length > 0) process.stderr.write(this.stderrLines.splice(0).join(''));
    if (this.fileLines.length > 0) {
      const text = this.fileLines.splice(0).join('');
      this.file?.write(text);
    }
  }
}

/** A number as JSON.stringify writes it (non-finite → null). */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? `${n}` : 'null';
}
