// `npm run bench` entry: runs the suites (all, or those matching the command-line filters),
// prints the table, the metrics and the targets, and writes bench-results.json at the repo root.
//   node --expose-gc dist/bench/run.js [filter …]   filters match suite or case names (any case)
//   BENCH_ROWS=1_000_000   scale the data down (default 10 M)
//   BENCH_LTM_ROWS=20_000_000   rows of the larger-than-memory suite (default 100 M, ~4 GB)
//   BENCH_MAX_TIME=1       seconds benchmark.js spends per query case per round
//   BENCH_ROUNDS=5         rounds per suite (default: 3 for long runs, 2 for queries)
//   BENCH_DIR=/path        where temporary data directories go (default: the OS temp dir)
//   BENCH_QUERY_ORDER=shuffled   load the query cases' rows shuffled (or within-hour, late-1%)
//   BENCH_INGEST_LINES=2_000_000  lines of the HTTP ingest suites' Telegraf-like file
//   BENCH_FOOTPRINT_HOURS=12  hours of data of the footprint suite's sensor and TSBS-like datasets
//   BENCH_MIXED_SECONDS=20  seconds of ingest under query load per system in the mixed-workload suite
//   BENCH_MIXED_HOURS=2     hours of the 200-host fleet preloaded before it
//   SVC_COMPRESSION=false  the cluster suite with checkpoint compression off (its rejoin, beside on)
//   BENCH_ROLLUP_ROWS=100_000_000  rows of the rollup suites' fleet (1,000 series, 90 days)
//   BENCH_ROLLUP_INGEST_ROWS=20_000_000  rows of the rollup ingest suite (with and without a view)
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ingestSuite } from './cases/ingest.js';
import { httpSuites, releaseHttpServers } from './cases/http.js';
import { dashboardSkipReason, dashboardSuites } from './cases/dashboard.js';
import { outOfOrderSuite } from './cases/out-of-order.js';
import { duckThreads, QUERY_TEXTS, querySuites, releaseQueryFixture } from './cases/query.js';
import { storageSuite } from './cases/storage.js';
import { LANGUAGE_TEXTS, languageSuites, releaseLanguageFixture } from './cases/language.js';
import { blobStorageSuite } from './cases/blob-storage.js';
import { largerThanMemoryQuerySuite, largerThanMemorySuite } from './cases/larger-than-memory.js';
import { clusterFailoverSuite, clusterSkipReason, clusterSuite, releaseClusterFixture } from './cases/cluster.js';
import { ingestHttpSuite, parserSuite, remoteWriteSuite } from './cases/ingest-http.js';
import { lifecycleQuerySuite, lifecycleSuite } from './cases/lifecycle.js';
import { transferSuite } from './cases/transfer.js';
import { releaseRollupFixture, rollupSuites } from './cases/rollup.js';
import { benchRows } from './data.js';
import { codecsSuite } from './cases/codecs.js';
import { refreshSuite } from './cases/refresh.js';
import { footprintSuite } from './cases/footprint.js';
import { mixedWorkloadSuite } from './cases/mixed-workload.js';
import { releaseThreadsFixture, threadsColdSuite, threadsHotSuite } from './cases/threads.js';
import { recordedMetrics, runSuite } from './harness.js';
import type { CaseResult, Suite } from './harness.js';
import { printMetrics, printTable, printTargets, writeJson } from './report.js';
import { evaluateTargets } from './targets.js';

const SUITES: readonly Suite[] = [ingestSuite, outOfOrderSuite, storageSuite, blobStorageSuite, largerThanMemorySuite, largerThanMemoryQuerySuite, codecsSuite, footprintSuite, ...querySuites, ...languageSuites, refreshSuite, ...httpSuites, ...dashboardSuites, parserSuite, ingestHttpSuite, remoteWriteSuite, mixedWorkloadSuite, threadsHotSuite, threadsColdSuite, lifecycleSuite, lifecycleQuerySuite, transferSuite, ...rollupSuites, ...(clusterSkipReason === null ? [clusterSuite, clusterFailoverSuite] : [])];
const RESULTS_PATH = fileURLToPath(new URL('../../bench-results.json', import.meta.url));

/** The suites to run, each reduced to its cases matching a filter (all when the suite name matches). */
function selectSuites(filters: readonly string[]): Suite[] {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 0);
  const all = Number.isSafeInteger(rounds) && rounds > 0 ? SUITES.map((s) => ({ ...s, rounds })) : SUITES;
  if (filters.length === 0) return [...all];
  const hits = (text: string) => filters.some((f) => text.toLowerCase().includes(f.toLowerCase()));
  const out: Suite[] = [];
  for (const s of all) {
    if (hits(s.name)) out.push(s);
    else {
      const cases = s.cases.filter((c) => hits(`${s.name} › ${c.name}`));
      if (cases.length > 0) out.push({ ...s, cases });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(line);
  const filters = process.argv.slice(2);
  const suites = selectSuites(filters);
  const rows = benchRows();
  if ((globalThis as { gc?: unknown }).gc === undefined) log('warning: run node with --expose-gc, or memory figures include garbage');
  log(`svc bench: ${rows.toLocaleString('en-US')} rows, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
  if (dashboardSkipReason !== null) log(`dashboard suite skipped: ${dashboardSkipReason}`);
  if (clusterSkipReason !== null) log(`cluster suites skipped: ${clusterSkipReason}`);
  log(`suites: ${suites.map((s) => s.name).join(', ') || '(none match the filter)'}\n`);
  const started = performance.now();
  const results: CaseResult[] = [];
  for (const suite of suites) {
    log(`${suite.name}:`);
    results.push(...(await runSuite(suite, log)));
  }
  const threads = duckThreads();
  await releaseQueryFixture();
  await releaseLanguageFixture();
  await releaseHttpServers();
  await releaseClusterFixture();
  await releaseRollupFixture();
  await releaseThreadsFixture();
  const metrics = recordedMetrics();
  const targets = evaluateTargets(results, metrics);
  log('');
  printTable(results, log);
  printMetrics(metrics, log);
  printTargets(targets, log);
  const seconds = (performance.now() - started) / 1000;
  log(`\n${seconds.toFixed(0)} s in all${threads === null ? '' : `; DuckDB ran with ${threads} threads`}; speed ÷ peer > 1 means faster than the peer`);
  await writeJson(RESULTS_PATH, {
    generatedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    rows,
    filters,
    duckdbThreads: threads,
    seconds,
    queries: { ...QUERY_TEXTS, ...LANGUAGE_TEXTS },
    results,
    metrics,
    targets,
  });
  log(`results written to ${RESULTS_PATH}`);
  if (results.some((r) => r.check === 'mismatch')) {
    log('\nWRONG ANSWERS were reported above.');
    process.exitCode = 1;
  }
}

await main();
