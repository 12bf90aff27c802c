// HTTP ingest bench (issues 17 and 30): one Telegraf-like line-protocol file (cpu/mem/disk/net lines with
// host, region and cpu tags; BENCH_INGEST_LINES lines, 2 M by default) sent in 5,000-line
// requests over several keep-alive connections to svc (durability fsync, its own process; with
// --parallelism-count 2 and 1), to
// influxd 1.6.7 and to VictoriaMetrics' /write, in the same run: field values/s and p99 per
// request. Beside it, the line-protocol parser alone on one core (lines/s) and Prometheus remote
// write into svc (samples/s). Each server starts empty for each run.
import http from 'node:http';
import * as snappy from 'snappyjs';
import { LineProtocolParser } from '../../server/protocols/line-protocol/line-protocol-parser.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { fmt } from '../report.js';
import { startInfluxd, startSvc, startVictoriaMetrics } from '../peers/ingest-peers.js';
import type { PeerServer } from '../peers/ingest-peers.js';
import { telegrafLines } from '../telegraf-lines.js';
import type { TelegrafBody } from '../telegraf-lines.js';

export const INGEST_HTTP_SUITE = 'ingest: HTTP line protocol';
export const PARSER_SUITE = 'ingest: line-protocol parser';
export const REMOTE_WRITE_SUITE = 'ingest: Prometheus remote write';
export const SVC_CASE = 'svc fsync /write';
/** svc with its parsing on the main thread (--parallelism-count 1): issue 30's 1 vs 2 threads. */
export const SVC_ONE_THREAD_CASE = 'svc fsync /write, 1 thread';
export const INFLUXD_CASE = 'influxd 1.6.7 /write';
export const VM_CASE = 'VictoriaMetrics /write';
export const PARSER_CASE = 'parser alone, one core, Telegraf-like lines';
export const SHORT_PARSER_CASE = 'parser alone, one core, short lines (1 tag, 1 field)';
export const REMOTE_WRITE_CASE = 'svc fsync /api/prometheus/write';

const CONNECTIONS = 4;

function linesWanted(): number {
  const raw = process.env.BENCH_INGEST_LINES?.replaceAll('_', '');
  const n = raw === undefined || raw === '' ? 2_000_000 : Number(raw);
  if (!Number.isSafeInteger(n) || n < 5_000) throw new Error(`BENCH_INGEST_LINES must be an integer >= 5000, got ${raw}`);
  return n;
}

let body: TelegrafBody | null = null;
const data = (): TelegrafBody => (body ??= telegrafLines(linesWanted()));

export interface SendReport {
  readonly ms: number;
  readonly p50: number;
  readonly p99: number;
  readonly bad: string | null;
}

/** POSTs every request body over `connections` keep-alive connections; latency per request. */
export async function sendAll(base: string, path: string, requests: readonly Uint8Array[], headers: Record<string, string>, expected: number): Promise<SendReport> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(base);
  const latencies = new Float64Array(requests.length);
  let next = 0;
  let bad: string | null = null;
  const post = (i: number) => new Promise<void>((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path, agent, headers: { ...headers, 'content-length': requests[i].length } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        latencies[i] = performance.now() - started;
        if (res.statusCode !== expected && bad === null) bad = `${res.statusCode}: ${Buffer.concat(parts).toString().slice(0, 300)}`;
        resolve();
      });
    });
    req.on('error', reject);
    req.end(requests[i]);
  });
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (next < requests.length) await post(next++);
  }));
  const ms = performance.now() - started;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { ms, p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))], bad };
}

/** A write case: a fresh server per run, the file sent to `path`, p50/p99 recorded. */
function writeCase(name: string, startServer: () => Promise<PeerServer>, path: string, prepare?: (s: PeerServer) => Promise<void>) {
  return defineCase<PeerServer, SendReport>({
    name,
    rows: () => data().fieldValues,
    vs: name === SVC_CASE ? [SVC_ONE_THREAD_CASE, INFLUXD_CASE, VM_CASE] : undefined,
    setup: async () => {
      const server = await startServer();
      await prepare?.(server);
      return server;
    },
    run: (server) => sendAll(server.base, path, data().requests, { 'content-type': 'text/plain; charset=utf-8' }, 204),
    check: (r) => {
      const d = data();
      recordMetric(INGEST_HTTP_SUITE, `${name} p50`, r.p50, 'ms', `${fmt(d.lines / (r.ms / 1000))} lines/s, ${d.requests.length} requests of 5,000 lines over ${CONNECTIONS} connections`);
      recordMetric(INGEST_HTTP_SUITE, `${name} p99`, r.p99, 'ms');
      return r.bad === null ? [] : [`a request was answered ${r.bad}`];
    },
    teardown: (server) => server.stop(),
  });
}

export async function influxCreateDatabase(s: PeerServer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = http.request(`${s.base}/query`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end('q=CREATE DATABASE bench');
  });
}

export const ingestHttpSuite: Suite = {
  name: INGEST_HTTP_SUITE,
  mode: 'once',
  rounds: 1,
  setup: async () => { data(); },
  cases: [
    // Two threads (the main one and one worker parsing), and one: issue 30's scaling figure.
    writeCase(SVC_CASE, () => startSvc('fsync', ['--max-in-buffer-size', String(64 * 1024 * 1024), '--parallelism-count', '2']), '/write?db=bench&precision=ns'),
    writeCase(SVC_ONE_THREAD_CASE, () => startSvc('fsync', ['--max-in-buffer-size', String(64 * 1024 * 1024), '--parallelism-count', '1']), '/write?db=bench&precision=ns'),
    writeCase(INFLUXD_CASE, startInfluxd, '/write?db=bench&precision=ns', influxCreateDatabase),
    writeCase(VM_CASE, startVictoriaMetrics, '/write?db=bench&precision=ns'),
  ],
};

export const parserSuite: Suite = {
  name: PARSER_SUITE,
  mode: 'once',
  rounds: 3,
  setup: async () => { data(); },
  cases: [
    defineCase<LineProtocolParser, number>({
      name: PARSER_CASE,
      rows: () => data().lines,
      setup: () => new LineProtocolParser(),
      run: (parser) => {
        let lines = 0;
        const options = { multiplier: 1, now: 0n, schemaOf: () => null };
        for (const r of data().requests) lines += parser.parse(r, options).lines;
        return lines;
      },
      check: (lines) => (lines === data().lines ? [] : [`parsed ${lines} lines of ${data().lines}`]),
    }),
    defineCase<LineProtocolParser, number>({
      name: SHORT_PARSER_CASE,
      rows: () => shortLines().lines,
      setup: () => new LineProtocolParser(),
      run: (parser) => {
        let lines = 0;
        const options = { multiplier: 1, now: 0n, schemaOf: () => null };
        for (const r of shortLines().requests) lines += parser.parse(r, options).lines;
        return lines;
      },
      check: (lines) => (lines === shortLines().lines ? [] : [`parsed ${lines} lines of ${shortLines().lines}`]),
    }),
  ],
};

/** The same number of lines as `temp,host=h42 value=12.3 1700000000000000000` (about 45 bytes each). */
let short: { requests: Buffer[]; lines: number } | null = null;
function shortLines(): { requests: Buffer[]; lines: number } {
  if (short !== null) return short;
  const total = linesWanted();
  const requests: Buffer[] = [];
  for (let start = 0; start < total; start += 5_000) {
    const lines: string[] = [];
    for (let k = start; k < Math.min(total, start + 5_000); k++) lines.push(`temp,host=h${k % 100} value=${(k % 997) / 10} ${1_700_000_000_000_000_000n + BigInt(k) * 1_000_000_000n}`);
    requests.push(Buffer.from(`${lines.join('\n')}\n`));
  }
  return (short = { requests, lines: total });
}

/** Remote-write requests: `series` series of node-exporter-like labels, 5,000 samples a request. */
function remoteWriteRequests(samples: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const perRequest = 5_000;
  const series = 1_000;
  const enc = new TextEncoder();
  const field = (tag: number, bytes: Uint8Array): number[] => [tag, ...varint(bytes.length), ...bytes];
  const label = (name: string, value: string): number[] => field(0x0a, Uint8Array.from([...field(0x0a, enc.encode(name)), ...field(0x12, enc.encode(value))]));
  for (let start = 0; start < samples; start += perRequest) {
    const bytes: number[] = [];
    for (let i = start; i < Math.min(samples, start + perRequest); i++) {
      const s = i % series;
      const ts: number[] = [
        ...label('__name__', `node_metric_${s % 20}`), ...label('instance', `host-${s % 50}:9100`), ...label('job', 'node'), ...label('cpu', String(s % 8)),
      ];
      const sample = new Uint8Array(9);
      sample[0] = 0x09;
      new DataView(sample.buffer).setFloat64(1, i * 0.25, true);
      const t = [...sample, 0x10, ...varint(1_700_000_000_000 + Math.floor(i / series) * 15_000)];
      ts.push(...field(0x12, Uint8Array.from(t)));
      bytes.push(...field(0x0a, Uint8Array.from(ts)));
    }
    out.push(snappy.compress(Uint8Array.from(bytes)));
  }
  return out;
}

function varint(v: number): number[] {
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

let remote: Uint8Array[] | null = null;
const REMOTE_SAMPLES = 500_000;

export const remoteWriteSuite: Suite = {
  name: REMOTE_WRITE_SUITE,
  mode: 'once',
  rounds: 1,
  setup: async () => { remote ??= remoteWriteRequests(REMOTE_SAMPLES); },
  cases: [
    defineCase<PeerServer, SendReport>({
      name: REMOTE_WRITE_CASE,
      rows: REMOTE_SAMPLES,
      setup: () => startSvc('fsync'),
      run: (server) => sendAll(server.base, '/api/prometheus/write', remote!, { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' }, 204),
      check: (r) => {
        recordMetric(REMOTE_WRITE_SUITE, `${REMOTE_WRITE_CASE} p99`, r.p99, 'ms', `${remote!.length} requests of 5,000 samples over ${CONNECTIONS} connections`);
        return r.bad === null ? [] : [`a request was answered ${r.bad}`];
      },
      teardown: (server) => server.stop(),
    }),
  ],
};
