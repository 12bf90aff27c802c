// Issue 27, footprint: bytes on disk per field value of three line-protocol datasets, sent to svc
// (durability fsync, its own process), VictoriaMetrics, influxd 1.6.7 (given time to compact:
// short cache-snapshot and compact-full-write cold durations) and loaded into DuckDB (its file
// after CHECKPOINT), in the same run. Floats are printed with at most 12 significant digits, which
// VictoriaMetrics keeps exactly. Every server is stopped cleanly (SIGTERM, waited for) before its
// data directory is measured.
// - sensor: 200 devices every 10 s, temperature/humidity/pressure as 2-decimal random walks and an
//   integer counter, tagged device and site;
// - TSBS-like cpu: 100 hosts every 10 s, 10 full-precision random walks in [0, 100] (printed at
//   12 digits), tagged hostname, region, datacenter, rack, os;
// - Telegraf-like: bench/telegraf-lines.ts (cpu, mem, disk, net; uniform random floats).
// BENCH_FOOTPRINT_HOURS (default 12) sets the span of the first two; the third has as many lines
// as the second has field values / 8.
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tempDir } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { startInfluxd, startSvc, startVictoriaMetrics } from '../peers/ingest-peers.js';
import type { PeerServer } from '../peers/ingest-peers.js';
import { requestBodies, telegrafLines } from '../telegraf-lines.js';
import type { TelegrafBody } from '../telegraf-lines.js';
import { prng } from '../../test/prng.js';
import { influxCreateDatabase, sendAll } from './ingest-http.js';

export const FOOTPRINT_SUITE = 'footprint: bytes on disk per field value';
const START_NS = 1_700_000_000_000_000_000n;
const INTERVAL_NS = 10_000_000_000n;
const LINES_PER_REQUEST = 5_000;
/** influxd compacts a shard fully once it has had no write for this long; the bench waits for it. */
const INFLUX_COLD = '5s';
const INFLUX_WAIT_MS = 20_000;
/** VictoriaMetrics merges parts in the background; it gets this long before its clean stop. */
const VM_WAIT_MS = 10_000;

function hours(): number {
  const raw = process.env.BENCH_FOOTPRINT_HOURS;
  const n = raw === undefined || raw === '' ? 12 : Number(raw);
  if (!(n > 0 && n <= 24 * 30)) throw new Error(`BENCH_FOOTPRINT_HOURS must be in (0, 720], got ${raw}`);
  return n;
}

const g12 = (v: number) => String(Number(v.toPrecision(12)));

function* sensorLines(): Generator<[string, number]> {
  const random = prng(27);
  const devices = 200;
  const state = Array.from({ length: devices }, () => ({ t: 15 + random() * 10, h: 40 + random() * 20, p: 1000 + random() * 20, n: Math.floor(random() * 1e6) }));
  const round2 = (v: number) => Math.round(v * 100) / 100;
  const ticks = Math.round((hours() * 3600) / 10);
  for (let tick = 0; tick < ticks; tick++) {
    const ts = String(START_NS + BigInt(tick) * INTERVAL_NS);
    for (let d = 0; d < devices; d++) {
      const s = state[d];
      s.t = round2(s.t + (random() - 0.5) * 0.1);
      s.h = round2(s.h + (random() - 0.5) * 0.2);
      s.p = round2(s.p + (random() - 0.5) * 0.4);
      s.n += Math.floor(random() * 20);
      yield [`sensors,device=dev-${String(d).padStart(3, '0')},site=site-${d % 8} temperature=${g12(s.t)},humidity=${g12(s.h)},pressure=${g12(s.p)},count=${s.n}i ${ts}`, 4];
    }
  }
}

const CPU_FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];
const REGIONS = ['us-east-1', 'us-west-1', 'eu-west-1', 'ap-southeast-2'];

function* tsbsLines(): Generator<[string, number]> {
  const random = prng(28);
  const hosts = 100;
  const walks = Array.from({ length: hosts }, () => CPU_FIELDS.map(() => random() * 100));
  const ticks = Math.round((hours() * 3600) / 10);
  for (let tick = 0; tick < ticks; tick++) {
    const ts = String(START_NS + BigInt(tick) * INTERVAL_NS);
    for (let h = 0; h < hosts; h++) {
      const w = walks[h];
      const fields = CPU_FIELDS.map((f, k) => {
        w[k] = Math.min(100, Math.max(0, w[k] + (random() - 0.5) * 2));
        return `${f}=${g12(w[k])}`;
      });
      const region = REGIONS[h % REGIONS.length];
      yield [`cpu,hostname=host_${h},region=${region},datacenter=${region}${'abc'[h % 3]},rack=${h % 10},os=Ubuntu16.04LTS ${fields.join(',')} ${ts}`, CPU_FIELDS.length];
    }
  }
}

interface Dataset {
  readonly name: string;
  readonly body: () => TelegrafBody;
}

const cache = new Map<string, TelegrafBody>();
const cached = (name: string, make: () => TelegrafBody) => () => {
  let b = cache.get(name);
  if (b === undefined) cache.set(name, (b = make()));
  return b;
};

const DATASETS: readonly Dataset[] = [
  { name: 'sensor (200 devices, 2-decimal walks + counter)', body: cached('sensor', () => requestBodies(sensorLines(), LINES_PER_REQUEST)) },
  { name: 'TSBS-like cpu (100 hosts, 10 walks, 12 digits)', body: cached('tsbs', () => requestBodies(tsbsLines(), LINES_PER_REQUEST)) },
  { name: 'Telegraf-like (uniform floats, 12 digits)', body: cached('telegraf', () => telegrafLines(Math.round((hours() * 3600 / 10) * 100 * 10 / 8), LINES_PER_REQUEST, 17, 12)) },
];

/** Bytes of the files under `dir` (recursively), those `isCounted` by name. */
async function bytesUnder(dir: string, isCounted: (name: string) => boolean = () => true): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) n += await bytesUnder(path, isCounted);
    else if (e.isFile() && isCounted(e.name)) n += (await stat(path)).size;
  }
  return n;
}

/** Sends `body` to a fresh server, stops it cleanly and returns the bytes of its data. */
async function serverBytes(start: () => Promise<PeerServer>, body: TelegrafBody, options: { prepare?: (s: PeerServer) => Promise<void>; waitMs?: number; data: (s: PeerServer) => string; isCounted?: (name: string) => boolean }): Promise<number> {
  const server = await start();
  try {
    await options.prepare?.(server);
    const sent = await sendAll(server.base, '/write?db=bench&precision=ns', body.requests, { 'content-type': 'text/plain; charset=utf-8' }, 204);
    if (sent.bad !== null) throw new Error(`${server.name} answered ${sent.bad}`);
    if (options.waitMs !== undefined) await new Promise((r) => setTimeout(r, options.waitMs));
    await server.terminate();
    return await bytesUnder(options.data(server), options.isCounted);
  } finally {
    await server.stop();
  }
}

/** The body's lines as one CSV file per measurement (tags and fields as columns, `time` in ns), loaded into DuckDB. */
async function duckBytes(body: TelegrafBody): Promise<number> {
  const dir = await tempDir('footprint-duck');
  try {
    const tables = new Map<string, { columns: string[]; rows: string[] }>();
    for (const request of body.requests) {
      for (const line of request.toString().split('\n')) {
        if (line === '') continue;
        const [head, fields, ts] = line.split(' ');
        const [measurement, ...tags] = head.split(',');
        const pairs = [...tags, ...fields.split(',')].map((kv) => kv.split('='));
        let t = tables.get(measurement);
        if (t === undefined) tables.set(measurement, (t = { columns: ['time', ...pairs.map(([k]) => k)], rows: [] }));
        t.rows.push([ts, ...pairs.map(([, v]) => (v.endsWith('i') ? v.slice(0, -1) : v))].join(','));
      }
    }
    const file = join(dir.path, 'db.duckdb');
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    for (const [name, t] of tables) {
      const csv = join(dir.path, `${name}.csv`);
      await writeFile(csv, `${t.columns.join(',')}\n${t.rows.join('\n')}\n`);
      await connection.run(`CREATE TABLE "${name}" AS SELECT * FROM read_csv('${csv}', header = true, sample_size = -1)`);
    }
    await connection.run('CHECKPOINT');
    connection.closeSync();
    instance.closeSync();
    return await bytesUnder(dir.path, (n) => n.startsWith('db.duckdb'));
  } finally {
    await dir.remove();
  }
}

const PEERS: readonly { readonly name: string; readonly bytes: (body: TelegrafBody) => Promise<number> }[] = [
  { name: 'svc', bytes: (body) => serverBytes(() => startSvc('fsync', ['--max-in-buffer-size', String(64 * 1024 * 1024)]), body, { data: (s) => join(s.dir, 'data') }) },
  { name: 'VictoriaMetrics', bytes: (body) => serverBytes(startVictoriaMetrics, body, { waitMs: VM_WAIT_MS, data: (s) => s.dir }) },
  {
    name: 'influxd 1.6.7',
    bytes: (body) => serverBytes(() => startInfluxd([`cache-snapshot-write-cold-duration = "${INFLUX_COLD}"`, `compact-full-write-cold-duration = "${INFLUX_COLD}"`]), body, {
      prepare: influxCreateDatabase, waitMs: INFLUX_WAIT_MS, data: (s) => s.dir, isCounted: (n) => n !== 'influxdb.conf',
    }),
  },
  { name: 'DuckDB (file after CHECKPOINT)', bytes: duckBytes },
];

export const footprintSuite: Suite = {
  name: FOOTPRINT_SUITE,
  mode: 'once',
  rounds: 1,
  cases: DATASETS.flatMap((d) => PEERS.map((p) => defineCase({
    name: `${p.name}: ${d.name}`,
    rows: () => d.body().fieldValues,
    async run() {
      const body = d.body();
      const bytes = await p.bytes(body);
      recordMetric(FOOTPRINT_SUITE, `${p.name}: ${d.name}`, bytes / body.fieldValues, 'bytes/field value', `${(bytes / 2 ** 20).toFixed(1)} MiB for ${body.fieldValues} field values (${body.lines} lines, ${(body.bytes / 2 ** 20).toFixed(0)} MiB of line protocol)`);
    },
  }))),
};
