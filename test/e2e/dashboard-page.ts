// What the dashboard's end-to-end tests share: Debian's Chromium driven headless through
// playwright-core, a server publishing the built assets, seeded data, and screenshots written
// under test-output/e2e (git-ignored) for a person to look at.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../engine/index.js';
import { startTestServer } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ASSETS_DIR = fileURLToPath(new URL('../../../assets', import.meta.url));
export const SHOTS_DIR = fileURLToPath(new URL('../../../test-output/e2e', import.meta.url));

/** Why the browser tests cannot run here, or null when they can. */
export function missingPrerequisite(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (!existsSync(`${ASSETS_DIR}/dist/app.js`)) return 'assets/dist/app.js is missing (npm run build builds it)';
  return null;
}

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

export async function startDashboardServer(): Promise<TestServer> {
  return startTestServer({ assetsDir: ASSETS_DIR });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SHOTS_DIR, { recursive: true });
  const path = `${SHOTS_DIR}/${name}.png`;
  await page.screenshot({ path });
  return path;
}

const MINUTE_NS = 60_000_000_000n;
const HOUR_MS = 3_600_000;

/** A 64×64 red/blue checker PNG (a real image for the preview). */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAl0lEQVR4nO3PMQ2AQBQE0VOCklOCYkQgBgP8gmqYZJItp9i3jvN63b336/7Wr78dCkAfCkAfCkAf+gywHJ36AHQfgO4D0L0fYDk69QHoPgDdB6B7P8BydOoD0H0Aug9A936A5ejUB6D7AHQfgO79AMvRqQ9A9wHoPgDd+wGWo1MfgO4D0H0AuvcDLEenPgDdB6D7AHSvBzwJn6EtgDh79AAAAABJRU5ErkJggg==';

/**
 * Two tables of six hours of minute rows (and one of 100,000 rows) ending at the last full hour (so "the last day" holds
 * them), a JSON blob, a PNG blob, a binary blob, and the tag `sensors` on three of them.
 * Returns the first row's time (an hour boundary) as an ISO string.
 */
export async function seed(db: Database): Promise<{ startIso: string }> {
  const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const start = end - 6 * HOUR_MS;
  for (const [table, phase] of [['sensors.room1', 0], ['sensors.room2', 1.3]] as const) {
    await db.createTable(table, [{ name: 'temp', type: 'DOUBLE' }, { name: 'hum', type: 'INT64' }, { name: 'site', type: 'SYMBOL' }]);
    const n = 360;
    const ts = new BigInt64Array(n);
    const temp = new Float64Array(n);
    const hum = new BigInt64Array(n);
    const site: string[] = [];
    for (let i = 0; i < n; i++) {
      ts[i] = BigInt(start) * 1_000_000n + BigInt(i) * MINUTE_NS;
      temp[i] = Math.round((20 + 5 * Math.sin(i / 40 + phase)) * 100) / 100;
      hum[i] = BigInt(40 + (i % 17));
      site.push(i % 2 === 0 ? 'north' : 'south');
    }
    await db.insert(table, { $timestamp: ts, temp, hum, site });
  }
  // A 100,000-row table for the grid's virtual scrolling.
  const big = 100_000;
  const bigTs = new BigInt64Array(big);
  const bigV = new Float64Array(big);
  for (let i = 0; i < big; i++) { bigTs[i] = BigInt(start) * 1_000_000n + BigInt(i) * 100_000_000n; bigV[i] = i; }
  await db.createTable('metrics.big', [{ name: 'v', type: 'DOUBLE' }]);
  await db.insert('metrics.big', { $timestamp: bigTs, v: bigV });
  await db.createBlob('docs/readme.json', JSON.stringify({ name: 'svc', tables: ['sensors.room1', 'sensors.room2'], ok: true }), { expiry: 0 });
  await db.createBlob('images/checker.png', Buffer.from(PNG_BASE64, 'base64'), { expiry: 0 });
  await db.createBlob('bin/random.bin', Buffer.from([0, 1, 2, 250, 251, 252, 7, 8, 9, 10]), { expiry: 0 });
  // 60 small blobs: more than one page (50) of entries under one prefix.
  for (let i = 0; i < 60; i++) await db.createBlob(`logs/${String(i).padStart(2, '0')}.txt`, `line ${i}\n`, { expiry: 0 });
  for (const alias of ['sensors.room1', 'sensors.room2', 'docs/readme.json']) await db.attachTag(alias, 'sensors');
  return { startIso: new Date(start).toISOString() };
}

/** What the page records about its last run (`window.svcLastRun`, declared there). */
export type { RunRecord } from '../../assets/src/console-view.js';
