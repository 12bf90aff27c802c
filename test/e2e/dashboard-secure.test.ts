// The dashboard's sign-in with security on: empty credentials are refused with the server's
// message, a pasted key file signs in, a dropped key file signs in, and with a token the bridge
// routes work from the page (they need it once security is on).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { newClusterKeys, newUserKeys, signUsers } from '../../server/auth/user-keys.js';
import { startTestServer } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';
import { ASSETS_DIR, launchBrowser, missingPrerequisite, screenshot, seed } from './dashboard-page.js';

const missing = missingPrerequisite();

describe('dashboard sign-in with security on', { skip: missing ?? false }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let keysDir: string;
  let keyFile: string;

  before(async () => {
    keysDir = await mkdtemp(join(tmpdir(), 'svc-e2e-keys-'));
    const cluster = newClusterKeys();
    const alice = newUserKeys();
    await writeFile(join(keysDir, 'cluster_public.key'), cluster.publicPem);
    await writeFile(join(keysDir, 'users.json'), JSON.stringify(signUsers({ alice: alice.publicKey }, cluster.privatePem)));
    keyFile = JSON.stringify({ username: 'alice', secret_key: alice.secretKey });
    server = await startTestServer({ assetsDir: ASSETS_DIR, clusterPublicKeyFile: join(keysDir, 'cluster_public.key'), usersFile: join(keysDir, 'users.json') });
    await seed(server.server.db);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await rm(keysDir, { recursive: true, force: true });
  });

  it('refuses empty credentials with the server\'s message', async () => {
    await page.goto(server.base);
    await page.click('#sign-in');
    await page.waitForFunction(() => (document.querySelector('.sign-in-message')?.textContent ?? '') !== '');
    assert.equal(await page.evaluate(() => document.body.dataset['view']), 'sign-in');
    await screenshot(page, 'secure-01-refused');
  });

  it('signs in with a pasted key file and then reads data', async () => {
    await page.fill('#key-file', keyFile);
    assert.equal(await page.inputValue('#username'), 'alice');
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
    await page.locator('.cm-content').fill('SELECT max(hum) FROM sensors.room1');
    await page.locator('.cm-content').press('Control+Enter');
    await page.waitForFunction(() => window.svcLastRun?.ok === true);
    assert.equal(await page.locator('.grid-body .grid-row .grid-cell').nth(1).innerText(), '56');
    await screenshot(page, 'secure-02-signed-in');
  });

  it('signs in with a dropped key file', async () => {
    await page.click('#sign-out');
    await page.waitForSelector('body[data-view=sign-in]');
    const dataTransfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'alice.key', { type: 'application/json' }));
      return dt;
    }, keyFile);
    await page.dispatchEvent('form.sign-in', 'drop', { dataTransfer });
    await page.waitForFunction(() => (document.querySelector('#username') as HTMLInputElement).value === 'alice');
    await page.click('#sign-in');
    await page.waitForSelector('body[data-view=console]');
  });
});
