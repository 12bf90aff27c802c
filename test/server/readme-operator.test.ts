// Runs the README's operator session (between the readme-operator markers): svc_keygen, openssl
// for the certificate, `svc_rest --secure` as a child, the 308 of the plain port, login with curl
// over HTTPS, a refused key, and SIGTERM → exit 0. KEYS is a temporary directory and PORT/TLS_PORT
// are free ports, handed to the README's commands (and so to svc_rest) through the environment.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { readSession, runSession } from './readme-blocks.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
let keys: string;
after(async () => { if (keys !== undefined) await rm(keys, { recursive: true, force: true }); });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

test('the README operator session runs as shown', async () => {
  keys = await mkdtemp(join(tmpdir(), 'svc-readme-operator-'));
  const steps = await readSession('readme-operator');
  assert.ok(steps.some((s) => s.command.includes('--secure')));
  const env: NodeJS.ProcessEnv = { ...process.env, KEYS: keys, PORT: String(await freePort()), TLS_PORT: String(await freePort()) };
  for (const k of ['HOST', 'SVC_DATA_DIR', 'SVC_CLUSTER_PUBLIC_KEY_FILE', 'TLS_CERTIFICATE', 'TLS_PRIVATE_KEY', 'SVC_USERS_FILE']) delete env[k];
  await runSession(steps, { env, cwd: REPO, timeoutMs: 120_000 });
  // The secret key the session used never reached the log.
  const secret = JSON.parse(await readFile(join(keys, 'alice.key'), 'utf8')).secret_key as string;
  assert.ok(!(await readFile(join(keys, 'svc_rest.log'), 'utf8')).includes(secret));
});
