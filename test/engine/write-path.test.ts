// The write path (engine/write/): one write of several ops is validated op by op against the
// catalog as the earlier ops leave it, logged as one WAL record and applied whole — or, when any
// op fails, not at all; after a crash it is replayed whole or not at all (a torn record is cut).
import assert from 'node:assert/strict';
import { readdir, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import type { ColumnValues, WriteOp } from '../../engine/index.js';
import { copyAside, expectCode, readRows, tempDir } from './helpers.js';

const f64 = (...v: number[]): ColumnValues => ({ type: 'DOUBLE', values: Float64Array.from(v), nulls: null });
const ts = (...v: bigint[]) => BigInt64Array.from(v);

/** Two tables created and filled in one write, as an ingest protocol sends a batch of lines. */
const TWO_TABLES: WriteOp[] = [
  { kind: 'createTable', name: 'cpu', columns: [{ name: 'usage', type: 'DOUBLE' }], ifNotExists: true },
  { kind: 'insert', table: 'cpu', rows: { ts: ts(1n, 2n), columns: { usage: f64(0.5, 0.25) } } },
  { kind: 'createTable', name: 'mem', columns: [{ name: 'used', type: 'DOUBLE' }, { name: 'free', type: 'DOUBLE' }], ifNotExists: true },
  { kind: 'insert', table: 'mem', rows: { ts: ts(1n), columns: { used: f64(7) } } },
];

describe('write path', () => {
  it('applies several tables created and filled in one write, and replays them after a crash', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    assert.deepEqual(await db.write(TWO_TABLES), [true, true, true, true]);
    const expect = (d: Database) => {
      assert.deepEqual(readRows(d, 'cpu'), [{ $timestamp: 1n, usage: 0.5 }, { $timestamp: 2n, usage: 0.25 }]);
      assert.deepEqual(readRows(d, 'mem'), [{ $timestamp: 1n, used: 7, free: null }]);
    };
    expect(db);
    const crashed = await Database.open({ dataDir: await copyAside(dataDir) });
    expect(crashed);
    // Existing tables are kept; the rows go in.
    assert.deepEqual(await db.write(TWO_TABLES), [false, true, false, true]);
    assert.equal(db.describeTable('cpu').rowCount, 4);
    await crashed.close();
    await db.close();
  });

  it('a write with one failing op changes nothing, and names the op', async () => {
    const db = await Database.open({ dataDir: await tempDir() });
    const bad: WriteOp[] = [...TWO_TABLES, { kind: 'insert', table: 'mem', rows: { ts: ts(1n), columns: { swap: f64(1) } } }];
    await expectCode(() => db.write(bad), 'ColumnNotFound', /no column 'swap'/);
    assert.deepEqual(db.listAliases('').aliases, []);
    const wrongType: WriteOp[] = [TWO_TABLES[0], { kind: 'insert', table: 'cpu', rows: { ts: ts(1n), columns: { usage: { type: 'INT64', values: ts(1n), nulls: null } } } }];
    await expectCode(() => db.write(wrongType), 'InvalidArgument', /'usage' is DOUBLE, not INT64/);
    await expectCode(() => db.write([TWO_TABLES[0], { kind: 'insert', table: 'cpu', rows: { ts: ts(1n, 2n), columns: { usage: f64(1) } } }]), 'InvalidArgument', /1 values but \$timestamp has 2/);
    assert.deepEqual(db.listAliases('').aliases, []);
    await db.close();
  });

  it('checks each op against the catalog as the ops before it leave it', async () => {
    const db = await Database.open({ dataDir: await tempDir() });
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await expectCode(() => db.write([
      { kind: 'dropTable', name: 't' },
      { kind: 'insert', table: 't', rows: { ts: ts(1n), columns: { v: f64(1) } } },
    ]), 'TableNotFound');
    assert.equal(db.entryType('t'), 'ts');
    // Dropped and created again with other columns: the insert sees the new ones.
    await db.write([
      { kind: 'dropTable', name: 't' },
      { kind: 'createTable', name: 't', columns: [{ name: 'w', type: 'DOUBLE' }] },
      { kind: 'insert', table: 't', rows: { ts: ts(5n), columns: { w: f64(2) } } },
      { kind: 'attachTag', alias: 't', tag: 'fresh' },
      { kind: 'attachTag', alias: 't', tag: 'fresh' },
    ]).then((changes) => assert.deepEqual(changes, [true, true, true, true, false]));
    assert.deepEqual(readRows(db, 't'), [{ $timestamp: 5n, w: 2 }]);
    assert.deepEqual(db.getTags('t').aliases, ['fresh']);
    await db.close();
  });

  it('a write torn by a crash is replayed not at all, never in part', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    await db.createTable('kept', [{ name: 'v', type: 'DOUBLE' }]);
    await db.write(TWO_TABLES);
    const copy = await copyAside(dataDir);
    await db.close();
    // Cut the last WAL record (the two-table write) short: a crash while it was written.
    const walDir = join(copy, 'wal');
    const last = join(walDir, (await readdir(walDir)).sort().at(-1)!);
    await truncate(last, (await stat(last)).size - 3);
    const logs: string[] = [];
    const reopened = await Database.open({ dataDir: copy, log: (m) => logs.push(m) });
    assert.deepEqual(reopened.listAliases('').aliases, ['kept']);
    assert.match(logs.join('\n'), /cut a torn record/);
    await reopened.close();
  });
});
