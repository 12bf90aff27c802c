// The parsed-statement and plan caches must never change an answer: a repeated text is run
// afresh (relative times follow each run's `now`, tables dropped and recreated are seen anew, a
// FIND in FROM sees the tags of the moment, each run's limits apply, each database reads its
// own tables), syntax errors are raised every time, and the cache stays bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { executeQuery } from '../../engine/query/index.js';
import { isSvcError } from '../../engine/errors.js';
import { parseCached } from '../../engine/query/ast-cache.js';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf, tablesOf } from './helpers.js';

const S = 1_000_000_000n;
const T = 1_483_228_800n * S; // 2017-01-01

async function catalog(): Promise<FakeCatalog> {
  const c = new FakeCatalog(4);
  await c.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
  await c.insert('t', { $timestamp: BigInt64Array.from([T, T + 3600n * S, T + 7200n * S]), v: [1, 2, 4] });
  return c;
}

describe('parsed-statement and plan caches', () => {
  it('resolves now, today and yesterday with each run’s own now', async () => {
    const c = await catalog();
    const text = 'SELECT sum(v) FROM t IN RANGE(now, -90min)';
    const at = async (now: bigint): Promise<unknown> => rowsOf((await executeQuery(c, text, { now })).tables[0]);
    assert.deepEqual(await at(T + 3601n * S), [[T + 3601n * S - 5400n * S, 3]]);
    assert.deepEqual(await at(T + 7201n * S), [[T + 7201n * S - 5400n * S, 6]]);
    const day = 'SELECT count(v) FROM t IN RANGE(yesterday, +1d)';
    assert.equal((await executeQuery(c, day, { now: T + 86_400n * S })).tables.length, 1);
    assert.equal((await executeQuery(c, day, { now: T + 3n * 86_400n * S })).tables.length, 0);
  });

  it('plans every run against the current tables', async () => {
    const c = await catalog();
    const text = 'SELECT max(v) FROM t';
    assert.deepEqual(rowsOf((await executeQuery(c, text)).tables[0]), [[T + 7200n * S, 4]]);
    await c.write([{ kind: 'dropTable', name: 't' }]);
    await assert.rejects(executeQuery(c, text), (e) => isSvcError(e) && e.code === 'QuerySemantic');
    await c.createTable('t', [{ name: 'v', type: 'INT64' }], { ifNotExists: false });
    await c.insert('t', { $timestamp: BigInt64Array.from([T]), v: [7n] });
    assert.deepEqual(rowsOf((await executeQuery(c, text)).tables[0]), [[T, 7n]]);
  });

  it('reads the tables a FIND in FROM matches at each run', async () => {
    const c = await catalog();
    await c.createTable('u', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
    await c.insert('u', { $timestamp: BigInt64Array.from([T]), v: [9] });
    const text = "SELECT count(v) FROM FIND(tag='x')";
    await c.attachTag('t', 'x');
    assert.deepEqual(Object.keys(tablesOf(await executeQuery(c, text))), ['t']);
    await c.attachTag('u', 'x');
    assert.deepEqual(Object.keys(tablesOf(await executeQuery(c, text))), ['t', 'u']);
  });

  it('applies each run’s own condition limit', async () => {
    const c = await catalog();
    const text = 'SELECT count(v) FROM t WHERE v > 0 AND v < 3 AND v != 2';
    assert.deepEqual(rowsOf((await executeQuery(c, text, { maxConditionTerms: 3 })).tables[0]), [[null, 1n]]);
    await assert.rejects(executeQuery(c, text, { maxConditionTerms: 2 }), (e) => isSvcError(e) && e.code === 'QueryLimit');
    assert.deepEqual(rowsOf((await executeQuery(c, text)).tables[0]), [[null, 1n]]);
  });

  it('keeps databases apart: the same text reads each one’s own table', async () => {
    const a = await catalog();
    const b = new FakeCatalog(4);
    await b.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }], { ifNotExists: false });
    await b.insert('t', { $timestamp: BigInt64Array.from([T]), v: [5], w: [6] });
    const text = 'SELECT * FROM t IN RANGE(2017, +1h)';
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(rowsOf((await executeQuery(a, text)).tables[0]), [[T, T, 1]]);
      assert.deepEqual(rowsOf((await executeQuery(b, text)).tables[0]), [[T, T, 5, 6]]);
    }
  });

  it('keeps no dropped table alive for a plan’s sake', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const c = await catalog();
    const text = 'SELECT count(v) FROM t IN RANGE(2017, +1d)';
    await executeQuery(c, text);
    await executeQuery(c, text);
    const dropped = new WeakRef(c.table('t')!);
    await c.write([{ kind: 'dropTable', name: 't' }]);
    for (let i = 0; i < 5 && dropped.deref() !== undefined; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    assert.equal(dropped.deref(), undefined);
    assert.equal(parseCached(text).kind, 'Select'); // the statement itself is still cached
  });

  it('raises a syntax error on every run of a bad text', async () => {
    const c = await catalog();
    for (let i = 0; i < 3; i++) {
      await assert.rejects(executeQuery(c, 'SELECT FROM t'), (e) => isSvcError(e) && e.code === 'QuerySyntax');
    }
  });

  it('hands back the same statement for a repeated text, and stays bounded', () => {
    const first = parseCached('SELECT v FROM t');
    for (let i = 0; i < 1000; i++) parseCached(`SELECT v FROM t LIMIT ${i}`);
    const again = parseCached('SELECT v FROM t');
    assert.deepEqual(again, first);
    assert.equal(parseCached('SELECT v FROM t'), again);
  });
});
