// A dashboard panel's refresh (issue 30): the same query shape run with a time range that moves
// at every refresh (a text never seen before: the parse-shape cache and the plan skeleton serve
// it) beside the same text repeated (the parsed tree and the plan reused as they are), embedded
// (db.query), and the same two over HTTP (GET /query_exp on a keep-alive connection to svc_rest in
// this process, one request at a time). An hour of a 1 Hz series, GROUP BY 1min, WHERE on the
// value; the targets: the fresh text at ≤ 1.3× the repeated one, and ≤ 60 µs more over HTTP.
import { Agent, request } from 'node:http';
import type { QueryResult } from '../../engine/index.js';
import { startServer } from '../../server/index.js';
import type { RunningServer } from '../../server/index.js';
import { tempDir } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';

export const REFRESH_SUITE = 'dashboard refresh: a moving time range against the same text';
export const REFRESH_SAME = 'same text repeated';
export const REFRESH_FRESH = 'range moved 1 s at each refresh';
export const REFRESH_HTTP_SAME = 'HTTP: same text repeated';
export const REFRESH_HTTP_FRESH = 'HTTP: range moved 1 s at each refresh';

const START_MS = Date.parse('2024-03-01T00:00:00Z');
const DAYS = 2;

let fixture: { server: RunningServer; agent: Agent; remove: () => Promise<void> } | null = null;

/** The panel's query with its window starting `seconds` after the first hour of the data. */
export function refreshQuery(seconds: number): string {
  const from = new Date(START_MS + 3_600_000 + seconds * 1000).toISOString().slice(0, 19);
  return `SELECT avg(v), max(v), count(v) FROM panel IN RANGE(${from}, +1h) WHERE v > 0.1 GROUP BY 1min`;
}

async function setup(): Promise<void> {
  const dir = await tempDir('refresh');
  const server = await startServer({ dataDir: dir.path, port: 0, host: '127.0.0.1', durability: 'none', logToStderr: false });
  const db = server.db;
  await db.createTable('panel', [{ name: 'v', type: 'DOUBLE' }]);
  const rows = DAYS * 86_400;
  const ts = new BigInt64Array(rows);
  const v = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    ts[i] = BigInt(START_MS + i * 1000) * 1_000_000n;
    v[i] = (Math.sin(i / 600) + 1) / 2;
  }
  await db.insert('panel', { $timestamp: ts, v });
  fixture = { server, agent: new Agent({ keepAlive: true, maxSockets: 1 }), remove: dir.remove };
}

async function teardown(): Promise<void> {
  fixture?.agent.destroy();
  await fixture?.server.close();
  await fixture?.remove();
  fixture = null;
}

/** The panel's query over HTTP: its answer's bytes (a 200, or the run fails). */
function getQuery(text: string): Promise<Buffer> {
  const { server, agent } = fixture!;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, agent, path: `/query_exp?query=${encodeURIComponent(text)}` }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(parts)) : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(parts).toString()}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

let refresh = 0;

export const refreshSuite: Suite = {
  name: REFRESH_SUITE,
  mode: 'ops',
  rounds: 3,
  setup,
  teardown,
  cases: [
    defineCase({ name: REFRESH_SAME, run: () => fixture!.server.db.query(refreshQuery(30)), check: (r) => bucketsOk(r, 61) }),
    // A day of refreshes before the window wraps: every text is new to the caches.
    defineCase({ name: REFRESH_FRESH, vs: [REFRESH_SAME], run: () => fixture!.server.db.query(refreshQuery(1 + (refresh++ % 86_000))), check: (r) => bucketsOk(r, 61) }),
    defineCase({ name: REFRESH_HTTP_SAME, run: () => getQuery(refreshQuery(30)) }),
    defineCase({ name: REFRESH_HTTP_FRESH, vs: [REFRESH_HTTP_SAME], run: () => getQuery(refreshQuery(1 + (refresh++ % 86_000))) }),
  ],
};

/** The window's minute buckets where the value passes the WHERE (every bucket but a few of the low ones). */
function bucketsOk(r: QueryResult, at: number): string[] {
  const n = r.tables[0]?.rowCount ?? 0;
  return n > at / 2 && n <= at ? [] : [`${n} buckets, expected up to ${at}`];
}
