// The dashboard's own figures: from Ctrl+Enter in the query console to a drawn chart, for a
// 1 M-point result (one series) and for 50 series of 20 k points (`SELECT host, value`, one row
// per host and time), each with the answer read as Arrow IPC and as query_exp JSON in the same
// run. Debian's Chromium (headless, through playwright-core) loads the built page from a real
// server; the page measures itself (performance.now() at the key press to uPlot's first draw) and
// the harness times the whole step from outside. Without /usr/bin/chromium the suites are left out
// and `npm run bench` says so.
import type { Browser, Page } from 'playwright-core';
import { startServer } from '../../server/index.js';
import type { RunningServer } from '../../server/index.js';
import { ASSETS_DIR, launchBrowser, missingPrerequisite } from '../../test/e2e/dashboard-page.js';
import { tempDir } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { CaseResult, Metric, Suite } from '../harness.js';
import { fmt } from '../report.js';
import type { Target } from '../report.js';

export const DASHBOARD_SUITE = 'dashboard: Ctrl+Enter to drawn chart, 1 M points';
export const DASHBOARD_SERIES_SUITE = 'dashboard: Ctrl+Enter to drawn chart, 50 series × 20 k points';
const POINTS = 1_000_000;
const HOSTS = 50;
const HOST_POINTS = 20_000;

/** Why the suites cannot run here (printed by run.ts), or null. */
export const dashboardSkipReason: string | null = missingPrerequisite();

interface Fixture { server: RunningServer; browser: Browser; page: Page; removeDir: () => Promise<void> }
let fixture: Fixture | null = null;

const START = 1_700_000_000_000_000_000n;

/** One point a second, one series: 1 M rows. */
async function loadPoints(server: RunningServer): Promise<void> {
  const ts = new BigInt64Array(POINTS);
  const value = new Float64Array(POINTS);
  for (let i = 0; i < POINTS; i++) {
    ts[i] = START + BigInt(i) * 1_000_000_000n;
    value[i] = Math.sin(i / 5000) * 100 + (i % 97);
  }
  await server.db.createTable('bench.dashboard', [{ name: 'value', type: 'DOUBLE' }]);
  await server.db.insert('bench.dashboard', { $timestamp: ts, value });
}

/** 50 hosts reporting at the same instants (as Telegraf's round_interval does): 1 M rows. */
async function loadHosts(server: RunningServer): Promise<void> {
  const n = HOSTS * HOST_POINTS;
  const ts = new BigInt64Array(n);
  const value = new Float64Array(n);
  const host: string[] = new Array<string>(n);
  for (let i = 0; i < HOST_POINTS; i++) {
    for (let h = 0; h < HOSTS; h++) {
      const r = i * HOSTS + h;
      ts[r] = START + BigInt(i) * 10_000_000_000n;
      value[r] = h * 10 + Math.sin(i / 500 + h) * 5;
      host[r] = `host${String(h).padStart(2, '0')}`;
    }
  }
  await server.db.createTable('bench.hosts', [{ name: 'host', type: 'SYMBOL' }, { name: 'value', type: 'DOUBLE' }]);
  await server.db.insert('bench.hosts', { $timestamp: ts, host, value });
}

/** A server holding one suite's data and a signed-in page on it. */
async function setup(load: (server: RunningServer) => Promise<void>): Promise<void> {
  const dir = await tempDir('dashboard');
  const server = await startServer({ dataDir: dir.path, port: 0, host: '127.0.0.1', durability: 'none', logToStderr: false, assetsDir: ASSETS_DIR });
  await load(server);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${server.port}/`);
  await page.click('#sign-in');
  await page.waitForSelector('body[data-view=console]');
  fixture = { server, browser, page, removeDir: dir.remove };
}

async function teardown(): Promise<void> {
  if (fixture === null) return;
  await fixture.browser.close();
  await fixture.server.close();
  await fixture.removeDir();
  fixture = null;
}

type Format = 'arrow' | 'json';
const pageFigures = new Map<string, number[]>();

/** One run: pick the format, Ctrl+Enter, wait for the chart's first draw; the page's own figure. */
async function drawOnce(suite: string, query: string, format: Format, rows: number, series: number): Promise<number> {
  const page = fixture!.page;
  await page.evaluate((f) => {
    // The format lives in the Settings menu: set as a person's choice would.
    const select = document.querySelector<HTMLSelectElement>('#result-format')!;
    select.value = f;
    select.dispatchEvent(new Event('change'));
  }, format);
  await page.locator('.cm-content').fill(query);
  const before = await page.evaluate(() => window.svcLastRun?.id ?? 0);
  await page.locator('.cm-content').press('Control+Enter');
  await page.waitForFunction((id) => { const r = window.svcLastRun; return r !== undefined && r.id > id && (r.drawnMs !== null || !r.ok); }, before, { timeout: 120_000 });
  const run = await page.evaluate(() => window.svcLastRun!);
  if (!run.ok || run.drawnMs === null) throw new Error(`the page did not draw (${JSON.stringify(run)})`);
  if (run.rows !== rows) throw new Error(`the page read ${run.rows} rows, expected ${rows}`);
  if (run.seriesCount !== series) throw new Error(`the page drew ${run.seriesCount} series, expected ${series}`);
  const key = `${suite}\u0000${format}`;
  pageFigures.set(key, [...(pageFigures.get(key) ?? []), run.drawnMs]);
  return run.drawnMs;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const pageMetricName = (format: Format): string => `${format === 'arrow' ? 'Arrow IPC' : 'JSON'}: Ctrl+Enter → chart drawn (page clock, median)`;

function suite(name: string, load: (server: RunningServer) => Promise<void>, query: string, rows: number, series: number): Suite {
  return {
    name,
    mode: 'once',
    rounds: 3,
    setup: () => setup(load),
    teardown: async () => {
      for (const f of ['arrow', 'json'] as const) {
        const runs = pageFigures.get(`${name}\u0000${f}`) ?? [];
        if (runs.length > 0) recordMetric(name, pageMetricName(f), median(runs), 'ms', `${runs.length} runs, ${rows.toLocaleString('en-US')} points, ${series} series`);
      }
      await teardown();
    },
    cases: [
      defineCase({ name: 'Arrow IPC', rows, vs: ['JSON'], run: () => drawOnce(name, query, 'arrow', rows, series) }),
      defineCase({ name: 'JSON', rows, run: () => drawOnce(name, query, 'json', rows, series) }),
    ],
  };
}

export const dashboardSuite = suite(DASHBOARD_SUITE, loadPoints, 'SELECT value FROM bench.dashboard', POINTS, 1);
export const dashboardSeriesSuite = suite(DASHBOARD_SERIES_SUITE, loadHosts, 'SELECT host, value FROM bench.hosts', HOSTS * HOST_POINTS, HOSTS);

/** The suites run.ts registers: none without Chromium. */
export const dashboardSuites: readonly Suite[] = dashboardSkipReason === null ? [dashboardSuite, dashboardSeriesSuite] : [];

/** Issue 31's targets: the page's own clock, Arrow IPC. */
export function addDashboardTargets(
  get: (suite: string, name: string) => CaseResult | undefined,
  add: (what: string, measured: string | null, isMet: Target['isMet']) => void,
  metrics: readonly Metric[],
): void {
  for (const [suite, limit, what] of [[DASHBOARD_SUITE, 500, '1 M points'], [DASHBOARD_SERIES_SUITE, 1000, '50 series × 20 k points']] as const) {
    const page = metrics.find((m) => m.suite === suite && m.name === pageMetricName('arrow'))?.value;
    const json = get(suite, 'Arrow IPC')?.ratios['JSON'];
    add(`dashboard: ${what} charted (Arrow, Ctrl+Enter → drawn) < ${limit} ms`, page === undefined ? null : `${fmt(page)} ms${json === undefined ? '' : `, ${json.toFixed(2)}× JSON`}`, page === undefined ? null : page < limit);
  }
}
