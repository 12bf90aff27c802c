// Real Prometheus (Debian's 2.42) against svc, unchanged: one in agent mode scrapes svc's own
// /metrics every second and remote-writes the samples into svc for a few rounds; a second one,
// with svc as its remote_read, answers the instant query `up` from svc's data. Both run on
// loopback ports with configurations and storage of their own in a temporary directory.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { peerMissing } from './peers.js';
import { freePort } from '../../bench/peers/ingest-peers.js';

let svc: TestServer;
let token: string;
let dir = '';
const children: ChildProcess[] = [];

async function startPrometheus(name: string, config: string, extra: readonly string[]): Promise<string> {
  const port = await freePort();
  const file = join(dir, `${name}.yml`);
  await writeFile(file, config);
  const child = spawn('prometheus', [`--config.file=${file}`, `--web.listen-address=127.0.0.1:${port}`, ...extra], { stdio: 'ignore' });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await request(base, 'GET', '/-/ready').then((r) => r.status === 200, () => false)) return base;
    if (child.exitCode !== null) throw new Error(`prometheus (${name}) exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`prometheus (${name}) was not ready within 30 s`);
}

async function rows(query: string): Promise<Record<string, unknown[]>> {
  const r = await request(svc.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { Authorization: `Bearer ${token}` } });
  if (r.status !== 200) return {};
  return Object.fromEntries((r.json().tables[0]?.columns ?? []).map((c: { name: string; data: unknown[] }) => [c.name, c.data]));
}

before(async () => {
  svc = await startTestServer();
  token = await login(svc.base);
  dir = await mkdtemp(join(tmpdir(), 'svc-prometheus-'));
});

after(async () => {
  for (const c of children) {
    if (c.exitCode === null) {
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    }
  }
  await svc.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('real Prometheus', () => {
  test('agent mode remote-writes a few scrape rounds; remote_read answers `up` from svc', async (ctx) => {
    const skip = peerMissing('prometheus', ['--version']);
    if (skip !== null) return ctx.skip(skip);
    const target = new URL(svc.base).host;
    await startPrometheus('agent', [
      'global:', '  scrape_interval: 1s',
      'scrape_configs:', '  - job_name: svc', '    static_configs:', `      - targets: ['${target}']`,
      'remote_write:', `  - url: ${svc.base}/api/prometheus/write`, '    queue_config:', '      batch_send_deadline: 1s', '      max_shards: 1', '',
    ].join('\n'), ['--enable-feature=agent', `--storage.agent.path=${join(dir, 'agent')}`]);
    // A few scrape rounds: `up` is written once a round.
    let up: Record<string, unknown[]> = {};
    for (let i = 0; i < 300 && ((up.value?.length ?? 0) < 3); i++) {
      await new Promise((r) => setTimeout(r, 100));
      up = await rows('SELECT $timestamp, value, job, instance FROM "$qdb.prom.up"');
    }
    assert.ok((up.value?.length ?? 0) >= 3, `after 30 s svc has ${up.value?.length ?? 0} samples of up`);
    assert.deepEqual(new Set(up.value), new Set([1]));
    assert.deepEqual(new Set(up.job), new Set(['svc']));
    assert.deepEqual(new Set(up.instance), new Set([target]));
    // svc's own figures came along: its request counter as a metric table with label columns.
    const requests = await rows('SELECT count(value) FROM "$qdb.prom.svc_http_requests_total"');
    assert.ok(Number(requests['count(value)']?.[0]) > 0, 'svc_http_requests_total samples were written');

    const reader = await startPrometheus('reader', [
      'global:', '  scrape_interval: 1h',
      'remote_read:', `  - url: ${svc.base}/api/prometheus/read`, '    read_recent: true', '',
    ].join('\n'), [`--storage.tsdb.path=${join(dir, 'reader')}`]);
    const r = await request(reader, 'GET', `/api/v1/query?query=${encodeURIComponent('up')}`);
    assert.equal(r.status, 200, r.text());
    const result = r.json().data.result as { metric: Record<string, string>; value: [number, string] }[];
    assert.equal(result.length, 1, r.text());
    assert.deepEqual(result[0].metric, { __name__: 'up', instance: target, job: 'svc' });
    assert.equal(result[0].value[1], '1');
    const range = await request(reader, 'GET', `/api/v1/query?query=${encodeURIComponent('count_over_time(up[5m])')}`);
    assert.ok(Number(range.json().data.result[0].value[1]) >= 3, range.text());
  });
});
