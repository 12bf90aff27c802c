// Runs the README's curl session (between the readme-session markers) with bash and curl against
// a fresh server, and compares each command's output with the lines the README shows under it.
// Editing either the README or the server so they disagree fails this test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { readSession, runSession } from './readme-blocks.js';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.stop(); });

test('the README session runs as shown', async () => {
  const steps = await readSession('readme-session');
  assert.ok(steps.length >= 10);
  await runSession(steps, { env: { ...process.env, SVC: t.base } });
});
