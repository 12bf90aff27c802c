// The option table end to end: precedence command line > environment > config file > defaults
// (table-driven, through parseCli), --local and --secure defaults, --allowed-origins lists, each
// invalid config file exiting 2 with the key or line named, --gen-config output that starts the
// server unchanged, -i driven through stdin, TLS files missing → exit 2, SIGHUP reopening the log.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { defaults, parseCli } from '../../server/options.js';
import type { Config } from '../../server/options.js';
import { generate } from 'selfsigned';
import { request } from './helpers.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));
const ENV_NAMES = ['HOST', 'PORT', 'TLS_PORT', 'TLS_CERTIFICATE', 'TLS_PRIVATE_KEY', 'SVC_CLUSTER_URI', 'SVC_CLUSTER_PUBLIC_KEY_FILE', 'SVC_USERS_FILE', 'SVC_DATA_DIR', 'SVC_DURABILITY', 'SVC_REST_LOG_FILE', 'SVC_REST_ASSETS_DIR', 'SVC_MAX_IN_BUFFER_SIZE', 'SVC_PARALLELISM_COUNT'];
const dirs: string[] = [];
after(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'svc-config-test-'));
  dirs.push(d);
  return d;
}
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ENV_NAMES) delete env[k];
  return { ...env, ...extra };
}
function run(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv(options.env), input: options.input, cwd: options.cwd, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
function served(args: string[], env: Record<string, string> = {}): Config {
  const c = parseCli(args, cleanEnv(env));
  assert.equal(c.kind, 'serve');
  return (c as { config: Config }).config;
}

describe('precedence: command line > environment > config file > defaults', () => {
  let file: string;
  const cases: { name: string; args: (f: string) => string[]; env?: Record<string, string>; expect: Partial<Config> }[] = [
    { name: 'defaults', args: () => [], expect: { port: 40080, tls_port: 40493, host: 'localhost', cluster_uri: 'svc://127.0.0.1:2836', log: '/var/log/svc/svc_rest.log', assets: '/var/lib/svc/assets', data_dir: '/var/lib/svc/data', allowed_origins: [], cluster_public_key_file: '', tls_certificate: '' } },
    { name: 'file over defaults', args: (f) => ['--config-file', f], expect: { port: 1111, host: '0.0.0.0', allowed_origins: ['http://file.example'], parallelism_count: 3 } },
    { name: 'environment over file', args: (f) => ['--config-file', f], env: { PORT: '2222', SVC_PARALLELISM_COUNT: '4' }, expect: { port: 2222, host: '0.0.0.0', parallelism_count: 4 } },
    { name: 'command line over environment', args: (f) => ['--config-file', f, '--port', '3333', '-c', 'svc://10.0.0.2:9999'], env: { PORT: '2222', SVC_CLUSTER_URI: 'svc://env:1' }, expect: { port: 3333, cluster_uri: 'svc://10.0.0.2:9999', host: '0.0.0.0' } },
    { name: '--local defaults', args: () => ['--local'], expect: { log: 'svc_rest.log', assets: 'assets', data_dir: './data', cluster_public_key_file: '' } },
    { name: '--secure defaults', args: () => ['-s'], expect: { cluster_public_key_file: '/usr/share/svc/cluster_public.key', tls_certificate: '/etc/svc/svc_rest.cert.pem', tls_key: '/etc/svc/svc_rest.key.pem', users_file: '/etc/svc/users.json' } },
    { name: 'a file value beats --secure\'s default', args: (f) => ['--secure', '--config-file', f], expect: { tls_certificate: '/from/file.pem', tls_key: '/etc/svc/svc_rest.key.pem' } },
    { name: '--allowed-origins comma-separated and repeated', args: () => ['--allowed-origins', 'http://a,http://b', '--allowed-origins', '*'], expect: { allowed_origins: ['http://a', 'http://b', '*'] } },
    { name: 'every env variable of the seed', args: () => [], env: { TLS_PORT: '1', TLS_CERTIFICATE: 'c', TLS_PRIVATE_KEY: 'k', SVC_CLUSTER_PUBLIC_KEY_FILE: 'p', SVC_REST_LOG_FILE: 'l', SVC_REST_ASSETS_DIR: 'a', HOST: 'h', SVC_USERS_FILE: 'u' }, expect: { tls_port: 1, tls_certificate: 'c', tls_key: 'k', cluster_public_key_file: 'p', log: 'l', assets: 'a', host: 'h', users_file: 'u' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      file ??= await (async () => {
        const f = join(await tempDir(), 'config.json');
        await writeFile(f, JSON.stringify({ port: 1111, host: '0.0.0.0', allowed_origins: ['http://file.example'], parallelism_count: 3, tls_certificate: '/from/file.pem' }));
        return f;
      })();
      const config = served(c.args(file), c.env);
      for (const [k, v] of Object.entries(c.expect)) assert.deepEqual(config[k as keyof Config], v, k);
    });
  }
});

describe('Windows spelling: / instead of - or --', () => {
  test('/port 81 /l /allowed-origins=* on win32; untouched elsewhere', () => {
    const c = parseCli(['/port', '81', '/l', '/allowed-origins=*', '--host', '/not-an-option'], cleanEnv(), 'win32');
    assert.equal(c.kind, 'serve');
    const config = (c as { config: Config }).config;
    assert.deepEqual([config.port, config.data_dir, config.allowed_origins, config.host], [81, './data', ['*'], '/not-an-option']);
    assert.throws(() => parseCli(['/port', '81'], cleanEnv(), 'linux'), /unknown option or argument: \/port/);
  });
});

describe('an invalid config exits 2 naming the key or the line', () => {
  const cases: { name: string; text: string; message: RegExp }[] = [
    { name: 'unknown key', text: '{"port": 1, "prot": 2}', message: /unknown key "prot"/ },
    { name: 'port as a string', text: '{"port": "80"}', message: /key "port" must be an integer/ },
    { name: 'port out of range', text: '{"tls_port": 70000}', message: /key "tls_port" must be an integer from 0 to 65535/ },
    { name: 'origins not a list', text: '{"allowed_origins": "http://a"}', message: /key "allowed_origins" must be an array of strings/ },
    { name: 'durability unknown', text: '{"durability": "fast"}', message: /key "durability" must be one of fsync, os, none/ },
    { name: 'host a number', text: '{"host": 1}', message: /key "host" must be a string/ },
    { name: 'bad JSON', text: '{\n  "port": 1,\n  "host": "x"\n  "log": ""\n}', message: /invalid JSON at line 4/ },
    { name: 'not an object', text: '[1]', message: /must be a JSON object/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const f = join(await tempDir(), 'bad.json');
      await writeFile(f, c.text);
      const r = run(['--config-file', f]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, c.message);
      assert.ok(r.stderr.includes(f), 'the message names the file');
    });
  }
  test('a config file that is not there', async () => {
    const r = run(['--config-file', join(await tempDir(), 'missing.json')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read it \(ENOENT\)/);
  });
});

describe('TLS and security files', () => {
  const cases: { name: string; args: (d: string) => string[]; message: RegExp }[] = [
    { name: 'missing certificate', args: (d) => ['--tls-certificate', join(d, 'none.pem'), '--tls-key', join(d, 'k.pem')], message: /TLS certificate .*none\.pem: no such file/ },
    { name: 'certificate without key', args: (d) => ['--tls-certificate', join(d, 'c.pem')], message: /TLS needs both a certificate and a key/ },
    { name: 'a certificate that is not PEM', args: (d) => ['--tls-certificate', join(d, 'junk.pem'), '--tls-key', join(d, 'junk.pem')], message: /junk\.pem: not a PEM certificate/ },
    { name: 'a key that is not the certificate\'s', args: (d) => ['--tls-certificate', join(d, 'c.pem'), '--tls-key', join(d, 'other.pem')], message: /other\.pem is not the key of the certificate/ },
    { name: 'a cluster URI without a host', args: () => ['--cluster', 'nonsense'], message: /cluster URI 'nonsense' is not a URI/ },
    { name: '--secure with none of its files there', args: () => ['--secure'], message: /cluster public key file \/usr\/share\/svc\/cluster_public\.key: no such file/ },
    { name: 'cluster key without users file', args: (d) => ['--cluster-public-key-file', join(d, 'c.pem')], message: /no users file/ },
  ];
  for (const c of cases) {
    test(`${c.name} → exit 2`, async () => {
      const d = await tempDir();
      await writeFile(join(d, 'junk.pem'), 'hello');
      const one = await generate([{ name: 'commonName', value: 'localhost' }], { days: 1, keySize: 2048 } as never);
      const two = await generate([{ name: 'commonName', value: 'localhost' }], { days: 1, keySize: 2048 } as never);
      await writeFile(join(d, 'c.pem'), one.cert);
      await writeFile(join(d, 'other.pem'), two.private);
      const r = run(['--data-dir', join(d, 'data'), '--port', '0', '--host', '127.0.0.1', '--log-file', join(d, 'log'), ...c.args(d)]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, c.message);
    });
  }
});

/** Starts the CLI; resolves with its ready line's base once it listens. */
function startCli(args: string[], cwd?: string): Promise<{ base: string; child: ReturnType<typeof spawn>; stopped: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(), cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /svc_rest listening on (http:\/\/\S+)\n/.exec(out);
      if (m !== null) resolve({ base: m[1]!, child, stopped });
    });
    void stopped.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

describe('--gen-config', () => {
  test('prints every key; the output starts the server unchanged', async () => {
    const d = await tempDir();
    const r = run(['--gen-config', '--local', '--port', '0', '--host', '127.0.0.1', '--durability', 'none', '--allowed-origins', 'http://a.example']);
    assert.equal(r.status, 0, r.stderr);
    const config = JSON.parse(r.stdout) as Config;
    assert.deepEqual(Object.keys(config), Object.keys(defaults({ local: false, secure: false })));
    for (const k of ['allowed_origins', 'cluster_uri', 'cluster_public_key_file', 'tls_certificate', 'tls_key', 'tls_port', 'host', 'port', 'log', 'assets']) assert.ok(k in config, k);
    assert.deepEqual(config.allowed_origins, ['http://a.example']);
    assert.equal(config.data_dir, './data');
    await writeFile(join(d, 'svc.json'), r.stdout);
    const server = await startCli(['--config-file', join(d, 'svc.json')], d);
    const pre = await request(server.base, 'OPTIONS', '/api/query', { headers: { Origin: 'http://a.example', 'Access-Control-Request-Method': 'POST' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'http://a.example', 'the file\'s origins are in force');
    server.child.kill('SIGTERM');
    assert.equal(await server.stopped, 0);
    assert.match(await readFile(join(d, 'svc_rest.log'), 'utf8'), /"method":"OPTIONS"/);
  });
  test('-i asks each value (default in brackets) from stdin and writes the file', async () => {
    const d = await tempDir();
    const file = join(d, 'asked.json');
    const keys = Object.keys(defaults({ local: false, secure: false }));
    // allowed_origins, cluster_uri, …: answer some, keep the rest; a bad port is asked again.
    const answers = keys.map((k) => ({ allowed_origins: 'http://x.example, http://y.example', port: 'eighty\n8081', host: '0.0.0.0', durability: 'os', tls_key: '-' } as Record<string, string>)[k] ?? '');
    const r = run(['--gen-config', '-i', '--local', '--secure', '--config-file', file], { input: `${answers.join('\n')}\n` });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /port \(.*\) \[40080\]: /);
    assert.match(r.stderr, /cluster_uri \(.*\) \[svc:\/\/127\.0\.0\.1:2836\]: /);
    assert.match(r.stderr, /--port|"port" must be an integer/);
    const written = JSON.parse(await readFile(file, 'utf8')) as Config;
    assert.deepEqual(written.allowed_origins, ['http://x.example', 'http://y.example']);
    assert.equal(written.port, 8081);
    assert.equal(written.host, '0.0.0.0');
    assert.equal(written.durability, 'os');
    assert.equal(written.log, 'svc_rest.log');
    assert.equal(written.tls_port, 40493);
    assert.equal(written.tls_certificate, '/etc/svc/svc_rest.cert.pem', '--secure\'s default kept');
    assert.equal(written.tls_key, '', '- empties it');
  });
  test('-i with stdin ending early → exit 2, no file', async () => {
    const d = await tempDir();
    const r = run(['--gen-config', '-i', '--config-file', join(d, 'x.json')], { input: '\n' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /stdin ended before "cluster_uri"/);
    await assert.rejects(readFile(join(d, 'x.json')));
  });
  test('the usage lists every option with its environment variable and config key', () => {
    const r = run(['--help']);
    for (const o of ['--allowed-origins', '-c, --cluster', '--cluster-public-key-file', '--tls-certificate', '--tls-key', '--tls-port', '--host', '--port', '--log-file', '--assets-dir', '--config-file', '--gen-config', '-i, --interactive', '-l, --local', '-s, --secure', '--users-file']) assert.ok(r.stdout.includes(o), o);
    for (const e of ENV_NAMES) assert.ok(r.stdout.includes(`env ${e}`), e);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the log file', () => {
  test('is reopened on SIGHUP (after logrotate moved it)', async () => {
    const d = await tempDir();
    const log = join(d, 'svc.log');
    const server = await startCli(['--data-dir', join(d, 'data'), '--port', '0', '--host', '127.0.0.1', '--log-file', log]);
    await request(server.base, 'GET', '/api/status/liveness');
    await until(async () => (await readFile(log, 'utf8').catch(() => '')).includes('liveness'));
    await rename(log, `${log}.1`);
    server.child.kill('SIGHUP');
    // The signal is handled at some point after kill(): ask until a line lands in a new file.
    await until(async () => {
      await request(server.base, 'GET', '/api/status/readiness');
      return (await readFile(log, 'utf8').catch(() => '')).includes('readiness');
    });
    server.child.kill('SIGTERM');
    assert.equal(await server.stopped, 0);
    assert.match(await readFile(`${log}.1`, 'utf8'), /liveness/);
    const fresh = await readFile(log, 'utf8');
    assert.match(fresh, /readiness/);
    assert.doesNotMatch(fresh, /liveness/);
  });
});
