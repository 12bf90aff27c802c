// Issue 3, queries: table `t` of BENCH_ROWS rows over 2021 (one row per ~3 s at 10 M) with one
// DOUBLE column `v`, loaded once into svc and into DuckDB. Each query is a suite of three peers:
// svc's `db.query(text)`, the hand-written loop over svc's own batches (the practical limit, and
// the reference answer) and DuckDB's equivalent SQL. svc's and DuckDB's answers are checked
// against the reference before timing.
import { Database } from '../../engine/index.js';
import { compareAnswers, svcAnswer } from '../answer.js';
import type { Answer } from '../answer.js';
import { benchRows, DAY_NS, isoNs, makeSeries, MINUTE_NS, tempDir, toBatches } from '../data.js';
import type { InputBatch } from '../data.js';
import { arrive } from '../data-orders.js';
import type { ArrivalOrder } from '../data-orders.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';
import { handGroupBy, handRangeLimit, handSum } from '../peers/hand.js';
import { appendBatches, createDuckTable, duckAnswer, duckQuery, openDuck } from '../peers/duckdb.js';
import type { DuckPeer } from '../peers/duckdb.js';
import { insertAll } from './ingest.js';

const V = 1; // column index of `v` in a batch (0 is $timestamp)
const CUT_FROM = '2021-03-01T05:17';
const CUT_TO = '2021-11-20T13:00';
const MIDDLE = '2021-07-02T12:00';
const AGGREGATES = 'avg(v), min(v), max(v), count(v)';
const DUCK_AGGREGATES = 'avg(v) AS "avg(v)", min(v) AS "min(v)", max(v) AS "max(v)", count(v) AS "count(v)"';

interface QuerySpec {
  readonly name: string;
  readonly svc: string;
  readonly duck: string;
  readonly hand: (db: Database) => Answer;
  /** Rows the query covers, from the reference answer (rows/s is computed over these). */
  readonly rows: (expected: Answer) => number;
}

function duckRange(from: string, to: string): string {
  return `ts >= '${from.replace('T', ' ')}'::TIMESTAMP_NS AND ts < '${to.replace('T', ' ')}'::TIMESTAMP_NS`;
}

function countedRows(expected: Answer): number {
  let n = 0;
  for (const c of Array.from(expected['count(v)'])) n += Number(c);
  return n;
}

const QUERIES: readonly QuerySpec[] = [
  {
    name: 'GROUP BY day, full range',
    svc: `SELECT ${AGGREGATES} FROM t GROUP BY day`,
    duck: `SELECT date_trunc('day', ts) AS "$timestamp", ${DUCK_AGGREGATES} FROM t GROUP BY 1 ORDER BY 1`,
    hand: (db) => handGroupBy(db, 't', V, DAY_NS),
    rows: countedRows,
  },
  {
    name: 'GROUP BY day, range cutting batches',
    svc: `SELECT ${AGGREGATES} FROM t IN RANGE(${CUT_FROM}, ${CUT_TO}) GROUP BY day`,
    duck: `SELECT date_trunc('day', ts) AS "$timestamp", ${DUCK_AGGREGATES} FROM t WHERE ${duckRange(CUT_FROM, CUT_TO)} GROUP BY 1 ORDER BY 1`,
    hand: (db) => handGroupBy(db, 't', V, DAY_NS, isoNs(CUT_FROM), isoNs(CUT_TO)),
    rows: countedRows,
  },
  {
    // The same rows as the range above, said the SQL way: the time terms narrow the scan.
    name: 'GROUP BY day, WHERE on $timestamp cutting batches',
    svc: `SELECT ${AGGREGATES} FROM t WHERE $timestamp >= ${CUT_FROM} AND $timestamp < ${CUT_TO} GROUP BY day`,
    duck: `SELECT date_trunc('day', ts) AS "$timestamp", ${DUCK_AGGREGATES} FROM t WHERE ${duckRange(CUT_FROM, CUT_TO)} GROUP BY 1 ORDER BY 1`,
    hand: (db) => handGroupBy(db, 't', V, DAY_NS, isoNs(CUT_FROM), isoNs(CUT_TO)),
    rows: countedRows,
  },
  {
    name: 'sum(v)',
    svc: 'SELECT sum(v) FROM t',
    duck: 'SELECT sum(v) AS "sum(v)" FROM t',
    hand: (db) => handSum(db, 't', V),
    rows: () => benchRows(),
  },
  {
    name: 'sum(v) WHERE v > 0.5',
    svc: 'SELECT sum(v) FROM t WHERE v > 0.5',
    duck: 'SELECT sum(v) AS "sum(v)" FROM t WHERE v > 0.5',
    hand: (db) => handSum(db, 't', V, 0.5),
    rows: () => benchRows(),
  },
  {
    name: 'GROUP BY 1min',
    svc: `SELECT ${AGGREGATES} FROM t GROUP BY 1min`,
    duck: `SELECT date_trunc('minute', ts) AS "$timestamp", ${DUCK_AGGREGATES} FROM t GROUP BY 1 ORDER BY 1`,
    hand: (db) => handGroupBy(db, 't', V, MINUTE_NS),
    rows: countedRows,
  },
  {
    name: 'SELECT * LIMIT 1000 mid-year',
    svc: `SELECT * FROM t IN RANGE(${MIDDLE}, +1d) LIMIT 1000`,
    duck: `SELECT ts AS "$timestamp", v FROM t WHERE ${duckRange(MIDDLE, '2021-07-03T12:00')} ORDER BY ts LIMIT 1000`,
    hand: (db) => handRangeLimit(db, 't', V, isoNs(MIDDLE), isoNs(MIDDLE) + DAY_NS, 1000),
    rows: (expected) => expected.v.length,
  },
];

let fixture: SideBySide | null = null;

async function loadFixture(): Promise<SideBySide> {
  if (fixture !== null) return fixture;
  // BENCH_QUERY_ORDER=shuffled (or within-hour, late-1%) loads the same rows in that arrival order.
  const batches = toBatches(arrive(makeSeries(benchRows(), ['v'], 2), (process.env.BENCH_QUERY_ORDER ?? 'sorted') as ArrivalOrder));
  fixture = await loadSideBySide('query', [{ name: 't', column: 'v', batches }]);
  return fixture;
}

/** Closes the query data (svc and DuckDB); called once after the last query suite. */
export async function releaseQueryFixture(): Promise<void> {
  const f = fixture;
  fixture = null;
  await f?.close();
}

/** An svc database (no durability, no sweeps) in a temporary directory beside an in-memory DuckDB. */
export interface SideBySide {
  readonly db: Database;
  readonly duck: DuckPeer;
  close(): Promise<void>;
}

/** Both engines holding the same one-DOUBLE-column tables, loaded from the same batches. */
export async function loadSideBySide(label: string, tables: readonly { name: string; column: string; batches: readonly InputBatch[] }[]): Promise<SideBySide> {
  const dir = await tempDir(label);
  const db = await Database.open({ dataDir: dir.path, durability: 'none', sweepIntervalMs: 0 });
  const duck = await openDuck();
  for (const { name, column, batches } of tables) {
    await db.createTable(name, [{ name: column, type: 'DOUBLE' }]);
    await insertAll(db, name, batches, 8);
    await createDuckTable(duck.connection, name, [column]);
    await appendBatches(duck.connection, name, [column], batches, 'bulk');
  }
  return { db, duck, close: async () => { duck.close(); await db.close(); await dir.remove(); } };
}

export function duckThreads(): string | null {
  return fixture?.duck.threads ?? null;
}

function querySuite(q: QuerySpec): Suite {
  let expected: Answer = {};
  return {
    name: `query: ${q.name}`,
    mode: 'ops',
    rounds: 2,
    async setup() {
      expected = q.hand((await loadFixture()).db);
    },
    cases: [
      defineCase({
        name: 'svc',
        rows: () => q.rows(expected),
        vs: ['hand loop', 'duckdb'],
        run: () => fixture!.db.query(q.svc),
        check: (result) => compareAnswers(expected, svcAnswer(result)),
      }),
      defineCase({
        name: 'hand loop',
        rows: () => q.rows(expected),
        vs: ['duckdb'],
        run: () => q.hand(fixture!.db),
      }),
      defineCase({
        name: 'duckdb',
        rows: () => q.rows(expected),
        run: () => duckQuery(fixture!.duck.connection, q.duck),
        check: async () => compareAnswers(expected, await duckAnswer(fixture!.duck.connection, q.duck)),
      }),
    ],
  };
}

export const querySuites: readonly Suite[] = QUERIES.map(querySuite);

export const QUERY_TEXTS: Readonly<Record<string, { svc: string; duck: string }>> = Object.fromEntries(QUERIES.map((q) => [`query: ${q.name}`, { svc: q.svc, duck: q.duck }]));
