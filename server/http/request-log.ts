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

  constructor(private readonly logFile: string | null, private readonly toStderr: boolean) {
    this.open();
  }

  request(method: string, path: string, status: number, ms: number, bytes: number, isAborted: boolean): void {
    const line: Record<string, unknown> = { time: new Date().toISOString(), method, path, status, ms: Math.round(ms * 10) / 10, bytes };
    if (isAborted) line['aborted'] = true;
    this.write(line, this.toStderr);
  }

  /** One query: who ran it ('' with security off), how long it took, how many rows it scanned. */
  query(user: string, ms: number, scannedRows: number): void {
    this.write({ time: new Date().toISOString(), event: 'query', user, ms: Math.round(ms * 10) / 10, scanned_rows: scannedRows }, this.toStderr);
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
    const text = `${JSON.stringify(line)}\n`;
    if (toStderr) this.stderrLines.push(text);
    if (this.logFile !== null) this.fileLines.push(text);
    if (!this.isFlushScheduled) {
      this.isFlushScheduled = true;
      setImmediate(() => this.flush());
    }
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
