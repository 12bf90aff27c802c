// The memory budget over HTTP (SPEC §5, §10): --memory-limit and its forms, readiness and
// /metrics reporting the budget's figures, and a write that cannot fit answered 503 MemoryLimit with Retry-After,
// nothing stored, the server still answering.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../server/config-error.js';
import { parseCli } from '../../server/options.js';
import { request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

const MIB = 1024 * 1024;

describe('--memory-limit', () => {
  const serve = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const c = parseCli(args, env);
    assert.equal(c.kind, 'serve');
    return (c as Extract<typeof c, { kind: 'serve' }>).config.memory_limit;
  };

  it('takes bytes or a size with a unit, from the command line, the environment or the default', () => {
    assert.equal(serve(['--memory-limit', '512MiB']), 512 * MIB);
    assert.equal(serve(['--memory-limit', '1073741824']), 1024 * MIB);
    assert.equal(serve(['--memory-limit=2GB']), 2e9);
    assert.equal(serve([], { SVC_MEMORY_LIMIT: '8GiB' }), 8 * 1024 * MIB);
    assert.equal(serve(['--memory-limit', '1.5GiB'], { SVC_MEMORY_LIMIT: '8GiB' }), 1.5 * 1024 * MIB);
    const d = serve([]);
    assert.ok(Number.isSafeInteger(d) && d >= MIB, `default ${d}`);
  });

  it('refuses a value that is not a size of at least 1MiB, naming the option', () => {
    for (const bad of ['lots', '12XB', '-5MiB', '1000', '0.5MiB']) {
      assert.throws(() => parseCli([`--memory-limit=${bad}`], {}), (e: unknown) => e instanceof ConfigError && /--memory-limit/.test(e.message), bad);
    }
    assert.throws(() => parseCli([], { SVC_MEMORY_LIMIT: 'huge' }), (e: unknown) => e instanceof ConfigError && /SVC_MEMORY_LIMIT/.test(e.message));
  });
});

describe('a server with a small memory budget', () => {
  let t: TestServer;
  before(async () => { t = await startTestServer({ memoryLimit: 2 * MIB }); });
  after(async () => { await t.stop(); });

  it('reports the budget in readiness', async () => {
    const r = await request(t.base, 'GET', '/api/status/readiness');
    assert.equal(r.status, 200);
    const { memory } = r.json();
    assert.equal(memory.limit, 2 * MIB);
    for (const key of ['used', 'held', 'cached', 'evictions', 'readBacks', 'readBackBytes']) assert.equal(typeof memory[key], 'number', key);
  });

  it('reports the budget in /metrics', async () => {
    const text = (await request(t.base, 'GET', '/metrics')).text();
    assert.match(text, new RegExp(`\nsvc_memory_limit_bytes ${2 * MIB}\n`));
    for (const name of ['svc_memory_used_bytes', 'svc_memory_held_bytes', 'svc_memory_cached_bytes', 'svc_memory_scanning_bytes', 'svc_memory_evictions_total', 'svc_memory_read_backs_total', 'svc_memory_read_back_bytes_total']) {
      assert.match(text, new RegExp(`\n${name} \\d+\n`), name);
    }
  });

  it('answers a write that cannot fit with 503 MemoryLimit and Retry-After, and stores nothing', async () => {
    const r = await request(t.base, 'POST', '/api/v1/blobs/too-big', { body: new Uint8Array(3 * MIB) });
    assert.equal(r.status, 503);
    assert.equal(r.headers['retry-after'], '1');
    assert.equal(r.json().error, 'MemoryLimit');
    assert.equal((await request(t.base, 'GET', '/api/v1/blobs/too-big')).status, 404);
    const small = await request(t.base, 'POST', '/api/v1/blobs/fits', { body: new Uint8Array(100_000) });
    assert.equal(small.status, 201);
  });
});
