// A dashboard panel's refresh (issue 30): the same query shape run with a time range that moves
// at every refresh (a text never seen before: the parse-shape cache and the plan skeleton serve
// it) beside the same text repeated (the parsed tree and the plan reused as they are), embedded
// (db.query). An hour of a 1 Hz series, GROUP BY 1min, WHERE on the value; the target is the
// fresh text at ≤ 1.3× the repeated one.
import { Database } from '../../engine/index.js';
import type { QueryResult } from '../../engine/index.js';
import { tempDir } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';

export const REFRESH_SUITE = 'dashboard refresh: a moving time range against the same text';
export const REFRESH_SAME = 'same text repeated';
export const REFRESH_FRESH = 'range moved 1 s at each refresh';

const START_MS = Date.parse('2024-03-01T00:00:00Z');
const DAYS = 2;

let fixture: { db: Database; remove: () => Promise<void> } | null = null;

/** The panel's query with its window starting `seconds` after the first hour of the data. */
export function refreshQuery(seconds: number): string {
  const from = new Date(START_MS + 3_600_000 + seconds * 1000).toISOString().slice(0, 19);
  return `SELECT avg(v), max(v), count(v) FROM panel IN RANGE(${from}, +1h) WHERE v > 0.1 GROUP BY 1min`;
}

async function setup(): Promise<void> {
  const dir = await tempDir('refresh');
  const db = await Database.open({ dataDir: dir.path, durability: 'none' });
  await db.createTable('panel', [{ name: 'v', type: 'DOUBLE' }]);
  const rows = DAYS * 86_400;
  const ts = new BigInt64Array(rows);
  const v = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    ts[i] = BigInt(START_MS + i * 1000) * 1_000_000n;
    v[i] = (Math.sin(i / 600) + 1) / 2;
  }
  await db.insert('panel', { $timestamp: ts, v });
  fixture = { db, remove: dir.remove };
}

async function teardown(): Promise<void> {
  await fixture?.db.close();
  await fixture?.remove();
  fixture = null;
}

let refresh = 0;

export const refreshSuite: Suite = {
  name: REFRESH_SUITE,
  mode: 'ops',
  rounds: 3,
  setup,
  teardown,
  cases: [
    defineCase({ name: REFRESH_SAME, run: () => fixture!.db.query(refreshQuery(30)), check: (r) => bucketsOk(r, 61) }),
    // A day of refreshes before the window wraps: every text is new to the caches.
    defineCase({ name: REFRESH_FRESH, vs: [REFRESH_SAME], run: () => fixture!.db.query(refreshQuery(1 + (refresh++ % 86_000))), check: (r) => bucketsOk(r, 61) }),
  ],
};

/** The window's minute buckets where the value passes the WHERE (every bucket but a few of the low ones). */
function bucketsOk(r: QueryResult, at: number): string[] {
  const n = r.tables[0]?.rowCount ?? 0;
  return n > at / 2 && n <= at ? [] : [`${n} buckets, expected up to ${at}`];
}
