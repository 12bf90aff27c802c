// Issue 30's mixed workload: dashboards while ingesting, svc beside influxd 1.6.7 and
// VictoriaMetrics in the same run, one system at a time, each in its own process started empty.
// A 200-host fleet (cpu lines: host and region tags, three float fields, every 10 s) is preloaded
// (BENCH_MIXED_HOURS hours, 2 by default); then line protocol is sent at full speed over 4
// keep-alive connections — first alone (BENCH_MIXED_SECONDS / 3), then (BENCH_MIXED_SECONDS, 20 by
// default) while 6 dashboard clients each ask, one answer after another, the mean and max of
// usage_user per minute over a one-hour window that moves 10 s at every query (fresh literals each
// time), over the preloaded hours: svc's GET /query_exp, InfluxQL's /query, MetricsQL's
// /api/v1/query_range. Reported per system: ingest alone and under load (field values/s),
// queries/s and their p50/p99. The data lies two months back (VictoriaMetrics refuses samples
// more than two days ahead, and the load writes days of fleet time).
import http from 'node:http';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { fmt } from '../report.js';
import { startInfluxd, startSvc, startVictoriaMetrics } from '../peers/ingest-peers.js';
import type { PeerServer } from '../peers/ingest-peers.js';
import { influxCreateDatabase, sendAll } from './ingest-http.js';

export const MIXED_SUITE = 'mixed workload: ingest while 6 dashboards query';
export const MIXED_SVC = 'svc';
export const MIXED_INFLUXD = 'influxd 1.6.7';
export const MIXED_VM = 'VictoriaMetrics';
/** Metric names, per system: `${system} ${metric}`. */
export const MIXED_INGEST_ALONE = 'ingest alone';
export const MIXED_INGEST_LOADED = 'ingest under query load';
export const MIXED_QPS = 'queries/s';
export const MIXED_P50 = 'query p50';
export const MIXED_P99 = 'query p99';

const HOSTS = 200;
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'ap-south-1'];
const FIELDS = 3;
const INTERVAL_NS = 10_000_000_000n;
const ROUNDS_PER_REQUEST = 25; // 25 × 200 = 5,000 lines
const CONNECTIONS = 4;
const CLIENTS = 6;
const WINDOW_NS = 3_600_000_000_000n;
const DIGITS = 19; // a nanosecond timestamp of this era
/** An hour of minutes, two series of 60 points: well over this in any of the three encodings. */
const MIN_ANSWER_BYTES = 60 * 2 * 10;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}

/** The fleet's first round, two months back, on a minute. */
const START_NS = ((BigInt(Date.now()) - 60n * 86_400_000n) / 60_000n) * 60_000n * 1_000_000n;

/**
 * A request of ROUNDS_PER_REQUEST rounds of the fleet whose timestamps are patched in place:
 * the bytes are built once, each request writes its rounds' times into them (19 digits each).
 */
class FleetRequests {
  private readonly bytes: Buffer;
  /** Where each line's timestamp starts, by round then host. */
  private readonly at: number[] = [];

  constructor() {
    const parts: string[] = [];
    let offset = 0;
    for (let r = 0; r < ROUNDS_PER_REQUEST; r++) {
      for (let h = 0; h < HOSTS; h++) {
        const user = ((h * 7 + r * 13) % 1000) / 10;
        const head = `cpu,host=host${String(h).padStart(3, '0')},region=${REGIONS[h % REGIONS.length]} usage_user=${user},usage_system=${(user / 3).toFixed(3)},usage_idle=${(100 - user).toFixed(2)} `;
        const headBytes = Buffer.byteLength(head);
        this.at.push(offset + headBytes);
        parts.push(`${head}${'0'.repeat(DIGITS)}\n`);
        offset += headBytes + DIGITS + 1;
      }
    }
    this.bytes = Buffer.from(parts.join(''));
  }

  /** The request holding rounds [first, first + ROUNDS_PER_REQUEST): a fresh buffer. */
  request(first: number): Buffer {
    const out = Buffer.from(this.bytes);
    for (let r = 0; r < ROUNDS_PER_REQUEST; r++) {
      const ts = String(START_NS + BigInt(first + r) * INTERVAL_NS);
      for (let h = 0; h < HOSTS; h++) out.write(ts, this.at[r * HOSTS + h], 'latin1');
    }
    return out;
  }
}

interface System {
  readonly name: string;
  start(): Promise<PeerServer>;
  prepare?(s: PeerServer): Promise<void>;
  /** The dashboard query over [from, to) as a GET path. */
  query(from: bigint, to: bigint): string;
}

const iso = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString().replace('Z', '');

const SYSTEMS: readonly System[] = [
  {
    name: MIXED_SVC,
    start: () => startSvc('fsync', ['--max-in-buffer-size', String(64 * 1024 * 1024)]),
    query: (from, to) => `/query_exp?query=${encodeURIComponent(`SELECT avg(usage_user), max(usage_user) FROM cpu IN RANGE(${iso(from)}, ${iso(to)}) GROUP BY 1min`)}`,
  },
  {
    name: MIXED_INFLUXD,
    start: () => startInfluxd(),
    prepare: influxCreateDatabase,
    query: (from, to) => `/query?db=bench&q=${encodeURIComponent(`SELECT mean(usage_user), max(usage_user) FROM cpu WHERE time >= ${from} AND time < ${to} GROUP BY time(1m)`)}`,
  },
  {
    name: MIXED_VM,
    start: startVictoriaMetrics,
    query: (from, to) => {
      const q = 'union(label_set(avg(avg_over_time(cpu_usage_user[1m])), "agg", "avg"), label_set(max(max_over_time(cpu_usage_user[1m])), "agg", "max"))';
      return `/api/v1/query_range?query=${encodeURIComponent(q)}&start=${Number(from / 1_000_000n) / 1000}&end=${Number(to / 1_000_000n) / 1000}&step=60s`;
    },
  },
];

interface MixedReport {
  readonly aloneFieldsPerSec: number;
  readonly loadedFieldsPerSec: number;
  readonly queries: number;
  readonly queriesPerSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly bad: string | null;
}

/** Sends the fleet's rounds from `next.round` on, until `untilMs`; counts the lines answered 204. */
async function ingestUntil(base: string, fleet: FleetRequests, next: { round: number }, untilMs: number): Promise<{ lines: number; bad: string | null }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(base);
  let lines = 0;
  let bad: string | null = null;
  const post = (body: Buffer) => new Promise<void>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/write?db=bench&precision=ns', agent, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        if (res.statusCode === 204) lines += HOSTS * ROUNDS_PER_REQUEST;
        else bad ??= `${res.statusCode}: ${Buffer.concat(parts).toString().slice(0, 300)}`;
        resolve();
      });
    });
    req.on('error', reject);
    req.end(body);
  });
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < untilMs && bad === null) {
      const first = next.round;
      next.round += ROUNDS_PER_REQUEST;
      await post(fleet.request(first));
    }
  }));
  agent.destroy();
  return { lines, bad };
}

/** CLIENTS dashboards asking one query after another until `untilMs`; every latency. */
async function dashboardsUntil(base: string, system: System, preloadRounds: number, untilMs: number): Promise<{ latencies: number[]; bad: string | null }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let bad: string | null = null;
  const get = (path: string) => new Promise<void>((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${base}${path}`, { agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        latencies.push(performance.now() - started);
        const text = Buffer.concat(parts).toString();
        if (res.statusCode !== 200 || /"error"/.test(text) || text.length < MIN_ANSWER_BYTES) bad ??= `${res.statusCode} (${text.length} bytes): ${text.slice(0, 300)}`;
        resolve();
      });
    });
    req.on('error', reject);
  });
  // Windows end between an hour after the preload's start and its end, each client at its own place.
  const span = BigInt(preloadRounds) * INTERVAL_NS - WINDOW_NS;
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    for (let q = 0; performance.now() < untilMs && bad === null; q++) {
      const to = START_NS + WINDOW_NS + ((BigInt(c) * span) / BigInt(CLIENTS) + BigInt(q) * INTERVAL_NS) % span;
      await get(system.query(to - WINDOW_NS, to));
    }
  }));
  agent.destroy();
  return { latencies, bad };
}

/** Waits (up to 30 s) until the last preloaded hour is answered with data: VictoriaMetrics makes rows searchable ~1 s late. */
async function untilAnswered(base: string, system: System, preloadRounds: number): Promise<void> {
  const to = START_NS + BigInt(preloadRounds) * INTERVAL_NS;
  const path = system.query(to - WINDOW_NS, to);
  const until = performance.now() + 30_000;
  for (;;) {
    const text = await new Promise<string>((resolve, reject) => {
      http.get(`${base}${path}`, { agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve(Buffer.concat(parts).toString()));
      }).on('error', reject);
    });
    if (text.length >= MIN_ANSWER_BYTES && !/"error"/.test(text)) return;
    if (performance.now() > until) throw new Error(`${system.name} did not answer the preloaded hour: ${text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function mixedCase(system: System) {
  const seconds = envNumber('BENCH_MIXED_SECONDS', 20);
  const hours = Math.max(2, envNumber('BENCH_MIXED_HOURS', 2)); // windows of an hour move over them
  const preloadRounds = Math.ceil((hours * 3600) / 10 / ROUNDS_PER_REQUEST) * ROUNDS_PER_REQUEST;
  return defineCase<PeerServer, MixedReport>({
    name: system.name,
    setup: async () => {
      const server = await system.start();
      try {
        await system.prepare?.(server);
        const fleet = new FleetRequests();
        const requests: Buffer[] = [];
        for (let r = 0; r < preloadRounds; r += ROUNDS_PER_REQUEST) requests.push(fleet.request(r));
        const sent = await sendAll(server.base, '/write?db=bench&precision=ns', requests, { 'content-type': 'text/plain; charset=utf-8' }, 204);
        if (sent.bad !== null) throw new Error(`preloading ${system.name}: ${sent.bad}`);
        await untilAnswered(server.base, system, preloadRounds);
        return server;
      } catch (e) {
        await server.stop();
        throw e;
      }
    },
    run: async (server) => {
      const fleet = new FleetRequests();
      const next = { round: preloadRounds };
      const aloneMs = (seconds * 1000) / 3;
      let t0 = performance.now();
      const alone = await ingestUntil(server.base, fleet, next, t0 + aloneMs);
      const aloneElapsed = performance.now() - t0;
      t0 = performance.now();
      const until = t0 + seconds * 1000;
      const [loaded, dashboards] = await Promise.all([
        ingestUntil(server.base, fleet, next, until),
        dashboardsUntil(server.base, system, preloadRounds, until),
      ]);
      const loadedElapsed = performance.now() - t0;
      const sorted = [...dashboards.latencies].sort((a, b) => a - b);
      return {
        aloneFieldsPerSec: (alone.lines * FIELDS) / (aloneElapsed / 1000),
        loadedFieldsPerSec: (loaded.lines * FIELDS) / (loadedElapsed / 1000),
        queries: sorted.length,
        queriesPerSec: sorted.length / (loadedElapsed / 1000),
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        bad: alone.bad ?? loaded.bad ?? dashboards.bad,
      };
    },
    check: (r) => {
      const name = system.name;
      recordMetric(MIXED_SUITE, `${name} ${MIXED_INGEST_ALONE}`, r.aloneFieldsPerSec, 'field values/s');
      recordMetric(MIXED_SUITE, `${name} ${MIXED_INGEST_LOADED}`, r.loadedFieldsPerSec, 'field values/s', `${fmt(r.loadedFieldsPerSec / r.aloneFieldsPerSec)}× alone`);
      recordMetric(MIXED_SUITE, `${name} ${MIXED_QPS}`, r.queriesPerSec, 'q/s', `${r.queries} queries by ${CLIENTS} clients`);
      recordMetric(MIXED_SUITE, `${name} ${MIXED_P50}`, r.p50, 'ms');
      recordMetric(MIXED_SUITE, `${name} ${MIXED_P99}`, r.p99, 'ms');
      return r.bad === null ? [] : [`an answer was ${r.bad}`];
    },
    teardown: (server) => server.stop(),
  });
}

export const mixedWorkloadSuite: Suite = {
  name: MIXED_SUITE,
  mode: 'once',
  rounds: 1,
  cases: SYSTEMS.map(mixedCase),
};
