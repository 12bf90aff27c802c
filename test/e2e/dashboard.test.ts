// The dashboard in a real browser (Debian's Chromium, headless, through playwright-core) whose
// clock is not UTC (Asia/Kolkata, UTC+05:30), against a server with seeded data and 50 hosts of
// line protocol: sign in, results equal to the API's, a series per host, lines for delta and a
// FILL before the data, one clock for axis and table, the range picker, zoom and auto-refresh
// changing the query's range (read from the requests the page sends), the view restored from the
// URL, downloads equal to the table, help, browse, the cluster figures, and no console error on
// the whole walk. Each step leaves a screenshot in test-output/e2e.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { request } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';
import { lineProtocol } from '../assets/page-fixture.js';
import { launchBrowser, missingPrerequisite, screenshot, seed, startDashboardServer } from './dashboard-page.js';
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';

const missing = missingPrerequisite();
if (missing !== null) process.stderr.write(`dashboard e2e skipped: ${missing}\n`);

/** The browser's zone: not UTC, and not a whole hour away from it. */
export const TIMEZONE = 'Asia/Kolkata';

export async function runQuery(page: Page, query: string): Promise<void> {
  const before = await page.evaluate(() => window.svcLastRun?.id ?? 0);
  await page.locator('.cm-content').fill(query);
  await page.locator('.cm-content').press('Control+Enter');
  await page.waitForFunction((id) => (window.svcLastRun?.id ?? 0) > id, before);
}

/** Waits for the run after `before` (a click or a timer started it). */
async function nextRun(page: Page, before: number, timeout = 10_000): Promise<void> {
  await page.waitForFunction((id) => (window.svcLastRun?.id ?? 0) > id && window.svcLastRun!.ok, before, { timeout });
}

const lastRunId = (page: Page): Promise<number> => page.evaluate(() => window.svcLastRun?.id ?? 0);

/** The grid's rendered rows: each cell's exact value (its hover text), in row order. */
async function gridRows(page: Page, attribute: 'title' | 'text' = 'title'): Promise<string[][]> {
  return page.$$eval('.grid-body .grid-row', (rows, a) => rows
    .sort((x, y) => Number(x.getAttribute('aria-rowindex')) - Number(y.getAttribute('aria-rowindex')))
    .map((r) => [...r.querySelectorAll('.grid-cell')].map((c) => (a === 'title' ? c.getAttribute('title') : c.textContent) ?? '')), attribute);
}

/** The API's answer to a query as text cells (null as ''). */
async function apiRows(server: TestServer, query: string): Promise<string[][]> {
  const r = await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(query)}`);
  assert.equal(r.status, 200, r.text());
  return (r.json().tables[0].results as unknown[][]).map((row) => row.map((v) => (v === null ? '' : String(v))));
}

/**
 * Pixels of the plot area near a colour, in ten vertical slices from left to right (lines drawn
 * across the data's span ink every slice it covers).
 */
async function inkBySlice(page: Page, rgb: [number, number, number]): Promise<number[]> {
  return page.$eval('.chart', (chart, color) => {
    const canvas = chart.querySelector('canvas')!;
    const over = chart.querySelector('.u-over')!.getBoundingClientRect();
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    const x0 = Math.round((over.left - box.left) * scale);
    const y0 = Math.round((over.top - box.top) * scale);
    const w = Math.round(over.width * scale);
    const h = Math.round(over.height * scale);
    const data = canvas.getContext('2d')!.getImageData(x0, y0, w, h).data;
    const slices = new Array<number>(10).fill(0);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = 4 * (y * w + x);
        if (data[i + 3]! > 0 && Math.abs(data[i]! - color[0]) + Math.abs(data[i + 1]! - color[1]) + Math.abs(data[i + 2]! - color[2]) < 90) slices[Math.min(9, Math.floor((10 * x) / w))]!++;
      }
    }
    return slices;
  }, rgb);
}

/** The first series' colour (result-chart.ts's palette). */
const BLUE: [number, number, number] = [0x2f, 0x7e, 0xd8];

/** The query_exp queries the page sent, in order (the request log). */
function requestLog(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/query_exp') && r.method() === 'POST') sent.push((JSON.parse(r.postData() ?? '{}') as { query: string }).query);
  });
  return sent;
}

/**
 * Console errors and page errors. Chromium also logs every 4xx/5xx answer as a console error
 * ("Failed to load resource"): those are kept apart by path, for the walk to check that only the
 * answers it provokes on purpose failed.
 */
function consoleErrors(page: Page): { errors: string[]; failedPaths: Set<string> } {
  const out = { errors: [] as string[], failedPaths: new Set<string>() };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (m.text().startsWith('Failed to load resource')) out.failedPaths.add(new URL(m.location().url).pathname);
    else out.errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => out.errors.push(`page error: ${e.message}`));
  return out;
}

/** The IN RANGE bounds of a query (ms), a `+duration` end read as from + duration. */
function rangeOf(query: string): { from: number; to: number } {
  const m = /IN RANGE\(([^,]+), ([^)]+)\)/.exec(query);
  assert.ok(m !== null, `no range in ${query}`);
  const from = Date.parse(m[1]!);
  const spans: Record<string, number> = { '+15min': 900_000, '+1h': 3_600_000, '+6h': 21_600_000, '+24h': 86_400_000, '+7d': 604_800_000 };
  return { from, to: spans[m[2]!] !== undefined ? from + spans[m[2]!]! : Date.parse(m[2]!) };
}

describe('dashboard in Chromium (browser clock UTC+05:30)', { skip: missing ?? false }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let startIso: string;
  let sent: string[];
  let seen: ReturnType<typeof consoleErrors>;
  /** The first minute of the 50 hosts' hour of line protocol (seconds). */
  const cpuStart = Math.floor(Date.now() / 60_000) * 60 - 3600;

  before(async () => {
    server = await startDashboardServer();
    ({ startIso } = await seed(server.server.db));
    assert.equal((await request(server.base, 'POST', '/write?precision=s', { body: lineProtocol(cpuStart) })).status, 204);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: TIMEZONE, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    sent = requestLog(page);
    seen = consoleErrors(page);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in with empty credentials (security off); the favicon is served', async () => {
    await page.goto(server.base);
    await page.waitForSelector('#sign-in');
    await screenshot(page, '01-sign-in');
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
    assert.ok(await page.evaluate(() => sessionStorage.getItem('svc.token') !== null));
    const icon = await request(server.base, 'GET', '/favicon.ico');
    assert.equal(icon.status, 200);
    assert.equal(icon.body.readUInt16LE(2), 1, 'an ICO file');
    assert.equal(await page.evaluate(() => new Date().getTimezoneOffset()), -330, 'the browser runs 5:30 ahead of UTC');
  });

  it('runs a GROUP BY query: the grid holds the API answer and the chart drew one series per column', async () => {
    const query = `SELECT avg(temp), max(hum) FROM sensors.room1 IN RANGE(${startIso}, 6h) GROUP BY 1h`;
    await runQuery(page, query);
    await page.waitForSelector('.chart[data-drawn]');
    const expected = await apiRows(server, query);
    assert.equal(expected.length, 6);
    assert.deepEqual(await gridRows(page), expected);
    assert.deepEqual(await page.$$eval('.grid-head .grid-cell', (cs) => cs.map((c) => c.textContent)), ['timestamp', 'avg(temp)', 'max(hum)']);
    const run = await page.evaluate(() => window.svcLastRun!);
    assert.equal(run.format, 'arrow');
    assert.equal(run.seriesCount, 2);
    assert.equal(await page.locator('.u-legend .u-series').count(), 3); // time + 2 series
    assert.ok((await inkBySlice(page, BLUE)).every((n) => n > 0), 'the first series is drawn across the chart');
    assert.match(await page.locator('.run-status').innerText(), /ms · [\d,]+ scanned · 6 rows in 1 table/);
    // The language mode: each kind of token gets its own class (and so its colour).
    const tokens = async (cls: string) => page.$$eval(`.cm-content .${cls}`, (es) => es.map((e) => e.textContent));
    assert.deepEqual(await tokens('tok-keyword'), ['SELECT', 'FROM', 'IN', 'RANGE', 'GROUP', 'BY']);
    assert.deepEqual(await tokens('tok-function'), ['avg', 'max']);
    assert.deepEqual(await tokens('tok-duration'), ['6h', '1h']);
    assert.deepEqual(await tokens('tok-time'), [startIso]);
    await screenshot(page, '02-group-by');
  });

  it('GROUP BY 5min, host over 50 hosts: 50 series with a legend, host selected for the chart', async () => {
    const query = `SELECT avg(usage_user) FROM cpu IN RANGE(${new Date(cpuStart * 1000).toISOString()}, +1h) GROUP BY 5min, host`;
    await runQuery(page, query);
    await page.waitForSelector('.chart[data-drawn]');
    const run = await page.evaluate(() => window.svcLastRun!);
    assert.equal(run.seriesCount, 50);
    assert.equal(run.totalSeries, 50);
    assert.equal(sent.at(-1), query.replace('SELECT avg', 'SELECT host, avg'));
    const labels = await page.$$eval('.u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent));
    assert.equal(labels.length, 51);
    assert.deepEqual(labels.slice(1, 3), ['host=h00', 'host=h01']);
    assert.match(await page.locator('.chart-note').innerText(), /host added to the query's columns: one series per value/);
    assert.equal(await page.locator('.grid-head .grid-cell.added').innerText(), 'host');
    await screenshot(page, '03-fifty-hosts');
    // A click on a legend entry hides its series; another shows it again.
    const entry = page.locator('.u-legend .u-series').nth(1);
    await entry.click();
    assert.equal(await page.locator('.u-legend .u-series.u-off').count(), 1);
    await entry.click();
    assert.equal(await page.locator('.u-legend .u-series.u-off').count(), 0);
  });

  it('draws lines for delta(v) (its first value is null) over the whole span of the data', async () => {
    await runQuery(page, `SELECT delta(usage_user) FROM cpu WHERE host = 'h07'`);
    await page.waitForSelector('.chart[data-drawn]');
    assert.equal((await gridRows(page, 'text'))[0]![1], 'null');
    const ink = await inkBySlice(page, BLUE);
    assert.ok(ink.every((n) => n > 20), `every tenth of the plot has line pixels: ${ink.join(' ')}`);
    await screenshot(page, '04-delta');
  });

  it('draws a FILL whose range starts before the data from the data\'s first bucket on', async () => {
    // Two hours of 10-minute buckets: the first hour has no data (nulls), the second has it.
    const from = Math.floor((cpuStart - 3600) / 600) * 600;
    await runQuery(page, `SELECT avg(usage_user) FROM cpu IN RANGE(${new Date(from * 1000).toISOString()}, +2h) GROUP BY 10min FILL(LINEAR)`);
    await page.waitForSelector('.chart[data-drawn]');
    const cells = await gridRows(page, 'text');
    assert.equal(cells.length, 12);
    assert.deepEqual(cells.slice(0, 6).map((r) => r[1]), ['null', 'null', 'null', 'null', 'null', 'null']);
    const ink = await inkBySlice(page, BLUE);
    assert.ok(ink.slice(6).every((n) => n > 0), `the data's half is drawn: ${ink.join(' ')}`);
    assert.ok(ink.slice(0, 4).every((n) => n === 0), `nothing is drawn before the data: ${ink.join(' ')}`);
    await screenshot(page, '05-fill-before-data');
  });

  it('one clock: axis, legend and table in UTC, then all in local time (+05:30) with the switch, remembered', async () => {
    await runQuery(page, `SELECT avg(temp) FROM sensors.room1 IN RANGE(${startIso}, 6h) GROUP BY 1h`);
    await page.waitForSelector('.chart[data-drawn]');
    const ticks = async (): Promise<string[]> => (await page.locator('.chart').getAttribute('data-x-ticks'))!.split('|').map((t) => t.slice(0, 5));
    const cell = async (row: number): Promise<string> => (await gridRows(page, 'text'))[row]![0]!;
    /** The legend's time with the cursor on row `row`'s point, as the table writes it (no T, no zone). */
    const legendAt = async (row: number): Promise<string> => {
      const [min, max] = (await page.locator('.chart').getAttribute('data-x-range'))!.split('..').map(Number);
      const t = Date.parse(startIso) / 1000 + row * 3600;
      const box = (await page.locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + ((t - min!) / (max! - min!)) * box.width, box.y + box.height / 2);
      return page.locator('.u-legend .u-series').first().locator('.u-value').innerText();
    };
    const asLegend = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
    // UTC: the table's times end in Z, the axis ticks at its whole hours, the legend says the same time.
    assert.equal(await page.getAttribute('#clock-utc', 'aria-pressed'), 'true');
    const utcCell = await cell(2);
    assert.equal(utcCell, new Date(Date.parse(startIso) + 2 * 3_600_000).toISOString());
    const utcTicks = await ticks();
    assert.ok(utcTicks.includes(utcCell.slice(11, 16)), `${utcCell.slice(11, 16)} among ${utcTicks.join(' ')}`);
    assert.equal(await legendAt(2), asLegend(utcCell));
    assert.equal(await page.locator('.u-legend .u-series').first().locator('.u-label').innerText(), 'UTC');
    await screenshot(page, '06-clock-utc');
    // Local: table, legend and axis move by 5:30 together.
    await page.click('#clock-local');
    await page.waitForFunction(() => document.body.dataset['clock'] === 'local');
    const localCell = await cell(2);
    assert.equal(localCell, `${new Date(Date.parse(utcCell) + 5.5 * 3_600_000).toISOString().slice(0, 23)}+05:30`);
    assert.equal(await legendAt(2), asLegend(localCell));
    // The axis' ticks are the same instants (every 30 min), labelled 5:30 later.
    const localTicks = await ticks();
    const shifted = (hm: string): string => { const m = (Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3)) + 330) % 1440; return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`; };
    assert.deepEqual(localTicks, utcTicks.map(shifted));
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    assert.equal(await page.locator('.u-legend .u-series').first().locator('.u-label').innerText(), `local (${zone})`);
    await screenshot(page, '06-clock-local');
    // Remembered across a reload, then back to UTC.
    await page.reload();
    await page.waitForFunction(() => window.svcLastRun?.ok === true);
    assert.equal(await page.getAttribute('#clock-local', 'aria-pressed'), 'true');
    assert.ok((await cell(0)).endsWith('+05:30'));
    await page.click('#clock-utc');
    assert.ok((await cell(0)).endsWith('Z'));
  });

  it('the range picker writes the query\'s IN RANGE, visibly, and the request carries it', async () => {
    await page.locator('.cm-content').fill('SELECT avg(usage_user) FROM cpu GROUP BY 1min, region');
    const before = await lastRunId(page);
    const pickedAt = Date.now();
    await page.selectOption('#range', '6h');
    await nextRun(page, before);
    const query = sent.at(-1)!;
    const { from, to } = rangeOf(query);
    assert.ok(Math.abs(to - pickedAt) < 5_000 && to - from === 6 * 3_600_000, query);
    assert.equal(await page.locator('.cm-content').innerText(), query.replace('SELECT region, avg', 'SELECT avg'));
    assert.equal(await page.evaluate(() => window.svcLastRun!.seriesCount), 3);
    await screenshot(page, '07-range-6h');
  });

  it('a drag on the chart narrows the range (the query runs over the span); Zoom out goes back', async () => {
    const wide = rangeOf(sent.at(-1)!);
    const box = (await page.locator('.u-over').boundingBox())!;
    const before = await lastRunId(page);
    await page.mouse.move(box.x + box.width * 0.85, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await nextRun(page, before);
    const zoomed = rangeOf(sent.at(-1)!);
    assert.ok(zoomed.from > wide.from && zoomed.to < wide.to && zoomed.to - zoomed.from < (wide.to - wide.from) * 0.2, sent.at(-1));
    assert.equal(await page.inputValue('#range'), 'custom');
    assert.match(await page.inputValue('#range-from'), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const [min, max] = (await page.locator('.chart').getAttribute('data-x-range'))!.split('..').map(Number);
    assert.ok(Math.abs(min! * 1000 - zoomed.from) < 1 && Math.abs(max! * 1000 - zoomed.to) < 1, 'the axis spans the range asked');
    await screenshot(page, '08-zoomed');
    const back = await lastRunId(page);
    await page.click('#zoom-out');
    await nextRun(page, back);
    assert.equal(await page.inputValue('#range'), '6h');
    assert.match(sent.at(-1)!, /, \+6h\)/);
  });

  it('auto-refresh runs the query again over a moved range, and pauses while the query is edited', async () => {
    const before = await lastRunId(page);
    const first = rangeOf(sent.at(-1)!).from;
    await page.selectOption('#refresh', '5');
    await nextRun(page, before, 8_000);
    const moved = rangeOf(sent.at(-1)!).from;
    assert.ok(moved > first, `the range moved: ${first} → ${moved}`);
    assert.match(await page.evaluate(() => location.hash), /refresh=5s/);
    // Editing: the next tick waits and says why.
    const during = await lastRunId(page);
    await page.locator('.cm-content').press('End');
    await page.keyboard.type(' ');
    await page.waitForFunction(() => /paused: the query is being edited/.test(document.querySelector('.refresh-state')?.textContent ?? ''), undefined, { timeout: 8_000 });
    assert.equal(await lastRunId(page), during);
    await page.selectOption('#refresh', '0');
  });

  it('a reload restores the query, its range and the refresh from the URL, and runs it', async () => {
    await page.selectOption('#range', '1h');
    await page.waitForFunction(() => window.svcLastRun?.query.includes('+1h)') === true);
    await page.selectOption('#refresh', '30');
    const hash = await page.evaluate(() => location.hash);
    const text = await page.locator('.cm-content').innerText();
    await page.reload();
    await page.waitForFunction(() => window.svcLastRun?.ok === true);
    assert.equal(await page.evaluate(() => location.hash.includes('range=1h')), true);
    assert.equal(await page.inputValue('#range'), '1h');
    assert.equal(await page.inputValue('#refresh'), '30');
    // The same query, its range at the time of the new run.
    assert.equal((await page.locator('.cm-content').innerText()).replace(/RANGE\([^,]+,/, 'RANGE(…,'), text.replace(/RANGE\([^,]+,/, 'RANGE(…,'));
    assert.ok(hash.includes('GROUP+BY+1min%2C+region'));
    await page.selectOption('#refresh', '0');
    await page.selectOption('#range', '');
  });

  it('downloads the table as CSV equal to it, and the chart as a PNG', async () => {
    await runQuery(page, `SELECT temp, hum, site FROM sensors.room2 IN RANGE(${startIso}, 10min)`);
    await page.click('#downloads summary');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
    const lines = (await readFile((await csv.path())!, 'utf8')).split('\r\n').filter((l) => l !== '');
    assert.deepEqual(lines[0]!.split(','), await page.$$eval('.grid-head .grid-cell', (cs) => cs.map((c) => c.textContent ?? '')));
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')), await gridRows(page));
    assert.equal(lines.length, 11);
    await page.click('#downloads summary');
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#download-png')]);
    assert.match(png.suggestedFilename(), /\.png$/);
    assert.equal((await readFile((await png.path())!)).subarray(1, 4).toString(), 'PNG');
  });

  it('Parquet and CSV of any size go through /api/export, disabled with a reason while the server lacks it', async () => {
    const hasExport = (await request(server.base, 'GET', '/api/export?format=csv')).status !== 404;
    await page.click('#downloads summary');
    await page.waitForFunction(() => document.querySelector('#export-parquet')?.getAttribute('title') !== null);
    const title = (await page.getAttribute('#export-parquet', 'title'))!;
    if (hasExport) {
      assert.equal(await page.isDisabled('#export-parquet'), false);
    } else {
      await page.waitForFunction(() => (document.querySelector('#export-parquet') as HTMLButtonElement).disabled && /404/.test(document.querySelector('#export-parquet')!.getAttribute('title')!));
      assert.match(title + (await page.getAttribute('#export-parquet', 'title'))!, /\/api\/export/);
    }
    await screenshot(page, '09-downloads');
    await page.click('#downloads summary');
  });

  it('sorts by a column header; numbers to their precision with the exact value on hover', async () => {
    await runQuery(page, `SELECT avg(temp) FROM sensors.room1 IN RANGE(${startIso}, 6h) GROUP BY 1h`);
    const header = page.locator('.grid-head .grid-cell', { hasText: 'avg(temp)' });
    const values = async (): Promise<number[]> => (await gridRows(page)).map((r) => Number(r[1]));
    await header.click();
    const asc = await values();
    assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
    await header.click();
    const desc = await values();
    assert.deepEqual(desc, [...asc].reverse());
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    const shown = await gridRows(page, 'text');
    const exact = await gridRows(page);
    shown.forEach((r, i) => assert.ok(Math.abs(Number(r[1]) - Number(exact[i]![1])) < 1e-6, `${r[1]} shows ${exact[i]![1]}`));
    assert.equal(new Set(shown.map((r) => r[1]!.split('.')[1]?.length ?? 0)).size, 1, 'one precision for the column');
  });

  it('says "no rows" when the query matches nothing', async () => {
    await runQuery(page, 'SELECT temp FROM sensors.room1 IN RANGE(2001, +1d)');
    assert.match(await page.locator('.grid-empty').innerText(), /No rows/);
    assert.equal(await page.locator('.chart').isHidden(), true);
  });

  it('shows a BOOLEAN column written through line protocol: true/false in the grid, a 1/0 series on the chart', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `doors,room=hall open=${i % 3 === 0 ? 'f' : 't'} ${Date.parse(startIso) / 1000 + i * 60}`).join('\n');
    assert.equal((await request(server.base, 'POST', '/write?precision=s', { body: lines })).status, 204);
    const query = `SELECT open FROM doors IN RANGE(${startIso}, 1h)`;
    await runQuery(page, query);
    await page.waitForSelector('.chart[data-drawn]');
    const expected = await apiRows(server, query);
    assert.deepEqual(expected.map((r) => r[1]), ['false', 'true', 'true', 'false', 'true', 'true', 'false', 'true', 'true', 'false', 'true', 'true']);
    assert.deepEqual(await gridRows(page), expected);
    assert.equal(await page.evaluate(() => window.svcLastRun!.seriesCount), 1);
    await screenshot(page, '10-boolean');
  });

  it('draws one series per column and per source table', async () => {
    await runQuery(page, `SELECT temp, hum FROM sensors.room1, sensors.room2 IN RANGE(${startIso}, 6h)`);
    await page.waitForSelector('.chart[data-drawn]');
    assert.equal(await page.evaluate(() => window.svcLastRun!.seriesCount), 4);
    const labels = await page.$$eval('.u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(labels.slice(1), ['sensors.room1: temp', 'sensors.room1: hum', 'sensors.room2: temp', 'sensors.room2: hum']);
    assert.equal(await page.locator('.grid').getAttribute('aria-rowcount'), '720');
    await screenshot(page, '11-two-tables');
  });

  it('lists the tables beside the editor; a click puts a name in the query', async () => {
    await page.waitForSelector('.table-list [data-table="cpu"]');
    await page.locator('.cm-content').fill('SELECT * FROM ');
    await page.locator('.cm-content').press('End');
    await page.locator('.table-list [data-table="sensors.room1"] .table-name').click();
    assert.equal(await page.locator('.cm-content').innerText(), 'SELECT * FROM sensors.room1');
  });

  it('saves a query under a name and opens it again', async () => {
    await page.locator('.cm-content').fill('SELECT max(hum) FROM sensors.room1');
    await page.click('#save-query');
    await page.fill('#save-name', 'humidity peak');
    await page.click('#save-dialog button[value=save]');
    await page.locator('.cm-content').fill('');
    await page.reload();
    await page.waitForSelector('body[data-view=console]');
    const before = await lastRunId(page);
    await page.selectOption('#saved', { label: 'humidity peak' });
    await nextRun(page, before);
    assert.equal(await page.locator('.cm-content').innerText(), 'SELECT max(hum) FROM sensors.room1');
    assert.match(await page.locator('#history').innerText(), /History \(\d+ queries\)/);
  });

  it('lists every function of the engine in its help, with examples on these tables; Try runs one', async () => {
    await page.click('#help-toggle');
    await page.waitForSelector('.help:not([hidden])');
    const listed = await page.$$eval('.help [data-function]', (rows) => rows.map((r) => r.getAttribute('data-function')));
    assert.deepEqual(listed, FUNCTION_DOCS.map((f) => f.name));
    await page.waitForFunction(() => /Examples run on your table/.test(document.querySelector('.help-note')?.textContent ?? ''));
    const example = await page.locator('.help-clause .help-example code').first().innerText();
    assert.doesNotMatch(example, /\bFROM t\b/);
    const before = await lastRunId(page);
    await page.locator('.help-clause .try').first().click();
    await nextRun(page, before);
    assert.equal(await page.locator('.cm-content').innerText(), example);
    assert.ok(await page.evaluate(() => window.svcLastRun!.rows > 0));
    await screenshot(page, '12-help');
    await page.click('#help-toggle');
  });

  it('marks a bad query at the position the server reports', async () => {
    const query = 'SELECT avg(temp) FROM sensors.room1 WHERE nope > 1';
    await runQuery(page, query);
    const position = Number(await page.locator('.run-error').getAttribute('data-position'));
    assert.equal(position, query.indexOf('nope'));
    assert.equal(await page.locator('.cm-svc-error').innerText(), 'nope');
    assert.match(await page.locator('.run-error').innerText(), /nope/);
    // A GROUP BY column the console selected shifts the server's position: the mark still fits.
    const grouped = 'SELECT avg(nope) FROM sensors.room1 GROUP BY 1h, site';
    await runQuery(page, grouped);
    assert.equal(await page.locator('.cm-svc-error').innerText(), 'nope');
    await screenshot(page, '13-error');
  });

  it('completes table names from the server', async () => {
    await page.locator('.cm-content').fill('SELECT * FROM sensors.ro');
    await page.locator('.cm-content').press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete');
    const options = await page.$$eval('.cm-tooltip-autocomplete li', (ls) => ls.map((l) => l.textContent ?? ''));
    assert.ok(options.some((o) => o.startsWith('sensors.room1')), options.join(', '));
    await page.keyboard.press('Escape');
  });

  it('scrolls 100,000 rows with only the rows in view in the page', async () => {
    await runQuery(page, 'SELECT v FROM metrics.big');
    assert.equal(await page.locator('.grid').getAttribute('aria-rowcount'), '100000');
    await page.$eval('.grid', (g) => { g.scrollTop = g.scrollHeight; });
    await page.waitForSelector('.grid-row[aria-rowindex="100000"]');
    const lastRow = await page.$$eval('.grid-row[aria-rowindex="100000"] .grid-cell', (cs) => cs.map((c) => c.textContent));
    assert.equal(lastRow[1], '99999');
    assert.ok(await page.locator('.grid-body .grid-row').count() < 100);
    await screenshot(page, '14-100k-rows');
  });

  it('shows a table (columns, rows, bounds) and opens the console from the overview', async () => {
    await page.keyboard.press('Alt+2');
    await page.waitForSelector('body[data-view=browse]');
    await page.locator('#tables-list .item', { hasText: 'sensors.room2' }).click();
    await page.waitForSelector('.table-stats');
    assert.match(await page.locator('.table-stats').innerText(), /^360 rows/);
    await screenshot(page, '15-table');
    await page.click('#tables-overview-button');
    const row = page.locator('#tables-overview tr', { hasText: 'sensors.room2' });
    await page.waitForFunction(() => [...document.querySelectorAll('#tables-overview tr')].some((r) => r.children[2]?.textContent === '360'));
    const before = await lastRunId(page);
    await row.getByRole('button', { name: 'sensors.room2' }).click();
    await page.waitForSelector('body[data-view=console]');
    await nextRun(page, before);
    const text = await page.locator('.cm-content').innerText();
    assert.match(text, /GROUP BY 1h/);
    assert.match(text, /RANGE\(now, -1d\)/);
    assert.equal(await page.evaluate(() => window.svcLastRun!.rows), 6);
  });

  it('previews blobs: JSON pretty-printed, an image, a hex dump; download link carries the token', async () => {
    await page.click('#tab-browse');
    await page.fill('#prefix', 'docs/');
    await page.waitForFunction(() => [...document.querySelectorAll('#entries-list .item')].map((i) => i.textContent).join() === 'docs/readme.json');
    await page.locator('#entries-list .item', { hasText: 'docs/readme.json' }).click();
    await page.waitForSelector('#blob-preview[data-kind=json] pre');
    assert.match(await page.locator('#blob-preview pre').innerText(), /\n {2}"name": "svc",\n/);
    const href = (await page.getByRole('link', { name: 'Download' }).getAttribute('href'))!;
    const download = await request(server.base, 'GET', href);
    assert.equal(download.status, 200);
    assert.match(String(download.headers['content-disposition']), /attachment/);
    await page.fill('#prefix', 'images/');
    await page.locator('#entries-list .item', { hasText: 'images/checker.png' }).click();
    await page.waitForSelector('#blob-preview[data-kind=image] img');
    await page.waitForFunction(() => (document.querySelector('#blob-preview img') as HTMLImageElement | null)?.naturalWidth === 64);
    await page.fill('#prefix', 'bin/');
    await page.locator('#entries-list .item', { hasText: 'bin/random.bin' }).click();
    await page.waitForSelector('#blob-preview[data-kind=hex] pre');
    assert.match(await page.locator('#blob-preview pre').innerText(), /^00000000 {2}00 01 02 fa fb fc 07 08 09 0a/);
    await screenshot(page, '16-blob-hex');
  });

  it('pages through entries by prefix', async () => {
    await page.fill('#prefix', 'logs/');
    await page.waitForFunction(() => document.querySelectorAll('#entries-list .item').length === 50 && document.querySelector('#entries-list .item')?.textContent === 'logs/00.txt');
    assert.equal(await page.locator('.pager .muted').innerText(), '1–50');
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.waitForFunction(() => document.querySelector('#entries-list .item')?.textContent === 'logs/50.txt');
    assert.equal(await page.locator('#entries-list .item').count(), 10);
    assert.ok(await page.getByRole('button', { name: 'Next ›' }).isDisabled());
    await page.locator('#entries-list .item', { hasText: 'logs/59.txt' }).click();
    await page.waitForSelector('#blob-preview[data-kind=text] pre');
    assert.equal(await page.locator('#blob-preview pre').innerText(), 'line 59\n');
    await page.getByRole('button', { name: '‹ Previous' }).click();
    await page.waitForFunction(() => document.querySelector('#entries-list .item')?.textContent === 'logs/00.txt');
  });

  it('browses a tag and its entries', async () => {
    await page.locator('#tags-list .item', { hasText: 'sensors' }).click();
    await page.waitForSelector('#tag-entries .item');
    assert.deepEqual(await page.$$eval('#tag-entries .item', (is) => is.map((i) => i.textContent)), ['docs/readme.json', 'sensors.room1', 'sensors.room2']);
  });

  it('shows svc\'s own figures on the Cluster page: ingest and query rates, memory budget, free disk', async () => {
    await page.click('#tab-cluster');
    await page.waitForFunction(() => /liveness: up · readiness: up/.test(document.querySelector('#probes')?.textContent ?? ''));
    await page.waitForFunction(() => /^status: stable · nodes: /.test(document.querySelector('#cluster-status')?.textContent ?? ''));
    // Rows written between two readings show as a rate.
    const write = setInterval(() => void request(server.base, 'POST', '/write?precision=s', { body: Array.from({ length: 500 }, (_, i) => `load v=${i} ${cpuStart + i}`).join('\n') }), 200);
    try {
      await page.waitForFunction(() => /^[\d,.]+ rows\/s$/.test(document.querySelector('#ingest-rate')?.textContent ?? '') && !/^0\.00 /.test(document.querySelector('#ingest-rate')!.textContent!), undefined, { timeout: 15_000 });
    } finally {
      clearInterval(write);
    }
    assert.match(await page.locator('#query-rate').innerText(), /^[\d,.]+ \/s$/);
    assert.match(await page.locator('#memory-budget').innerText(), /^\d+%$/);
    assert.match(await page.locator('#disk-free').innerText(), /^[\d.]+ GiB$/);
    assert.equal(await page.locator('#replication').isHidden(), true, 'one node: no replication lag to show');
    await screenshot(page, '17-cluster');
  });

  it('goes back to sign-in on a 401', async () => {
    // A forged token: with security off the bridge ignores tokens, the token routes still check them.
    await page.evaluate(() => sessionStorage.setItem('svc.token', 'not-a-token'));
    await page.reload();
    await page.waitForSelector('body[data-view=sign-in]');
    assert.match(await page.locator('.sign-in-message').innerText(), /Signed out/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.token')), null);
  });

  it('follows a dark system theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const [r, g, b] = (await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g)!.map(Number);
    assert.ok(r! + g! + b! < 150, `dark background, got rgb(${r}, ${g}, ${b})`);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('fits a narrow window', async () => {
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
    await page.setViewportSize({ width: 420, height: 800 });
    await runQuery(page, `SELECT avg(temp) FROM sensors.room1 IN RANGE(${startIso}, 6h) GROUP BY 1h`);
    await page.waitForSelector('.chart[data-drawn]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal page scroll (${overflow}px)`);
    await screenshot(page, '18-narrow');
    await page.emulateMedia({ colorScheme: 'dark' });
    await runQuery(page, `SELECT temp, hum FROM sensors.room1, sensors.room2 IN RANGE(${startIso}, 6h)`);
    await page.waitForSelector('.chart[data-drawn]');
    await screenshot(page, '19-narrow-dark');
  });

  it('logged no console error on the whole walk; only the answers it provoked failed', () => {
    assert.deepEqual(seen.errors, []);
    // The bad query (400), the forged token (401) and, while this server has no /api/export, its probe (404).
    const provoked = new Set(['/query_exp', '/api/option/parallelism', '/api/export']);
    assert.deepEqual([...seen.failedPaths].filter((p) => !provoked.has(p)), []);
  });
});

describe('help examples on a fresh server with line-protocol data', { skip: missing ?? false }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startDashboardServer();
    const r = await request(server.base, 'POST', '/write?precision=s', { body: lineProtocol(Math.floor(Date.now() / 1000) - 3600) });
    assert.equal(r.status, 204);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('every Try returns rows', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: TIMEZONE })).newPage();
    const seen = consoleErrors(page);
    await page.goto(server.base);
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
    await page.click('#help-toggle');
    await page.waitForFunction(() => /Examples run on your table cpu/.test(document.querySelector('.help-note')?.textContent ?? ''));
    const tries = page.locator('.help .try');
    const count = await tries.count();
    assert.equal(count, FUNCTION_DOCS.length + await page.locator('.help-clause').count());
    const empty: string[] = [];
    for (let i = 0; i < count; i++) {
      assert.equal(await tries.nth(i).isDisabled(), false, `Try ${i} is enabled`);
      const before = await lastRunId(page);
      await tries.nth(i).click();
      await page.waitForFunction((id) => (window.svcLastRun?.id ?? 0) > id, before);
      const run = await page.evaluate(() => window.svcLastRun!);
      if (!run.ok || run.rows === 0) empty.push(`${run.query}: ${run.ok ? 'no rows' : await page.locator('.run-error').innerText()}`);
    }
    assert.deepEqual(empty, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual([...seen.failedPaths], []);
    await screenshot(page, '20-help-fresh-server');
  });
});
