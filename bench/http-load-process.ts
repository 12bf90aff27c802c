// The HTTP bench's load generator, run as a child process of the bench (bench/http-load.ts) so it
// shares an event loop with neither the bench nor the servers. It is lean on purpose: autocannon
// spent 45–330 µs of CPU per request in the bench (more than the servers it measured, on a
// 2-core machine), so req/s measured the client. Here each connection sends the same prebuilt
// request bytes, and the answers are only framed (status line, Content-Length or chunked), never
// parsed further or copied; every answer's status is counted and the shortest and longest body
// are reported (the bench checks both against a reference answer).
//
// `connections` keep-alive connections each keep `pipelining` requests in flight (1 = a new
// request only after the previous answer, like a browser); the run ends at the `amount`-th
// answer. Latency is from the moment a request was written to the socket to the end of its
// answer; with pipelining > 1 it includes waiting behind the earlier requests of its connection.
// Input: one IPC message {LoadSpec}; output: one IPC message {LoadReport}, then exit.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { ResponseParser } from './http-response-parser.js';
import type { LoadReport, LoadSpec } from './http-load.js';

const READ_BUFFER_BYTES = 256 * 1024;

function run(spec: LoadSpec): Promise<LoadReport> {
  const { port, connections, pipelining, amount } = spec;
  const headerLines = Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const one = Buffer.from(`GET ${spec.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headerLines}\r\n`, 'latin1');
  // batches[k] = k requests back to back: answers read together are replaced with one write.
  const batches = Array.from({ length: pipelining + 1 }, (_, k) => Buffer.concat(Array.from({ length: k }, () => one)));
  const latencies = new Float64Array(amount);
  let issued = 0;
  let answered = 0;
  let ok = 0;
  let bad = 0;
  let firstBad = '';
  let minBytes = Infinity;
  let maxBytes = -1;
  let t0 = 0;
  let cpu0 = process.cpuUsage();

  return new Promise<LoadReport>((resolve, reject) => {
    let isSettled = false;
    const sockets: Socket[] = [];
    const fail = (e: Error) => {
      if (isSettled) return;
      isSettled = true;
      for (const s of sockets) s.destroy();
      reject(e);
    };
    const finish = () => {
      if (isSettled) return;
      isSettled = true;
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      for (const s of sockets) s.destroy();
      const sorted = latencies.subarray(0, answered).sort();
      const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
      resolve({ ms, ok, bad, firstBad, minBytes, maxBytes, p50: at(0.5), p99: at(0.99), max: at(1), cpuMs: (cpu.user + cpu.system) / 1000 });
    };

    /** Sends up to `n` more requests on `socket`, recording when each left. */
    const send = (socket: Socket, sent: Float64Array, ring: { head: number; count: number }, n: number) => {
      const k = Math.min(n, amount - issued);
      if (k <= 0) return;
      issued += k;
      const now = performance.now();
      for (let i = 0; i < k; i++) {
        sent[(ring.head + ring.count) % pipelining] = now;
        ring.count++;
      }
      socket.write(batches[k]!);
    };

    let connected = 0;
    const starts: (() => void)[] = [];
    for (let c = 0; c < connections; c++) {
      const onRead = (n: number, buf: Buffer): boolean => {
        done = 0;
        try {
          parser.push(buf.subarray(0, n));
        } catch (e) {
          fail(e as Error);
          return false;
        }
        if (answered >= amount) finish();
        else if (done > 0) send(socket, sent, ring, done);
        return true;
      };
      // Reads land in one buffer per connection (no Buffer and no 'data' event per read); the
      // parser copies only a head or line that straddles two reads.
      const socket = connect({ host: '127.0.0.1', port, noDelay: true, onread: { buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), callback: onRead } });
      sockets.push(socket);
      // Send times of this connection's requests in flight, oldest first (a ring of `pipelining`).
      const sent = new Float64Array(pipelining);
      const ring = { head: 0, count: 0 };
      starts.push(() => send(socket, sent, ring, pipelining));
      let done = 0;
      const parser = new ResponseParser({
        response(status, bodyBytes) {
          latencies[answered++] = performance.now() - sent[ring.head]!;
          ring.head = (ring.head + 1) % pipelining;
          ring.count--;
          done++;
          if (bodyBytes < minBytes) minBytes = bodyBytes;
          if (bodyBytes > maxBytes) maxBytes = bodyBytes;
          if (status === 200) ok++;
          else {
            bad++;
            firstBad ||= `status ${status} with ${bodyBytes} body bytes`;
          }
        },
      });
      socket.on('error', fail);
      socket.on('close', () => {
        if (!isSettled) fail(new Error(`connection ${c} closed by the server after ${answered} answers`));
      });
      socket.once('connect', () => {
        if (++connected < connections) return;
        cpu0 = process.cpuUsage();
        t0 = performance.now();
        for (const start of starts) start();
      });
    }
  });
}

process.once('message', (spec: LoadSpec) => {
  const timer = setTimeout(() => {
    process.send!({ error: `no end after ${spec.timeoutMs} ms` }, () => process.exit(1));
  }, spec.timeoutMs);
  run(spec).then(
    (report) => { clearTimeout(timer); process.send!(report, () => process.exit(0)); },
    (e: Error) => { clearTimeout(timer); process.send!({ error: e.message }, () => process.exit(1)); },
  );
});
