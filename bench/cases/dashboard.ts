// The dashboard's own figure: from Ctrl+Enter in the query console to a drawn chart, for a
// 1 M-point result, with the answer read as Arrow IPC and as query_exp JSON, in the same run.
// Debian's Chromium (headless, through playwright-core) loads the built page from a real server;
// the page measures itself (performance.now() at the key press to uPlot's first draw) and the
// harness times the whole step from outside. Without /usr/bin/chromium the suite is left out and
// `npm run bench` says so.
import type { Browser, Page } from 'playwright-core';
import { startServer } from '../../server/index.js';
import type { RunningServer } from '../../server/index.js';
import { ASSETS_DIR, launchBrowser, missingPrerequisite } from '../../test/e2e/dashboard-page.js';
import { tempDir } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';

export const DASHBOARD_SUITE = 'dashboard: Ctrl+Enter to drawn chart, 1 M points';
const POINTS = 1_000_000;
const QUERY = 'SELECT value FROM bench.dashboard';

/** Why the suite cannot run here (printed by run.ts), or null. */
export const dashboardSkipReason: string | null = missingPrerequisite();

interface Fixture { server: RunningServer; browser: Browser; page: Page; removeDir: () => Promise<void> }
let fixture: Fixture | null = null;

async function setup(): Promise<void> {
  const dir = await tempDir('dashboard');
  const server = await startServer({ dataDir: dir.path, port: 0, host: '127.0.0.1', durability: 'none', logToStderr: false, assetsDir: ASSETS_DIR });
  const ts = new BigInt64Array(POINTS);
  const value = new Float64Array(POINTS);
  const start = 1_700_000_000_000_000_000n;
  for (let i = 0; i < POINTS; i++) {
    ts[i] = start + BigInt(i) * 1_000_000_000n;
    value[i] = Math.sin(i / 5000) * 100 + (i % 97);
  }
  await server.db.createTable('bench.dashboard', [{ name: 'value', type: 'DOUBLE' }]);
  await server.db.insert('bench.dashboard', { $timestamp: ts, value });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${server.port}/`);
  await page.click('#sign-in');
  await page.waitForSelector('body[data-view=console]');
  await page.locator('.cm-content').fill(QUERY);
  fixture = { server, browser, page, removeDir: dir.remove };
}

async function teardown(): Promise<void> {
  if (fixture === null) return;
  await fixture.browser.close();
  await fixture.server.close();
  await fixture.removeDir();
  fixture = null;
}

const pageFigures: Record<'arrow' | 'json', number[]> = { arrow: [], json: [] };

/** One run: pick the format, Ctrl+Enter, wait for the chart's first draw; the page's own figure. */
async function drawOnce(format: 'arrow' | 'json'): Promise<number> {
  const page = fixture!.page;
  await page.selectOption('#result-format', format);
  const before = await page.evaluate(() => window.svcLastRun?.id ?? 0);
  await page.locator('.cm-content').press('Control+Enter');
  await page.waitForFunction((id) => { const r = window.svcLastRun; return r !== undefined && r.id > id && (r.drawnMs !== null || !r.ok); }, before, { timeout: 120_000 });
  const run = await page.evaluate(() => window.svcLastRun!);
  if (!run.ok || run.drawnMs === null) throw new Error(`the page did not draw (${JSON.stringify(run)})`);
  if (run.rows !== POINTS) throw new Error(`the page read ${run.rows} rows, expected ${POINTS}`);
  pageFigures[format].push(run.drawnMs);
  return run.drawnMs;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const dashboardSuite: Suite = {
  name: DASHBOARD_SUITE,
  mode: 'once',
  rounds: 3,
  setup,
  teardown: async () => {
    for (const f of ['arrow', 'json'] as const) {
      if (pageFigures[f].length > 0) recordMetric(DASHBOARD_SUITE, `${f === 'arrow' ? 'Arrow IPC' : 'JSON'}: Ctrl+Enter → chart drawn (page clock, median)`, median(pageFigures[f]), 'ms', `${pageFigures[f].length} runs, ${POINTS.toLocaleString('en-US')} points`);
    }
    await teardown();
  },
  cases: [
    defineCase({ name: 'Arrow IPC', rows: POINTS, vs: ['JSON'], run: () => drawOnce('arrow') }),
    defineCase({ name: 'JSON', rows: POINTS, run: () => drawOnce('json') }),
  ],
};

/** The suites run.ts registers: none without Chromium. */
export const dashboardSuites: readonly Suite[] = dashboardSkipReason === null ? [dashboardSuite] : [];
