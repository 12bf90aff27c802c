// Issue 30's scaling figures: the same scans with 1 and with 2 threads (Database.open's
// `parallelism`, svc_rest's --parallelism-count) in one run, over the query suites' table (BENCH_ROWS
// rows of one DOUBLE column `v`). Hot: the data in memory, the query repeated. Cold: a database
// just reopened from its checkpoint files, so every column the query reads is read back first
// (that decode runs on the main thread: docs/workers.md); its code is warmed first by the same
// query on a small table, since new worker threads start with cold code. The 2-thread answer is checked against
// the 1-thread one. HTTP line-protocol ingest with 1 and 2 threads is in the ingest suite
// (cases/ingest-http.ts), beside influxd and VictoriaMetrics.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../engine/index.js';
import type { QueryResult } from '../../engine/index.js';
import { compareAnswers, svcAnswer } from '../answer.js';
import { benchRows, makeSeries, tempDir, toBatches } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';
import { insertAll } from './ingest.js';

export const THREADS_HOT_SUITE = 'threads: hot scans, 1 vs 2';
export const THREADS_COLD_SUITE = 'threads: cold scans, 1 vs 2';
export const THREAD_QUERIES = {
  'sum(v) WHERE v > 0.5': 'SELECT sum(v) FROM t WHERE v > 0.5',
  'GROUP BY 1min': 'SELECT avg(v), min(v), max(v), count(v) FROM t GROUP BY 1min',
} as const;
export type ThreadQuery = keyof typeof THREAD_QUERIES;
const COUNTS = [1, 2] as const;

/** The case name of `query` run with `threads` threads (targets.ts reads the pairs). */
export function threadCase(query: ThreadQuery, threads: number): string {
  return `svc ${threads} thread${threads === 1 ? '' : 's'} ${query}`;
}

/** The table written once and checkpointed, then copied: one data directory per thread count. */
let fixture: { dirs: Record<number, string>; remove: () => Promise<void> } | null = null;

async function loadFixture(): Promise<{ dirs: Record<number, string> }> {
  if (fixture !== null) return fixture;
  const dir = await tempDir('threads');
  const first = join(dir.path, '1');
  const db = await Database.open({ dataDir: first, durability: 'os', sweepIntervalMs: 0, parallelism: 1 });
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
  await insertAll(db, 't', toBatches(makeSeries(benchRows(), ['v'], 2)), 8);
  await db.createTable('w', [{ name: 'v', type: 'DOUBLE' }]);
  await insertAll(db, 'w', toBatches(makeSeries(WARM_ROWS, ['v'], 3)), 8);
  await db.checkpoint();
  await db.close();
  const second = join(dir.path, '2');
  await cp(first, second, { recursive: true });
  fixture = { dirs: { 1: first, 2: second }, remove: dir.remove };
  return fixture;
}

/** Removes the suites' data (run.ts, after the last suite). */
export async function releaseThreadsFixture(): Promise<void> {
  await closeHot();
  const f = fixture;
  fixture = null;
  await f?.remove();
}

/**
 * Rows of table `w`, which a cold run queries first: the code warm (here and in the workers), `t`
 * cold. Over parallelScanRows' default (2,097,152), so that its scans are split as `t`'s are.
 */
const WARM_ROWS = 2_200_000;

const open = async (threads: number): Promise<Database> => Database.open({ dataDir: (await loadFixture()).dirs[threads], sweepIntervalMs: 0, parallelism: threads });

/** The hot suite's databases, one per thread count, shared by its queries. */
const hot = new Map<number, Promise<Database>>();

function openHot(threads: number): Promise<Database> {
  let db = hot.get(threads);
  if (db === undefined) hot.set(threads, (db = open(threads)));
  return db;
}

async function closeHot(): Promise<void> {
  const dbs = await Promise.all(hot.values());
  hot.clear();
  for (const db of dbs) await db.close();
}

/** The 1-thread answers, the reference of the 2-thread ones. */
const reference = new Map<string, QueryResult>();

function checkAgainstOneThread(query: ThreadQuery, threads: number, result: QueryResult): string[] {
  if (threads === 1) {
    reference.set(query, result);
    return [];
  }
  const expected = reference.get(query);
  return expected === undefined ? ['no 1-thread answer to compare with'] : compareAnswers(svcAnswer(expected), svcAnswer(result));
}

/** A case per query and thread count: `open` readies the database, the query is timed on it. */
const scanCases = (open: (query: ThreadQuery, threads: number) => Promise<Database>): Suite['cases'] =>
  (Object.keys(THREAD_QUERIES) as ThreadQuery[]).flatMap((query) => COUNTS.map((threads) => defineCase<Database, QueryResult>({
    name: threadCase(query, threads),
    rows: () => benchRows(),
    vs: threads === 1 ? undefined : [threadCase(query, 1)],
    setup: () => open(query, threads),
    run: (db) => db.query(THREAD_QUERIES[query]),
    check: (result) => checkAgainstOneThread(query, threads, result),
  })));

export const threadsHotSuite: Suite = {
  name: THREADS_HOT_SUITE,
  mode: 'ops',
  rounds: 2,
  setup: async () => { await loadFixture(); },
  cases: scanCases(async (query, threads) => {
    const db = await openHot(threads);
    await db.query(THREAD_QUERIES[query]); // reads every column back: hot from here on
    return db;
  }),
  teardown: closeHot,
};

export const threadsColdSuite: Suite = {
  name: THREADS_COLD_SUITE,
  mode: 'once',
  rounds: 3,
  setup: async () => { await loadFixture(); },
  // A database per run, closed after it (the cases' teardown).
  cases: scanCases(async (query, threads) => {
    const db = await open(threads);
    await db.query(THREAD_QUERIES[query].replace('FROM t', 'FROM w'));
    return db;
  }).map((c) => ({ ...c, teardown: (db: Database) => db.close() })),
};
