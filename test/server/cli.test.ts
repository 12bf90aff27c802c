// The svc_rest command as users run it: usage, --version, exit 2 on unknown options and bad
// values, the ready line, the request log, and SIGTERM/SIGINT → finish in-flight, exit 0, data kept.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { request } from './helpers.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));
const PACKAGE = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
const dirs: string[] = [];
after(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'svc-cli-test-'));
  dirs.push(d);
  return d;
}

/** Env without the seed's HOST/PORT variables, which a developer's shell may set. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const k of ['HOST', 'PORT', 'SVC_DATA_DIR', 'SVC_DURABILITY', 'SVC_REST_LOG_FILE', 'SVC_MAX_IN_BUFFER_SIZE', 'SVC_PARALLELISM_COUNT']) if (!(k in extra)) delete env[k];
  return env;
}

function run(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv(env), timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('options', () => {
  test('-h and --help print the usage and exit 0', () => {
    for (const flag of ['-h', '--help']) {
      const r = run([flag]);
      assert.equal(r.status, 0);
      assert.match(r.stdout, /^usage: svc_rest/);
      for (const o of ['--local', '--host', '--port', '--data-dir', '--durability', '--log-file', '--max-in-buffer-size', '--version']) assert.ok(r.stdout.includes(o), o);
    }
  });
  test('--version prints the package version', () => {
    const r = run(['--version']);
    assert.equal(r.status, 0);
    assert.equal(r.stdout.trim(), `svc_rest ${PACKAGE.version}`);
  });
  const bad: { args: string[]; env?: Record<string, string>; message: RegExp; usage: boolean }[] = [
    { args: ['--bogus'], message: /unknown option.*--bogus/, usage: true },
    { args: ['-x'], message: /unknown option/, usage: true },
    { args: ['extra-argument'], message: /unknown option or argument: extra-argument/, usage: true },
    { args: ['--port', 'abc'], message: /--port must be an integer/, usage: false },
    { args: ['--port', '70000'], message: /--port must be an integer from 0 to 65535/, usage: false },
    { args: ['--durability', 'fast'], message: /--durability must be one of fsync, os, none/, usage: false },
    { args: ['--max-in-buffer-size', '0'], message: /--max-in-buffer-size must be an integer/, usage: false },
    { args: ['--max-in-buffer-size', '1e6'], message: /--max-in-buffer-size must be an integer/, usage: false },
    { args: ['--data-dir'], message: /--data-dir needs a value/, usage: false },
    { args: ['--port', '1', '--port', '2'], message: /more than once/, usage: false },
    { args: [], env: { SVC_MAX_IN_BUFFER_SIZE: 'lots' }, message: /--max-in-buffer-size must be an integer/, usage: false },
  ];
  for (const c of bad) {
    test(`${[...Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v}`), ...c.args].join(' ')} → exit 2`, () => {
      const r = run(c.args, c.env);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, c.message);
      assert.equal(r.stderr.includes('usage: svc_rest'), c.usage);
    });
  }
});

interface Child { base: string; stopped: Promise<number | null>; stderr(): string; kill(signal: NodeJS.Signals): void }

async function startCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Child> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--host', '127.0.0.1', ...args], { env: cleanEnv(options.env), cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^svc_rest listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m !== null) resolve(m[1]!);
    });
    void stopped.then((code) => reject(new Error(`exited ${code} before ready: ${stderr}`)));
  });
  return { base, stopped, stderr: () => stderr, kill: (s) => child.kill(s) };
}

describe('running', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} → exit 0; the data is there after a restart`, async () => {
      const dataDir = await tempDir();
      const first = await startCli(['--data-dir', dataDir, '--durability', 'fsync']);
      assert.equal((await request(first.base, 'POST', '/api/v1/blobs/kept', { body: 'still here' })).status, 201);
      first.kill(signal);
      assert.equal(await first.stopped, 0);
      const second = await startCli(['--data-dir', dataDir]);
      try {
        assert.equal((await request(second.base, 'GET', '/api/v1/blobs/kept/content')).text(), 'still here');
      } finally {
        second.kill('SIGTERM');
        assert.equal(await second.stopped, 0);
      }
    });
  }

  test('SIGTERM finishes a request that is in flight before exiting', async () => {
    const dataDir = await tempDir();
    const server = await startCli(['--data-dir', dataDir]);
    const url = new URL(server.base);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.on('connect', resolve));
    let answer = '';
    const closed = new Promise((resolve) => {
      socket.on('data', (d) => { answer += d; if (answer.includes('\r\n\r\n')) socket.destroy(); });
      socket.on('close', resolve);
    });
    socket.write('POST /api/v1/blobs/in-flight HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello');
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // write, not end: uWS closes a connection on a half-close (FIN) before answering.
    socket.write('world');
    await closed;
    assert.match(answer, /^HTTP\/1\.1 201 /);
    assert.equal(await server.stopped, 0);
    const again = await startCli(['--data-dir', dataDir]);
    try {
      assert.equal((await request(again.base, 'GET', '/api/v1/blobs/in-flight/content')).text(), 'helloworld');
    } finally {
      again.kill('SIGTERM');
      await again.stopped;
    }
  });

  test('one JSON log line per request on stderr and in --log-file, without tokens', async () => {
    const dataDir = await tempDir();
    const logFile = join(dataDir, 'svc_rest.log');
    const server = await startCli(['--data-dir', dataDir, '--log-file', logFile]);
    const login = await request(server.base, 'POST', '/api/login', { body: '{"username":"","secret_key":""}' });
    const token = login.json().token as string;
    await request(server.base, 'GET', `/api/option/parallelism?token=${token}`);
    await request(server.base, 'GET', '/api/option/parallelism', { headers: { Authorization: `Bearer ${token}` } });
    await request(server.base, 'GET', '/nowhere');
    server.kill('SIGTERM');
    assert.equal(await server.stopped, 0);
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => 'method' in l);
    assert.deepEqual(lines.map((l) => [l['method'], l['path'], l['status']]), [
      ['POST', '/api/login', 200], ['GET', '/api/option/parallelism', 200], ['GET', '/api/option/parallelism', 200], ['GET', '/nowhere', 404],
    ]);
    for (const l of lines) assert.equal(typeof l['ms'], 'number');
    const everything = (await readFile(logFile, 'utf8')) + server.stderr();
    assert.ok(!everything.includes(token), 'a token reached the log');
    assert.ok(server.stderr().includes('"path":"/nowhere"'));
  });
});

describe('defaults and precedence', () => {
  test('--local keeps data in ./data and the log in ./svc_rest.log', async () => {
    const cwd = await tempDir();
    const server = await startCli(['--local'], { cwd });
    assert.equal((await request(server.base, 'GET', '/api/status/readiness')).status, 200);
    server.kill('SIGTERM');
    assert.equal(await server.stopped, 0);
    await stat(join(cwd, 'data', 'jwt.key'));
    assert.match(await readFile(join(cwd, 'svc_rest.log'), 'utf8'), /"path":"\/api\/status\/readiness","status":200/);
  });
  test('command line over environment over default', async () => {
    const dataDir = await tempDir();
    const option = async (base: string): Promise<string> => {
      const token = (await request(base, 'POST', '/api/login', { body: '{}' })).json().token as string;
      return (await request(base, 'GET', '/api/option/max-in-buffer-size', { headers: { Authorization: `Bearer ${token}` } })).text();
    };
    const fromEnv = await startCli(['--data-dir', dataDir], { env: { SVC_MAX_IN_BUFFER_SIZE: '1234' } });
    assert.equal(await option(fromEnv.base), '1234');
    fromEnv.kill('SIGTERM');
    await fromEnv.stopped;
    const fromArgs = await startCli(['--data-dir', dataDir, '--max-in-buffer-size', '99'], { env: { SVC_MAX_IN_BUFFER_SIZE: '1234' } });
    assert.equal(await option(fromArgs.base), '99');
    fromArgs.kill('SIGTERM');
    await fromArgs.stopped;
  });
});
