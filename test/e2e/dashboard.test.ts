// The dashboard in a real browser (Debian's Chromium, headless, through playwright-core) against
// a server with seeded data: sign in, a GROUP BY query whose grid matches the API's answer and
// whose chart drew, zoom, blob previews, an error marked at its position, a tag browsed, and a
// 401 that returns to sign-in. Each step leaves a screenshot in test-output/e2e.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { request } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';
import { launchBrowser, missingPrerequisite, screenshot, seed, startDashboardServer } from './dashboard-page.js';
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';
import { CLAUSES } from '../../assets/src/help.js';

const missing = missingPrerequisite();
if (missing !== null) process.stderr.write(`dashboard e2e skipped: ${missing}\n`);

async function runQuery(page: Page, query: string): Promise<void> {
  const before = await page.evaluate(() => window.svcLastRun?.id ?? 0);
  await page.locator('.cm-content').fill(query);
  await page.locator('.cm-content').press('Control+Enter');
  await page.waitForFunction((id) => (window.svcLastRun?.id ?? 0) > id, before);
}

/** The grid's rendered rows as text cells (all rows fit in view for the small results here). */
async function gridRows(page: Page): Promise<string[][]> {
  return page.$$eval('.grid-body .grid-row', (rows) => rows
    .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
    .map((r) => [...r.querySelectorAll('.grid-cell')].map((c) => c.textContent ?? '')));
}

/** Pixels of the chart canvas that differ from its first pixel (the background). */
async function inkedPixels(page: Page): Promise<number> {
  return page.$eval('.chart canvas', (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2])) n++;
    return n;
  });
}

describe('dashboard in Chromium', { skip: missing ?? false }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let startIso: string;

  before(async () => {
    server = await startDashboardServer();
    ({ startIso } = await seed(server.server.db));
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in with empty credentials (security off)', async () => {
    await page.goto(server.base);
    await page.waitForSelector('#sign-in');
    await screenshot(page, '01-sign-in');
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
    assert.ok(await page.evaluate(() => sessionStorage.getItem('svc.token') !== null));
  });

  it('runs a GROUP BY query: the grid holds the API answer and the chart drew one series per column', async () => {
    const query = `SELECT avg(temp), max(hum) FROM sensors.room1 IN RANGE(${startIso}, 6h) GROUP BY 1h`;
    await runQuery(page, query);
    await page.waitForSelector('.chart[data-drawn]');
    const api = await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(query)}`);
    assert.equal(api.status, 200);
    const expected = (api.json().tables[0].results as unknown[][]).map((row) => row.map((v) => String(v)));
    assert.equal(expected.length, 6);
    assert.deepEqual(await gridRows(page), expected);
    assert.deepEqual(await page.$$eval('.grid-head .grid-cell', (cs) => cs.map((c) => c.textContent)), ['timestamp', 'avg(temp)', 'max(hum)']);
    const run = await page.evaluate(() => window.svcLastRun!);
    assert.equal(run.format, 'arrow');
    assert.equal(run.seriesCount, 2);
    assert.equal(await page.locator('.u-legend .u-series').count(), 3); // time + 2 series
    assert.ok(await inkedPixels(page) > 500, 'the chart canvas has lines on it');
    assert.match(await page.locator('.run-status').innerText(), /ms · [\d,]+ scanned · 6 rows in 1 table/);
    // The language mode: each kind of token gets its own class (and so its colour).
    const tokens = async (cls: string) => page.$$eval(`.cm-content .${cls}`, (es) => es.map((e) => e.textContent));
    assert.deepEqual(await tokens('tok-keyword'), ['SELECT', 'FROM', 'IN', 'RANGE', 'GROUP', 'BY']);
    assert.deepEqual(await tokens('tok-function'), ['avg', 'max']);
    assert.deepEqual(await tokens('tok-duration'), ['6h', '1h']);
    assert.deepEqual(await tokens('tok-time'), [startIso]);
    await screenshot(page, '02-group-by');
  });

  it('shows a BOOLEAN column written through line protocol: true/false in the grid, a 1/0 series on the chart', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `doors,room=hall open=${i % 3 === 0 ? 'f' : 't'} ${Date.parse(startIso) / 1000 + i * 60}`).join('\n');
    assert.equal((await request(server.base, 'POST', '/write?precision=s', { body: lines })).status, 204);
    const query = `SELECT open FROM doors IN RANGE(${startIso}, 1h)`;
    await runQuery(page, query);
    await page.waitForSelector('.chart[data-drawn]');
    const api = await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(query)}`);
    const expected = (api.json().tables[0].results as unknown[][]).map((row) => row.map((v) => String(v)));
    assert.deepEqual(expected.map((r) => r[1]), ['false', 'true', 'true', 'false', 'true', 'true', 'false', 'true', 'true', 'false', 'true', 'true']);
    assert.deepEqual(await gridRows(page), expected);
    assert.equal(await page.evaluate(() => window.svcLastRun!.seriesCount), 1);
    assert.ok(await inkedPixels(page) > 100, 'the boolean series is drawn');
    await screenshot(page, '02b-boolean');
  });

  it('draws one series per column and per source table', async () => {
    await runQuery(page, `SELECT temp, hum FROM sensors.room1, sensors.room2 IN RANGE(${startIso}, 6h)`);
    await page.waitForSelector('.chart[data-drawn]');
    assert.equal(await page.evaluate(() => window.svcLastRun!.seriesCount), 4);
    const labels = await page.$$eval('.u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(labels.slice(1), ['sensors.room1: temp', 'sensors.room1: hum', 'sensors.room2: temp', 'sensors.room2: hum']);
    assert.equal(await page.locator('.grid').getAttribute('aria-rowcount'), '720');
    await screenshot(page, '03-two-tables');
  });

  it('zooms the chart by dragging', async () => {
    const before = await page.locator('.chart').getAttribute('data-x-range');
    const box = (await page.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction((b) => document.querySelector('.chart')?.getAttribute('data-x-range') !== b, before);
    const [min0, max0] = before!.split('..').map(Number);
    const [min1, max1] = (await page.locator('.chart').getAttribute('data-x-range'))!.split('..').map(Number);
    assert.ok(min1! > min0! && max1! < max0!, `zoomed in: ${before} → ${min1}..${max1}`);
    assert.ok((max1! - min1!) < (max0! - min0!) * 0.3);
    await screenshot(page, '04-zoomed');
  });

  it('lists every function of the engine in its help; an example goes to the editor; a join with FILL runs', async () => {
    await page.click('#help-toggle');
    await page.waitForSelector('.help:not([hidden])');
    // The help is built from the engine's registry: the same names, in the same order.
    const listed = await page.$$eval('.help [data-function]', (rows) => rows.map((r) => r.getAttribute('data-function')));
    assert.deepEqual(listed, FUNCTION_DOCS.map((f) => f.name));
    await screenshot(page, '02c-help');
    await page.locator('.help-clause .try').first().click();
    assert.equal(await page.locator('.cm-content').innerText(), CLAUSES[0].example);
    await page.click('#help-toggle');
    // New syntax highlighted and run: an ASOF JOIN of the two rooms, bucketed, filled.
    const query = `SELECT round(avg(sensors.room1.temp - sensors.room2.temp), 3) FROM sensors.room1 ASOF JOIN sensors.room2 IN RANGE(${startIso}, 8h) GROUP BY 1h FILL(PREV)`;
    await runQuery(page, query);
    const api = await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(query)}`);
    assert.equal(api.status, 200);
    const expected = (api.json().tables[0].results as unknown[][]).map((row) => row.map((v) => String(v)));
    assert.equal(expected.length, 8, 'FILL gives every hour of the range');
    assert.deepEqual(await gridRows(page), expected);
    const keywords = await page.$$eval('.cm-content .tok-keyword', (es) => es.map((e) => e.textContent));
    assert.ok(['ASOF', 'JOIN', 'FILL'].every((k) => keywords.includes(k)), `keywords: ${keywords.join(' ')}`);
    assert.deepEqual(await page.$$eval('.cm-content .tok-function', (es) => es.map((e) => e.textContent)), ['round', 'avg']);
  });

  it('marks a bad query at the position the server reports', async () => {
    const query = 'SELECT avg(temp) FROM sensors.room1 WHERE nope > 1';
    await runQuery(page, query);
    const position = Number(await page.locator('.run-error').getAttribute('data-position'));
    assert.equal(position, query.indexOf('nope'));
    assert.equal(await page.locator('.cm-svc-error').innerText(), 'nope');
    assert.match(await page.locator('.run-error').innerText(), /nope/);
    await screenshot(page, '05-error');
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
    await screenshot(page, '06-100k-rows');
  });

  it('shows a table (columns, rows, bounds) and opens the console from the overview', async () => {
    await page.keyboard.press('Alt+2');
    await page.waitForSelector('body[data-view=browse]');
    await page.locator('#tables-list .item', { hasText: 'sensors.room2' }).click();
    await page.waitForSelector('.table-stats');
    assert.match(await page.locator('.table-stats').innerText(), /^360 rows/);
    await screenshot(page, '07-table');
    await page.click('#tables-overview-button');
    const row = page.locator('#tables-overview tr', { hasText: 'sensors.room2' });
    await page.waitForFunction(() => [...document.querySelectorAll('#tables-overview tr')].some((r) => r.children[2]?.textContent === '360'));
    await screenshot(page, '08-tables-overview');
    await row.getByRole('button', { name: 'sensors.room2' }).click();
    await page.waitForSelector('body[data-view=console]');
    await page.waitForFunction(() => window.svcLastRun?.ok === true && window.svcLastRun.rows > 0);
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
    const pretty = await page.locator('#blob-preview pre').innerText();
    assert.match(pretty, /\n {2}"name": "svc",\n/);
    const href = (await page.getByRole('link', { name: 'Download' }).getAttribute('href'))!;
    const download = await request(server.base, 'GET', href);
    assert.equal(download.status, 200);
    assert.match(String(download.headers['content-disposition']), /attachment/);
    await screenshot(page, '09-blob-json');

    await page.fill('#prefix', 'images/');
    await page.locator('#entries-list .item', { hasText: 'images/checker.png' }).click();
    await page.waitForSelector('#blob-preview[data-kind=image] img');
    await page.waitForFunction(() => (document.querySelector('#blob-preview img') as HTMLImageElement | null)?.naturalWidth === 64);
    await screenshot(page, '10-blob-image');

    await page.fill('#prefix', 'bin/');
    await page.locator('#entries-list .item', { hasText: 'bin/random.bin' }).click();
    await page.waitForSelector('#blob-preview[data-kind=hex] pre');
    assert.match(await page.locator('#blob-preview pre').innerText(), /^00000000 {2}00 01 02 fa fb fc 07 08 09 0a/);
  });

  it('pages through entries by prefix', async () => {
    await page.fill('#prefix', 'logs/');
    await page.waitForFunction(() => document.querySelectorAll('#entries-list .item').length === 50 && document.querySelector('#entries-list .item')?.textContent === 'logs/00.txt');
    assert.equal(await page.locator('.pager .muted').innerText(), '1–50');
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.waitForFunction(() => document.querySelector('#entries-list .item')?.textContent === 'logs/50.txt');
    assert.equal(await page.locator('#entries-list .item').count(), 10);
    assert.equal(await page.locator('.pager .muted').innerText(), '51–60');
    assert.ok(await page.getByRole('button', { name: 'Next ›' }).isDisabled());
    await page.locator('#entries-list .item', { hasText: 'logs/59.txt' }).click();
    await page.waitForSelector('#blob-preview[data-kind=text] pre');
    assert.equal(await page.locator('#blob-preview pre').innerText(), 'line 59\n');
    await screenshot(page, '11-entries-page-2');
    await page.getByRole('button', { name: '‹ Previous' }).click();
    await page.waitForFunction(() => document.querySelector('#entries-list .item')?.textContent === 'logs/00.txt');
  });

  it('browses a tag and its entries', async () => {
    await page.locator('#tags-list .item', { hasText: 'sensors' }).click();
    await page.waitForSelector('#tag-entries .item');
    assert.deepEqual(await page.$$eval('#tag-entries .item', (is) => is.map((i) => i.textContent)), ['docs/readme.json', 'sensors.room1', 'sensors.room2']);
    await screenshot(page, '11-tag-sensors');
  });

  it('shows the cluster panel with what the server has', async () => {
    await page.click('#tab-cluster');
    await page.waitForFunction(() => /liveness: up · readiness: up/.test(document.querySelector('#probes')?.textContent ?? ''));
    await page.waitForFunction(() => /^status: stable · nodes: /.test(document.querySelector('#cluster-status')?.textContent ?? ''));
    await page.waitForFunction(() => /svc \d+\.\d+\.\d+/.test(document.querySelector('#node-info')?.textContent ?? ''));
    assert.match(await page.locator('.meters').innerText(), /GiB of [\d.]+ GiB[\s\S]*GiB of [\d.]+ GiB/);
    const sparkInk = await page.$eval('.meters canvas', (c) => {
      const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    assert.ok(sparkInk > 50, 'the memory sparkline drew');
    await screenshot(page, '12-cluster');
  });

  it('goes back to sign-in on a 401', async () => {
    // A forged token: with security off the bridge ignores tokens, the token routes still check them.
    await page.evaluate(() => sessionStorage.setItem('svc.token', 'not-a-token'));
    await page.reload();
    await page.waitForSelector('body[data-view=sign-in]');
    assert.match(await page.locator('.sign-in-message').innerText(), /Signed out/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.token')), null);
    await screenshot(page, '13-signed-out');
  });

  it('follows a dark system theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const [r, g, b] = (await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g)!.map(Number);
    assert.ok(r! + g! + b! < 150, `dark background, got rgb(${r}, ${g}, ${b})`);
    await screenshot(page, '14-dark-sign-in');
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
    await screenshot(page, '15-narrow');
    await page.emulateMedia({ colorScheme: 'dark' });
    await runQuery(page, `SELECT temp, hum FROM sensors.room1, sensors.room2 IN RANGE(${startIso}, 6h)`);
    await page.waitForSelector('.chart[data-drawn]');
    await screenshot(page, '16-narrow-dark');
  });
});
