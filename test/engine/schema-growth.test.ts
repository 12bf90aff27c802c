// Schemas that grow: columns added to a table with rows in every place rows live (sealed batches,
// late runs, the tail) read as null for those rows and hold values for new ones; queries answer
// from statistics and scans alike; the growth is a WAL record replayed after a crash, and
// survives checkpoints written before, across and after it (incremental files of mixed widths).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from '../../engine/index.js';
import type { ColumnDef } from '../../engine/index.js';
import { checkStats, copyAside, expectCode, readRows, tempDir } from './helpers.js';

const open = (dataDir: string) => Database.open({ dataDir, batchRows: 4, sweepIntervalMs: 0 });

async function addColumns(db: Database, table: string, columns: ColumnDef[], ifMissing = false): Promise<boolean> {
  const [changed] = await db.write([{ kind: 'addColumns', table, columns, ifMissing }]);
  return changed;
}

/** Rows 0..9 in time order (sealed batches and a tail), then late rows 1.5, 2.5 (a run). */
async function fill(db: Database): Promise<void> {
  await db.createTable('t', [{ name: 'a', type: 'DOUBLE' }]);
  await db.insertRows('t', Array.from({ length: 10 }, (_, i) => ({ $timestamp: BigInt(i * 10), a: i })));
  await db.insertRows('t', [{ $timestamp: 15n, a: 1.5 }, { $timestamp: 25n, a: 2.5 }]);
}

const OLD_TS = [0n, 10n, 15n, 20n, 25n, 30n, 40n, 50n, 60n, 70n, 80n, 90n];

function expected(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = OLD_TS.map((ts) => ({ $timestamp: ts, a: Number(ts) / 10, b: null, s: null, y: null }));
  rows.push({ $timestamp: 95n, a: 9.5, b: 7n, s: 'x', y: 'k' }, { $timestamp: 5n, a: 0.5, b: null, s: null, y: 'k' });
  return rows.sort((p, q) => (p.$timestamp as bigint) < (q.$timestamp as bigint) ? -1 : 1);
}

async function grow(db: Database): Promise<void> {
  assert.equal(await addColumns(db, 't', [{ name: 'b', type: 'INT64' }, { name: 's', type: 'STRING' }, { name: 'y', type: 'SYMBOL' }]), true);
  await db.insertRows('t', [{ $timestamp: 95n, a: 9.5, b: 7n, s: 'x', y: 'k' }, { $timestamp: 5n, a: 0.5, y: 'k' }]);
}

async function checkGrown(db: Database): Promise<void> {
  assert.deepEqual(db.describeTable('t').columns.map((c) => `${c.name} ${c.type}`), ['a DOUBLE', 'b INT64', 's STRING', 'y SYMBOL']);
  assert.deepEqual(readRows(db, 't'), expected());
  checkStats(db, 't');
  const r = await db.query('SELECT count(b), count(s), count(y), count(a), sum(b), first(y), last(s) FROM t');
  assert.deepEqual(r.tables[0].columns.map((c) => [c.name, c.values[0]]), [
    ['count(b)', 1n], ['count(s)', 1n], ['count(y)', 2n], ['count(a)', 14n], ['sum(b)', 7n], ['first(y)', 'k'], ['last(s)', 'x'],
  ]);
  const star = await db.query('SELECT * FROM t WHERE y = \'k\'');
  assert.deepEqual(star.tables[0].columns.map((c) => c.name), ['$timestamp', 'a', 'b', 's', 'y']);
  assert.equal(star.tables[0].rowCount, 2);
}

describe('schema growth', () => {
  it('rows in sealed batches, runs and the tail read new columns as null', async () => {
    const db = await open(await tempDir());
    await fill(db);
    await grow(db);
    await checkGrown(db);
    await db.close();
  });

  for (const mode of ['crash, WAL only', 'checkpoint before, crash', 'checkpoint after', 'clean close'] as const) {
    it(`survives reopening: ${mode}`, async () => {
      const dataDir = await tempDir();
      const db = await open(dataDir);
      await fill(db);
      if (mode === 'checkpoint before, crash') await db.checkpoint();
      await grow(db);
      if (mode === 'checkpoint after') await db.checkpoint();
      const from = mode.includes('crash') ? await copyAside(dataDir) : dataDir;
      await db.close();
      const again = await open(from);
      await checkGrown(again);
      // One more growth over batches restored from files of both widths, then a reopen.
      await addColumns(again, 't', [{ name: 'z', type: 'DOUBLE' }]);
      await again.insertRows('t', [{ $timestamp: 100n, z: 1 }]);
      await again.checkpoint();
      await again.close();
      const third = await open(from);
      const rows = readRows(third, 't');
      assert.equal(rows.length, 15);
      assert.deepEqual(rows.map((r) => r.z), [...Array(14).fill(null), 1]);
      checkStats(third, 't');
      await third.close();
    });
  }

  it('ifMissing skips columns the table has with that type; otherwise names are refused', async () => {
    const db = await open(await tempDir());
    await fill(db);
    assert.equal(await addColumns(db, 't', [{ name: 'a', type: 'DOUBLE' }], true), false);
    assert.equal(await addColumns(db, 't', [{ name: 'a', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }], true), true);
    await expectCode(() => addColumns(db, 't', [{ name: 'a', type: 'DOUBLE' }]), 'InvalidArgument', /already has a column 'a'/);
    await expectCode(() => addColumns(db, 't', [{ name: 'a', type: 'INT64' }], true), 'InvalidArgument', /is DOUBLE, not INT64/);
    await expectCode(() => addColumns(db, 'none', [{ name: 'x', type: 'INT64' }]), 'TableNotFound');
    await expectCode(() => addColumns(db, 't', [{ name: '$timestamp', type: 'INT64' }]), 'InvalidArgument');
    assert.deepEqual(db.describeTable('t').columns.map((c) => c.name), ['a', 'n']);
    await db.close();
  });

  it('a write creating a table, growing it and filling it is one unit: all of it or none', async () => {
    const db = await open(await tempDir());
    await db.write([
      { kind: 'createTable', name: 'm', columns: [{ name: 'v', type: 'DOUBLE' }], ifNotExists: true },
      { kind: 'addColumns', table: 'm', columns: [{ name: 'host', type: 'SYMBOL' }], ifMissing: true },
      { kind: 'insert', table: 'm', rows: { ts: new BigInt64Array([1n]), columns: { v: { type: 'DOUBLE', values: new Float64Array([1]), nulls: null }, host: { type: 'SYMBOL', values: ['a'] } } } },
    ]);
    assert.deepEqual(readRows(db, 'm'), [{ $timestamp: 1n, v: 1, host: 'a' }]);
    await expectCode(() => db.write([
      { kind: 'addColumns', table: 'm', columns: [{ name: 'extra', type: 'INT64' }] },
      { kind: 'insert', table: 'm', rows: { ts: new BigInt64Array([2n]), columns: { nope: { type: 'DOUBLE', values: new Float64Array([1]), nulls: null } } } },
    ]), 'ColumnNotFound');
    assert.deepEqual(db.describeTable('m').columns.map((c) => c.name), ['v', 'host']);
    await db.close();
  });
});

describe('ALTER TABLE … ADD COLUMN', () => {
  it('adds columns in the language; the words stay usable as column names', async () => {
    const db = await open(await tempDir());
    await fill(db);
    await db.query('ALTER TABLE t ADD COLUMN b INT64, s STRING');
    await db.query('alter table t add y SYMBOL(sym), ADD COLUMN "column" DOUBLE, add add INT64;');
    assert.deepEqual(db.describeTable('t').columns.map((c) => `${c.name} ${c.type}`), ['a DOUBLE', 'b INT64', 's STRING', 'y SYMBOL', 'column DOUBLE', 'add INT64']);
    await db.query('INSERT INTO t ($timestamp, a, b, s, y) VALUES (95, 9.5, 7, \'x\', \'k\'), (5, 0.5, NULL, NULL, \'k\')');
    const r = await db.query('SELECT count(b), count(add), first(y) FROM t');
    assert.deepEqual(r.tables[0].columns.map((c) => c.values[0]), [1n, 0n, 'k']);
    const show = await db.query('SHOW t');
    assert.deepEqual(show.tables[0].columns[0].values, ['$timestamp', 'a', 'b', 's', 'y', 'column', 'add']);
    await db.close();
  });

  it('errors point at what is wrong; nothing is added', async () => {
    const db = await open(await tempDir());
    await fill(db);
    const exists = await expectCode(() => db.query('ALTER TABLE t ADD COLUMN z INT64, a DOUBLE'), 'InvalidArgument', /already has a column 'a'/);
    assert.equal(exists.position, 12);
    const missing = await expectCode(() => db.query('ALTER TABLE nope ADD COLUMN z INT64'), 'TableNotFound');
    assert.equal(missing.position, 12);
    await expectCode(() => db.query('ALTER TABLE t ADD COLUMN z INT64, z DOUBLE'), 'QuerySemantic', /listed twice/);
    await expectCode(() => db.query('ALTER TABLE t ADD COLUMN $z INT64'), 'QuerySyntax', /reserved/);
    await expectCode(() => db.query('ALTER TABLE t ADD COLUMN z FLOAT'), 'QuerySyntax');
    await expectCode(() => db.query('ALTER TABLE t DROP COLUMN a'), 'QuerySyntax');
    await expectCode(() => db.query('ALTER TABLE t ADD COLUMN z INT64', { readOnly: true }), 'ReadOnlyQuery');
    assert.deepEqual(db.describeTable('t').columns.map((c) => c.name), ['a']);
    await db.close();
  });
});
