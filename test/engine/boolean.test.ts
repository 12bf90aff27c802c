// BOOLEAN columns end to end: the embedded API and INSERT take true/false/null, batches hold
// Arrow Bool with statistics, the WAL and checkpoints carry them, and queries answer = != count
// first last min max distinct_count — from statistics and from scans alike — while arithmetic,
// ordering comparisons and numeric aggregates are refused. Both JSON encoders write true/false.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from '../../engine/index.js';
import { checkStats, copyAside, expectCode, readRows, tempDir } from './helpers.js';
import { login, request, startTestServer } from '../server/helpers.js';

const open = (dataDir: string) => Database.open({ dataDir, batchRows: 4, sweepIntervalMs: 0 });

// Rows at 1..10 s: up = true except at 3 and 7 (false), null at 5; then late rows (a run beside the
// sealed batches of 4 rows) at 2.5 s (false) and 4.5 s (true).
const S = 1_000_000_000n;
async function fill(db: Database): Promise<void> {
  await db.query('CREATE TABLE s (up BOOLEAN, v DOUBLE)');
  const up = [true, true, false, true, null, true, false, true, true, true];
  await db.insert('s', { $timestamp: BigInt64Array.from(up, (_, i) => BigInt(i + 1) * S), up, v: up.map((_, i) => i + 1) });
  await db.query('INSERT INTO s ($timestamp, up, v) VALUES (2500000000, false, 2.5), (4500000000, TRUE, 4.5)');
}

async function answers(db: Database, text: string): Promise<unknown[]> {
  const r = await db.query(text);
  if (r.tables.length === 0) return [];
  return r.tables[0].columns.map((c) => {
    const v = c.values[0];
    if (c.nulls !== null && c.nulls[0] === 1) return null;
    return c.type === 'boolean' ? v === 1 : v;
  });
}

async function check(db: Database): Promise<void> {
  checkStats(db, 's');
  assert.deepEqual(readRows(db, 's').map((r) => r.up), [true, true, false, false, true, true, null, true, false, true, true, true]);
  assert.deepEqual(await answers(db, 'SELECT count(up), min(up), max(up), first(up), last(up), distinct_count(up) FROM s'), [11n, false, true, true, true, 2n]);
  assert.deepEqual(await answers(db, 'SELECT count(v) FROM s WHERE up = true'), [8n]);
  assert.deepEqual(await answers(db, 'SELECT count(v) FROM s WHERE up != TRUE'), [3n]);
  assert.deepEqual(await answers(db, 'SELECT count(v) FROM s WHERE up = false AND v > 3'), [1n]);
  assert.deepEqual(await answers(db, 'SELECT count(v) FROM s WHERE up IN (false)'), [3n]);
  assert.deepEqual(await answers(db, 'SELECT min(up), max(up) FROM s WHERE v >= 8'), [true, true]);
  assert.deepEqual(await answers(db, 'SELECT min(up), max(up) FROM s IN RANGE(1971, +1d)'), []);
  const grouped = await db.query('SELECT count(v) FROM s GROUP BY up');
  assert.deepEqual([...(grouped.tables[0].columns[0].values as BigInt64Array)], [3n, 8n, 1n]);
  const plain = await db.query('SELECT $timestamp, up FROM s LIMIT 3');
  assert.equal(plain.tables[0].columns[1].type, 'boolean');
  assert.deepEqual([...(plain.tables[0].columns[1].values as Float64Array)], [1, 1, 0]);
}

describe('BOOLEAN', () => {
  it('is stored, counted and compared, and survives the WAL and checkpoints', async () => {
    const dataDir = await tempDir();
    const db = await open(dataDir);
    await fill(db);
    await check(db);
    const crashed = await copyAside(dataDir);
    await db.checkpoint();
    await db.close();
    for (const dir of [dataDir, crashed]) {
      const again = await open(dir);
      await check(again);
      await again.close();
    }
  });

  it('refuses what booleans cannot do, naming it', async () => {
    const db = await open(await tempDir());
    await fill(db);
    await expectCode(() => db.query('SELECT count(v) FROM s WHERE up < true'), 'QuerySemantic', /= and != only/);
    await expectCode(() => db.query('SELECT sum(up) FROM s'), 'QuerySemantic');
    await expectCode(() => db.query('SELECT avg(up) FROM s'), 'QuerySemantic');
    await expectCode(() => db.query('SELECT up + 1 FROM s'), 'QuerySemantic');
    await expectCode(() => db.query('SELECT count(v) FROM s WHERE up = 1'), 'QuerySemantic', /cannot compare boolean with int64/);
    await expectCode(() => db.query("INSERT INTO s ($timestamp, up) VALUES (1, 'yes')"), 'QuerySemantic', /cannot take a string/);
    await expectCode(() => db.query('INSERT INTO s ($timestamp, v) VALUES (1, true)'), 'QuerySemantic', /cannot take a boolean/);
    await expectCode(() => db.insert('s', { $timestamp: [1n], up: [1] }), 'InvalidArgument');
    await db.close();
  });

  it('both JSON encoders write true and false; api/query types it boolean', async () => {
    const t = await startTestServer();
    try {
      await fill(t.server.db);
      const token = await login(t.base);
      const q = 'SELECT $timestamp, up FROM s IN RANGE(1970, +3s) WHERE v != 2.5 OR up = false';
      const api = await request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: q }), headers: { Authorization: `Bearer ${token}` } });
      assert.equal(api.text(), '{"tables":[{"columns":[{"data":["1970-01-01T00:00:01Z","1970-01-01T00:00:02Z","1970-01-01T00:00:02.5Z"],"name":"$timestamp","type":"timestamp"},{"data":[true,true,false],"name":"up","type":"boolean"}]}]}');
      const exp = await request(t.base, 'GET', `/query_exp?query=${encodeURIComponent('SELECT up FROM s WHERE up = false')}&date_format=js`);
      assert.deepEqual(exp.json().tables[0].results.map((r: unknown[]) => r[1]), [false, false, false]);
    } finally {
      await t.stop();
    }
  });
});
