// An fsync that fails is not a full disk (SPEC §14, PostgreSQL's rule): after it the kernel may
// have dropped the unwritten pages and answer a retried fsync with success, so the database
// refuses every write — removals too, whatever the free space — until a restart replays the log.
// An fsync error cannot be caused on demand, so the test injects it through the WAL's io seam
// (walIo): the fdatasync of a group commit, and the one that closes a segment before the next.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { walIo } from '../../engine/durability/wal/wal-writer.js';
import { expectCode, readRows, tempDir } from './helpers.js';

const real = { ...walIo };
afterEach(() => Object.assign(walIo, real));

function eio(): Error {
  return Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
}

async function tableWithRows(dataDir: string, walSegmentBytes?: number): Promise<Database> {
  const db = await Database.open({ dataDir, sweepIntervalMs: 0, walSegmentBytes });
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
  for (let i = 0; i < 5; i++) await db.insert('t', { $timestamp: [BigInt(i)], v: [i] });
  return db;
}

/** After a restart: every acknowledged row (0 … 4) is there; unacknowledged ones may be too. */
async function expectAcknowledgedAfterRestart(dataDir: string): Promise<void> {
  const reopened = await Database.open({ dataDir, sweepIntervalMs: 0 });
  const values = readRows(reopened, 't').map((r) => r.v);
  assert.deepEqual(values.slice(0, 5), [0, 1, 2, 3, 4]);
  await reopened.insert('t', { $timestamp: [100n], v: [100] });
  await reopened.close();
}

describe('an fsync error', () => {
  it('of a group commit: the writes it covered and every later one fail until a restart, which replays every acknowledged write', async () => {
    const dataDir = await tempDir();
    const db = await tableWithRows(dataDir);
    walIo.fdatasync = async () => { throw eio(); };
    await expectCode(() => db.insert('t', { $timestamp: [5n], v: [5] }), 'StorageFailed', /could not be written: EIO/);
    // The disk works again: still refused, removals too — only a restart ends it.
    Object.assign(walIo, real);
    await expectCode(() => db.insert('t', { $timestamp: [6n], v: [6] }), 'StorageFailed', /restart it to replay the write-ahead log/);
    await expectCode(() => db.dropTable('t'), 'StorageFailed');
    assert.equal(db.hasFailed, true);
    assert.equal(db.figures().disk.state, 'failed');
    assert.deepEqual(readRows(db, 't').map((r) => r.v).slice(0, 5), [0, 1, 2, 3, 4], 'reads go on');
    await db.close();
    await expectAcknowledgedAfterRestart(dataDir);
  });

  it('closing a segment before the next: the write that needed the new segment fails, and so does every later one', async () => {
    const dataDir = await tempDir();
    const db = await tableWithRows(dataDir, 1024);
    walIo.fdatasyncSync = () => { throw eio(); };
    const big = { $timestamp: BigInt64Array.from({ length: 100 }, (_, i) => BigInt(10 + i)), v: new Float64Array(100) };
    await expectCode(() => db.insert('t', big), 'StorageFailed', /EIO/);
    Object.assign(walIo, real);
    await expectCode(() => db.insert('t', big), 'StorageFailed', /restart/);
    assert.equal(db.describeTable('t').rowCount, 5, 'the write that failed was applied');
    await db.close();
    await expectAcknowledgedAfterRestart(dataDir);
  });
});
