// The server's log: one JSON line per request (method, path without its query string — which may
// carry a token —, status, milliseconds), plus start-up notes and bugs with their stacks, to
// stderr and to the log file. Bodies, headers and tokens are never logged.
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';

export class RequestLog {
  private readonly file: WriteStream | null;
  private stderrLines: string[] = [];
  private fileLines: string[] = [];
  private isFlushScheduled = false;

  constructor(logFile: string | null, private readonly toStderr: boolean) {
    this.file = logFile === null ? null : createWriteStream(logFile, { flags: 'a' });
    this.file?.on('error', (e) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', message: `log file: ${e.message}` })}\n`));
  }

  request(method: string, path: string, status: number, ms: number, isAborted: boolean): void {
    const line: Record<string, unknown> = { time: new Date().toISOString(), method, path, status, ms: Math.round(ms * 10) / 10 };
    if (isAborted) line['aborted'] = true;
    this.write(line, this.toStderr);
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
    if (this.file !== null) this.fileLines.push(text);
    if (!this.isFlushScheduled) {
      this.isFlushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.isFlushScheduled = false;
    if (this.stderrLines.length > 0) process.stderr.write(this.stderrLines.splice(0).join(''));
    if (this.fileLines.length > 0) this.file?.write(this.fileLines.splice(0).join(''));
  }
}
