// Runs the README's curl session (between the readme-session markers) with bash and curl against
// a fresh server, and compares each command's output with the lines the README shows under it.
// Editing either the README or the server so they disagree fails this test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

interface Step { readonly command: string; readonly expected: string }

async function readSession(): Promise<Step[]> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const m = /<!-- readme-session:start -->\n```console\n([\s\S]*?)```\n<!-- readme-session:end -->/.exec(readme);
  assert.ok(m !== null, 'README.md has no readme-session block');
  const steps: { command: string; output: string[] }[] = [];
  for (const line of m[1]!.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else if (line !== '' || steps.length > 0) steps.at(-1)!.output.push(line);
  }
  return steps.map((s) => ({ command: s.command, expected: s.output.join('\n').trimEnd() }));
}

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.stop(); });

test('the README session runs as shown', async () => {
  const steps = await readSession();
  assert.ok(steps.length >= 10);
  const script = steps.map((s, i) => `printf '\\n@@step %d@@\\n' ${i}\n${s.command}`).join('\n');
  // Asynchronously: the server under test runs in this process and must keep answering.
  const r = await promisify(execFile)('bash', ['-c', `${script}\nprintf '\\n@@step end@@\\n'`], { encoding: 'utf8', env: { ...process.env, SVC: t.base }, timeout: 60_000 });
  const parts = r.stdout.replaceAll('\r\n', '\n').split(/\n@@step (?:\d+|end)@@\n/);
  assert.equal(parts.length, steps.length + 2, r.stdout);
  steps.forEach((s, i) => {
    assert.equal(parts[i + 1]!.trimEnd(), s.expected, `$ ${s.command}`);
  });
});
