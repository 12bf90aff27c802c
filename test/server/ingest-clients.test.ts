// The real clients users point at svc, unchanged: the influx CLI 1.6.7 (`-import` of a file with
// every escape case, `-execute 'SHOW DATABASES'`), python3-influxdb, and the npm clients
// @influxdata/influxdb-client (v2 API), @questdb/nodejs-client (probes /settings) and influx
// (node-influx). Every value they send is read back through /api/query.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { InfluxDB as InfluxV2, Point } from '@influxdata/influxdb-client';
import { Sender } from '@questdb/nodejs-client';
import * as NodeInflux from 'influx';
import { login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { DEBIAN_PYTHON, peerMissing, pythonModuleMissing, runPeer } from './peers.js';

let t: TestServer;
let token: string;
let port: string;
let dir: string;
before(async () => {
  t = await startTestServer();
  token = await login(t.base);
  port = new URL(t.base).port;
  dir = await mkdtemp(join(tmpdir(), 'svc-clients-'));
});
after(async () => {
  await t.stop();
  await rm(dir, { recursive: true, force: true });
});

async function select(query: string): Promise<Record<string, unknown[]>> {
  const r = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { Authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, r.text());
  return Object.fromEntries((r.json().tables[0]?.columns ?? []).map((c: { name: string; data: unknown[] }) => [c.name, c.data]));
}

describe('the influx CLI 1.6.7', () => {
  test('-import of a file with every escape case; values read back', async (ctx) => {
    const skip = peerMissing('influx', ['-version']);
    if (skip !== null) return ctx.skip(skip);
    const file = join(dir, 'import.txt');
    await writeFile(file, [
      '# DDL',
      'CREATE DATABASE cli_db',
      '# DML',
      '# CONTEXT-DATABASE: cli_db',
      '# CONTEXT-RETENTION-POLICY: autogen',
      'cli\\ meas\\,ure,tag\\ key=tag\\,val\\=ue,plain=C:\\dir field\\=key=1.5,f\\,2=2i,s="quote \\" and backslash \\\\ and , = space" 1700000000000000000',
      'cli\\ meas\\,ure,plain=b b=true,s="multi word",emoji="📈 ✓" 1700000001000000000',
      'cli\\ meas\\,ure,plain=c field\\=key=-0.25,f\\,2=-9223372036854775808i,b=F 1700000002000000000',
      '',
    ].join('\n'));
    const r = await runPeer('influx', ['-host', '127.0.0.1', '-port', port, '-import', '-path', file, '-precision', 'ns']);
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /Processed 3 inserts\n.*Failed 0 inserts/);
    assert.deepEqual(await select('SELECT * FROM "cli meas,ure"'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z', '2023-11-14T22:13:22Z'],
      'tag key': ['tag,val=ue', null, null], plain: ['C:\\dir', 'b', 'c'],
      'field=key': [1.5, null, -0.25], 'f,2': [2, null, -9223372036854775808n].map((v) => (v === null ? null : Number(v))),
      s: ['quote " and backslash \\ and , = space', 'multi word', null], b: [null, true, false], emoji: [null, '📈 ✓', null],
    });
  });

  test("-execute 'SHOW DATABASES'", async (ctx) => {
    const skip = peerMissing('influx', ['-version']);
    if (skip !== null) return ctx.skip(skip);
    const r = await runPeer('influx', ['-host', '127.0.0.1', '-port', port, '-execute', 'SHOW DATABASES']);
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /name: databases\nname\n----\nsvc\n/);
  });
});

describe('python3-influxdb', () => {
  test('write_points of every type; read back', async (ctx) => {
    const skip = pythonModuleMissing('influxdb');
    if (skip !== null) return ctx.skip(skip);
    const script = `
from influxdb import InfluxDBClient
c = InfluxDBClient(host='127.0.0.1', port=${port}, database='py_db')
c.create_database('py_db')
ok = c.write_points([
  {'measurement': 'py', 'tags': {'host': 'h 1', 'dc': 'eu,west'}, 'time': 1700000000000000000,
   'fields': {'f': 0.1, 'i': 42, 's': 'a "quoted" word', 'b': True}},
  {'measurement': 'py', 'tags': {'host': 'h2'}, 'time': 1700000001000000000, 'fields': {'f': -7.5, 'b': False}},
], time_precision='n')
print('dbs', [d['name'] for d in c.get_list_database()], ok)
`;
    const r = await runPeer(DEBIAN_PYTHON, ['-c', script]);
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /dbs \['svc'\] True/);
    assert.deepEqual(await select('SELECT * FROM py'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z'], dc: ['eu,west', null], host: ['h 1', 'h2'],
      b: [true, false], f: [0.1, -7.5], i: [42, null], s: ['a "quoted" word', null],
    });
  });
});

describe('npm clients', () => {
  test('@influxdata/influxdb-client (v2 write API, Token header)', async () => {
    const api = new InfluxV2({ url: t.base, token: 'any-token' }).getWriteApi('org', 'bucket', 'ns');
    api.writePoint(new Point('v2').tag('region', 'eu west').floatField('load', 0.75).intField('n', -3).uintField('u', 7).booleanField('up', true).stringField('msg', 'hi, "you"').timestamp(1_700_000_000_000_000_000n.toString()));
    api.writePoint(new Point('v2').tag('region', 'us').floatField('load', 1e-300).timestamp('1700000001000000000'));
    await api.close();
    assert.deepEqual(await select('SELECT * FROM v2'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z'], region: ['eu west', 'us'],
      load: [0.75, 1e-300], msg: ['hi, "you"', null], n: [-3, null], u: [7, null], up: [true, null],
    });
  });

  test('@questdb/nodejs-client (HTTP, probing /settings)', async () => {
    const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${port};auto_flush=off`);
    await sender.table('qdb').symbol('sym', 'a b').floatColumn('f', 2.5).intColumn('i', 9).booleanColumn('b', false).stringColumn('s', 'x=y, z').at(1_700_000_000_000_000_000n, 'ns');
    await sender.table('qdb').symbol('sym', 'c').floatColumn('f', -1).at(1_700_000_001_000_000_000n, 'ns');
    await sender.flush();
    await sender.close();
    assert.deepEqual(await select('SELECT * FROM qdb'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z'], sym: ['a b', 'c'], f: [2.5, -1], i: [9, null], b: [false, null], s: ['x=y, z', null],
    });
  });

  test('influx (node-influx): getDatabaseNames, createDatabase, writePoints', async () => {
    const client = new NodeInflux.InfluxDB({ host: '127.0.0.1', port: Number(port), database: 'node_db' });
    await client.createDatabase('node_db');
    assert.deepEqual(await client.getDatabaseNames(), ['svc']);
    await client.writePoints([
      { measurement: 'nodeinflux', tags: { host: 'n=1' }, fields: { v: 1.25, c: 3, ok: true, s: 'a\\b' }, timestamp: new Date(1_700_000_000_000) },
      { measurement: 'nodeinflux', tags: { host: 'n2' }, fields: { v: 2 }, timestamp: new Date(1_700_000_001_000) },
    ], { precision: 'ms' });
    assert.deepEqual(await select('SELECT * FROM nodeinflux'), {
      $timestamp: ['2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z'], host: ['n=1', 'n2'], c: [3, null], ok: [true, null], s: ['a\\b', null], v: [1.25, 2],
    });
  });
});
