// Issue 28, rollups: materialized views over a fleet. BENCH_ROLLUP_ROWS rows (default 100 M) of
// 1,000 series (`host` SYMBOL, `usage` DOUBLE) over 90 days, time-major as a fleet reports (one
// row per host every ~78 s), and a view of avg and max per host per hour over them.
// - Queries ('ops'): a 90-day dashboard panel from the view, from the raw rows, and DuckDB on the
//   raw rows (in memory, host as a BIGINT id: its cheapest filter), each answer checked against
//   svc's raw one: one host's hourly avg and max, and the fleet's hourly max.
// - The fill of the view over the rows already there (a metric).
// - Ingest with the view attached vs without ('once', the same run): BENCH_ROLLUP_INGEST_ROWS rows
//   (default 20 M: the fleet's first 18 days) with fsync, 8 batches of 100,000 rows in flight, until the view has caught up;
//   and the lag of its refreshes meanwhile (from a write's apply to the refresh that put it in the
//   view, p99 over its last refreshes).
import { BIGINT, DOUBLE } from '@duckdb/node-api';
import { Database } from '../../engine/index.js';
import { compareAnswers, svcAnswer } from '../answer.js';
import type { Answer } from '../answer.js';
import { isoNs, tempDir } from '../data.js';
import type { InputBatch } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { appendBatches, duckAnswer, duckQuery, openDuck } from '../peers/duckdb.js';
import type { DuckPeer } from '../peers/duckdb.js';
import { insertAll } from './ingest.js';
import { prng } from '../../test/prng.js';

export const ROLLUP_SUITE_HOST = 'rollup: one host, avg and max per hour over 90 days';
export const ROLLUP_SUITE_FLEET = 'rollup: the fleet\'s max per hour over 90 days';
export const ROLLUP_INGEST_SUITE = 'rollup: ingest with a view attached';
export const ROLLUP_VIEW = 'svc from the view';
export const ROLLUP_RAW = 'svc from the raw rows';
export const ROLLUP_DUCK = 'duckdb from the raw rows';
export const INGEST_PLAIN = 'svc ingest (fsync, ×8), no view';
export const INGEST_VIEW = 'svc ingest (fsync, ×8), a view attached, until it caught up';
export const ROLLUP_FILL = 'view fill over the rows already there';
export const ROLLUP_LAG = 'refresh lag p99 under full ingest';

const SERIES = 1_000;
const START = '2024-01-01T00:00';
const DAYS = 90n;
const BATCH = 100_000;
const RANGE = `IN RANGE(${START}, +90d)`;
const VIEW = 'CREATE MATERIALIZED VIEW cpu_1h AS SELECT avg(usage), max(usage) FROM cpu GROUP BY 1h, host';

function rowsOf(name: string, fallback: number): number {
  const text = process.env[name];
  return text === undefined ? fallback : Number(text.replaceAll('_', ''));
}
const queryRows = (): number => rowsOf('BENCH_ROLLUP_ROWS', 100_000_000);
const ingestRows = (): number => rowsOf('BENCH_ROLLUP_INGEST_ROWS', 20_000_000);

/**
 * The first `rows` rows of the fleet: step k holds every host once (host h at k·step + h ns), the
 * step such that the query suites' rows span 90 days (the ingest suite's fewer rows span fewer days
 * at the same density); in batches of BATCH rows, with `hostId` for DuckDB.
 */
function fleet(rows: number): InputBatch[] {
  const step = (DAYS * 86_400_000_000_000n) / BigInt(Math.ceil(queryRows() / SERIES));
  const hosts = Array.from({ length: SERIES }, (_, h) => `host${h}`);
  const random = prng(28);
  const batches: InputBatch[] = [];
  for (let at = 0; at < rows; at += BATCH) {
    const n = Math.min(BATCH, rows - at);
    const ts = new BigInt64Array(n);
    const usage = new Float64Array(n);
    const hostId = new BigInt64Array(n);
    const host: string[] = new Array(n);
    let k = -1;
    let stepTs = 0n;
    for (let i = 0; i < n; i++) {
      const row = at + i;
      const h = row % SERIES;
      if (Math.floor(row / SERIES) !== k) { k = Math.floor(row / SERIES); stepTs = isoNs(START) + BigInt(k) * step; }
      ts[i] = stepTs + BigInt(h);
      usage[i] = Math.round(random() * 10_000) / 100;
      hostId[i] = BigInt(h);
      host[i] = hosts[h];
    }
    batches.push({ $timestamp: ts, usage, host: host as unknown as Float64Array, hostId });
  }
  return batches;
}

const svcBatch = (b: InputBatch) => ({ $timestamp: b.$timestamp, usage: b.usage, host: b.host });

interface Fixture {
  readonly db: Database;
  readonly duck: DuckPeer;
  close(): Promise<void>;
}

let fixture: Fixture | null = null;

/** svc (the raw rows and, filled over them, the view) beside DuckDB (the raw rows), loaded once. */
async function loadFixture(): Promise<Fixture> {
  if (fixture !== null) return fixture;
  const batches = fleet(queryRows());
  const dir = await tempDir('rollup');
  const db = await Database.open({ dataDir: dir.path, durability: 'none', sweepIntervalMs: 0 });
  await db.query('CREATE TABLE cpu (usage DOUBLE, host SYMBOL)');
  await insertAll(db, 'cpu', batches.map(svcBatch), 8);
  const started = performance.now();
  await db.query(VIEW);
  await db.viewsCaughtUp();
  const fill = performance.now() - started;
  recordMetric(ROLLUP_SUITE_HOST, ROLLUP_FILL, fill, 'ms', `${queryRows().toLocaleString('en-US')} rows, ${(queryRows() / (fill / 1000) / 1e6).toFixed(1)} M rows/s; the view holds ${db.describeTable('cpu_1h').rowCount.toLocaleString('en-US')} rows`);
  const duck = await openDuck();
  await duck.connection.run('CREATE OR REPLACE TABLE cpu (ts TIMESTAMP_NS, usage DOUBLE, host BIGINT)');
  await appendBatches(duck.connection, 'cpu', ['usage', 'hostId'], batches, 'bulk', [DOUBLE, BIGINT]);
  fixture = { db, duck, close: async () => { duck.close(); await db.close(); await dir.remove(); } };
  return fixture;
}

/** Closes the rollup data; called once after the rollup suites. */
export async function releaseRollupFixture(): Promise<void> {
  const f = fixture;
  fixture = null;
  await f?.close();
}

interface Panel {
  readonly suite: string;
  readonly view: string;
  readonly raw: string;
  readonly duck: string;
}

const DUCK_RANGE = `ts >= '${START.replace('T', ' ')}'::TIMESTAMP_NS AND ts < '${START.replace('T', ' ')}'::TIMESTAMP_NS + INTERVAL 90 DAY`;

const PANELS: readonly Panel[] = [
  {
    suite: ROLLUP_SUITE_HOST,
    view: `SELECT "avg(usage)", "max(usage)" FROM cpu_1h ${RANGE} WHERE host = 'host42'`,
    raw: `SELECT avg(usage), max(usage) FROM cpu ${RANGE} WHERE host = 'host42' GROUP BY 1h`,
    duck: `SELECT date_trunc('hour', ts) AS "$timestamp", avg(usage) AS "avg(usage)", max(usage) AS "max(usage)" FROM cpu WHERE host = 42 AND ${DUCK_RANGE} GROUP BY 1 ORDER BY 1`,
  },
  {
    suite: ROLLUP_SUITE_FLEET,
    view: `SELECT max("max(usage)") AS top FROM cpu_1h ${RANGE} GROUP BY 1h`,
    raw: `SELECT max(usage) AS top FROM cpu ${RANGE} GROUP BY 1h`,
    duck: `SELECT date_trunc('hour', ts) AS "$timestamp", max(usage) AS top FROM cpu WHERE ${DUCK_RANGE} GROUP BY 1 ORDER BY 1`,
  },
];

function panelSuite(p: Panel): Suite {
  let expected: Answer = {};
  return {
    name: p.suite,
    mode: 'ops',
    rounds: 2,
    async setup() {
      expected = svcAnswer(await (await loadFixture()).db.query(p.raw));
    },
    cases: [
      defineCase({
        name: ROLLUP_VIEW,
        vs: [ROLLUP_RAW, ROLLUP_DUCK],
        run: () => fixture!.db.query(p.view),
        check: (result) => compareAnswers(expected, svcAnswer(result)),
      }),
      defineCase({ name: ROLLUP_RAW, vs: [ROLLUP_DUCK], run: () => fixture!.db.query(p.raw) }),
      defineCase({
        name: ROLLUP_DUCK,
        run: () => duckQuery(fixture!.duck.connection, p.duck),
        check: async () => compareAnswers(expected, await duckAnswer(fixture!.duck.connection, p.duck)),
      }),
    ],
  };
}

let ingestBatches: InputBatch[] | null = null;

function ingestCase(withView: boolean) {
  return defineCase({
    name: withView ? INGEST_VIEW : INGEST_PLAIN,
    rows: ingestRows,
    vs: withView ? [INGEST_PLAIN] : [],
    async setup() {
      ingestBatches ??= fleet(ingestRows()).map(svcBatch);
      const dir = await tempDir('rollup-ingest');
      const db = await Database.open({ dataDir: dir.path, durability: 'fsync', sweepIntervalMs: 0 });
      await db.query('CREATE TABLE cpu (usage DOUBLE, host SYMBOL)');
      if (withView) await db.query(VIEW);
      return { db, remove: async () => { await db.close(); await dir.remove(); } };
    },
    async run({ db }) {
      await insertAll(db, 'cpu', ingestBatches!, 8);
      const lag = db.figures().views;
      await db.viewsCaughtUp();
      return lag;
    },
    check: (lag, { db }) => {
      if (withView) recordMetric(ROLLUP_INGEST_SUITE, ROLLUP_LAG, lag.lagP99Ms, 'ms', `median ${lag.lagP50Ms} ms, worst ${lag.lagMaxMs} ms over the last ${Math.min(lag.refreshes, 1024)} of ${lag.refreshes} ranges refreshed`);
      const problems: string[] = [];
      if (db.describeTable('cpu').rowCount !== ingestRows()) problems.push(`${db.describeTable('cpu').rowCount} rows ingested`);
      if (withView && db.describeView('cpu_1h').pendingRanges !== 0) problems.push('the view has not caught up');
      return problems;
    },
    teardown: ({ remove }) => remove(),
  });
}

export const rollupSuites: readonly Suite[] = [
  ...PANELS.map(panelSuite),
  { name: ROLLUP_INGEST_SUITE, mode: 'once', rounds: 3, cases: [ingestCase(false), ingestCase(true)], teardown: async () => { ingestBatches = null; } },
];
