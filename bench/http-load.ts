// Runs one load of the HTTP bench: the same GET sent `amount` times over keep-alive connections by
// the lean generator of bench/http-load-process.ts, in a child process of its own. Both peers of a
// suite are loaded with the same spec, so the generator treats them identically.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  readonly port: number;
  /** Path and query string, sent as is. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections: number;
  /** Requests in flight per connection (1: the next request only after the answer). */
  readonly pipelining: number;
  /** Requests in all; the run ends at the last answer. */
  readonly amount: number;
  readonly timeoutMs: number;
}

export interface LoadReport {
  /** From the first request written to the last answer read. */
  readonly ms: number;
  /** Answers with status 200. */
  readonly ok: number;
  /** Answers with any other status, and the first of them described. */
  readonly bad: number;
  readonly firstBad: string;
  /** Shortest and longest body of all answers (decoded length when chunked). */
  readonly minBytes: number;
  readonly maxBytes: number;
  /** Latency percentiles in ms (request written → answer read). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** CPU the generator process spent during the run (user + system). */
  readonly cpuMs: number;
}

const CHILD = fileURLToPath(new URL('./http-load-process.js', import.meta.url));

export function httpLoad(spec: LoadSpec): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    let answer: LoadReport | { error: string } | null = null;
    child.once('message', (m) => { answer = m as LoadReport | { error: string }; });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (answer === null) reject(new Error(`the load generator exited (${code}) without a report`));
      else if ('error' in answer) reject(new Error(`load generator: ${answer.error}`));
      else resolve(answer);
    });
    child.send(spec);
  });
}
