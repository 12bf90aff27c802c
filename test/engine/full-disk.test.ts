// A full disk in the engine (SPEC §14, docs/disk.md):
// - below the floor every write that adds data is refused with StorageFull before anything is
//   logged, each write-op kind as the contract says, while removals, DROP TABLE and the sweep go
//   on and reads answer;
// - on a small tmpfs (root): an ENOSPC inside a WAL append cuts the log back to its last whole
//   record — the writes before it in the same group commit stay acknowledged, the failed one is
//   neither applied nor replayed — and the log takes writes again once space is back;
// - a checkpoint that meets ENOSPC leaves no file behind, the previous checkpoint stays the
//   database, and it is retried by itself once space is back;
// - a DROP TABLE while full gives the table's space back by itself: it starts the checkpoint
//   that deletes the WAL holding the rows, and writes are accepted again.
import assert from 'node:assert/strict';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import type { SpaceWatch } from '../../engine/durability/disk-guard.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { replayWal } from '../../engine/durability/wal/wal-replay.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { WalWriter } from '../../engine/durability/wal/wal-writer.js';
import { SvcError } from '../../engine/errors.js';
import type { WriteOp, WriteOpKind } from '../../engine/index.js';
import { fillDisk, tmpfsMissing, withTmpfs } from '../tmpfs.js';
import { expectCode, nowSeconds, readRows, tempDir } from './helpers.js';

const MIB = 1024 * 1024;
const noTmpfs = tmpfsMissing();
const f64 = (...v: number[]) => ({ type: 'DOUBLE' as const, values: Float64Array.from(v), nulls: null });

/**
 * One write of every kind, with what it must do while the disk is full: the compiler asks for a
 * row here for every new kind, so none goes untested.
 */
function samples(): Record<WriteOpKind, { readonly op: WriteOp; readonly whileFull: 'allow' | 'refuse' }> {
  return {
    createTable: { op: { kind: 'createTable', name: 'new', columns: [{ name: 'v', type: 'DOUBLE' }] }, whileFull: 'refuse' },
    createView: { op: { kind: 'createView', name: 'new_view', source: 't', select: 'SELECT avg(v) FROM t GROUP BY 1h' }, whileFull: 'refuse' },
    // Before drop_me's own drop: a table is dropped once no view reads it.
    dropView: { op: { kind: 'dropView', name: 'drop_me_view' }, whileFull: 'allow' },
    dropTable: { op: { kind: 'dropTable', name: 'drop_me' }, whileFull: 'allow' },
    addColumns: { op: { kind: 'addColumns', table: 't', columns: [{ name: 'w', type: 'DOUBLE' }] }, whileFull: 'refuse' },
    insert: { op: { kind: 'insert', table: 't', rows: { ts: BigInt64Array.from([9n]), columns: { v: f64(9) } } }, whileFull: 'refuse' },
    putBlob: { op: { kind: 'putBlob', alias: 'b2', data: new Uint8Array([1]), mime: 'application/octet-stream', create: true }, whileFull: 'refuse' },
    remove: { op: { kind: 'remove', alias: 'remove_me' }, whileFull: 'allow' },
    setExpiry: { op: { kind: 'setExpiry', alias: 'b', expiry: nowSeconds() + 3600 }, whileFull: 'refuse' },
    attachTag: { op: { kind: 'attachTag', alias: 't', tag: 'g' }, whileFull: 'refuse' },
    detachTag: { op: { kind: 'detachTag', alias: 'b', tag: 'g' }, whileFull: 'refuse' },
    sweep: { op: { kind: 'sweep', aliases: ['b'] }, whileFull: 'allow' },
    // Lifecycle ops that find nothing to take here, so the rows of t stay for the reads below.
    deleteRows: { op: { kind: 'deleteRows', table: 't', statement: 'DELETE FROM t IN RANGE(2020, +1d)', nowNs: 0n, id: 'full-disk' }, whileFull: 'allow' },
    dropShards: { op: { kind: 'dropShards', table: 't', before: 1n }, whileFull: 'allow' },
    setTtl: { op: { kind: 'setTtl', table: 't', ttl: { months: 12 * 1000, nanos: 0n } }, whileFull: 'allow' },
  };
}

describe('below the floor', () => {
  it('refuses every write that adds data before it is logged; removals, DROP TABLE and DROP MATERIALIZED VIEW, the sweep and reads go on', async () => {
    const dataDir = await tempDir();
    const setup = await Database.open({ dataDir, sweepIntervalMs: 0 });
    await setup.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await setup.insert('t', { $timestamp: [1n, 2n], v: [1, 2] });
    await setup.createTable('drop_me', [{ name: 'v', type: 'DOUBLE' }]);
    await setup.query('CREATE MATERIALIZED VIEW drop_me_view AS SELECT max(v) FROM drop_me GROUP BY 1d');
    await setup.createBlob('b', 'x');
    await setup.createBlob('remove_me', 'y');
    await setup.attachTag('b', 'g');
    await setup.close();
    // A floor above any disk's free space: full from the first poll.
    const db = await Database.open({ dataDir, sweepIntervalMs: 0, minFreeDisk: Number.MAX_SAFE_INTEGER });
    assert.equal(db.figures().disk.state, 'full');
    let refused = 0;
    for (const [kind, { op, whileFull }] of Object.entries(samples())) {
      const walBytes = db.figures().walBytes;
      if (whileFull === 'refuse') {
        await expectCode(() => db.write([op]), 'StorageFull', /below the floor of \d+ bytes \(--min-free-disk \/ minFreeDisk\)/);
        assert.equal(db.figures().walBytes, walBytes, `${kind}: refused after it was logged`);
        refused++;
      } else {
        await db.write([op]);
      }
    }
    // A write mixing a removal and an addition is refused whole.
    await expectCode(() => db.write([{ kind: 'remove', alias: 'b' }, samples().insert.op]), 'StorageFull');
    refused++;
    await expectCode(() => db.query('INSERT INTO t ($timestamp, v) VALUES (5, 5)'), 'StorageFull');
    refused++;
    assert.equal(db.figures().disk.refusals, refused);
    // What was allowed happened; what was refused did not; reads answer.
    assert.deepEqual(db.listAliases('').aliases, ['b', 'g', 't']);
    assert.deepEqual(readRows(db, 't'), [{ $timestamp: 1n, v: 1 }, { $timestamp: 2n, v: 2 }]);
    assert.equal(db.describeBlob('b').expiry, 0);
    assert.deepEqual(db.getTags('b').aliases, ['g']);
    await db.query('DROP TABLE t');
    await db.close();
    const reopened = await Database.open({ dataDir, sweepIntervalMs: 0 });
    assert.deepEqual(reopened.listAliases('').aliases, ['b', 'g']);
    await reopened.close();
  });

  it('minFreeDisk must be a whole number of bytes ≥ 0', async () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      await expectCode(() => Database.open({ dataDir: 'never-created', minFreeDisk: bad }), 'InvalidArgument', /minFreeDisk must be an integer from 0/);
    }
  });
});

/** A record of `rows` rows whose values all say `id`. */
function insert(id: number, rows: number): WalRecord {
  return { kind: 'TableInsert', name: 't', batch: { ts: new BigInt64Array(rows).fill(BigInt(id)), columns: [f64(...new Array<number>(rows).fill(id))] } };
}

/** What a WAL writer tells its watcher. */
function recordingWatch(): SpaceWatch & { charged: number; noSpace: number[]; failed: number } {
  return {
    charged: 0, noSpace: [], failed: 0,
    charge(bytes) { this.charged += bytes; },
    noteNoSpace(bytes) { this.noSpace.push(bytes); },
    noteFailed() { this.failed++; },
  };
}

describe('ENOSPC on a small tmpfs', { skip: noTmpfs ?? false }, () => {
  it('inside a WAL append: the log is cut back to its last whole record, the group commit before it stands, writes go on once space is back', async () => {
    await withTmpfs(4 * MIB, async (root) => {
      const dir = join(root, 'wal');
      await mkdir(dir);
      const filler = join(root, 'filler');
      await writeFile(filler, Buffer.alloc(MIB));
      const watch = recordingWatch();
      const wal = new WalWriter(dir, 0, 'fsync', undefined, watch);
      const acknowledged: number[] = [];
      let failure: unknown = null;
      // Bursts of 4 appends in one turn (one group commit each) of ~200 KB records until one does not fit.
      for (let id = 0; failure === null; id += 4) {
        assert.ok(id < 100, 'a 4 MiB disk never filled up');
        const pending: Promise<unknown>[] = [];
        for (let k = id; k < id + 4; k++) {
          try {
            pending.push(wal.append([insert(k, 12_500)]).then(() => { acknowledged.push(k); }));
          } catch (e) {
            failure = e;
            break;
          }
        }
        // The appends written before the failed one are whole: they are acknowledged.
        await Promise.all(pending);
      }
      assert.ok(failure instanceof SvcError && failure.code === 'StorageFull', String(failure));
      assert.match(failure.message, /cut back to its last whole record/);
      assert.equal(wal.hasFailed, false);
      assert.equal(watch.noSpace.length, 1);
      assert.equal(watch.failed, 0);
      const failedId = acknowledged.length;
      assert.deepEqual(acknowledged, [...Array(failedId).keys()]);
      // Space back: the log takes the next write after the last whole record.
      await rm(filler);
      await wal.append([insert(1000, 12_500)]);
      await wal.close();
      const replayed: number[] = [];
      const { tornAt } = await replayWal(dir, 0, (r) => {
        replayed.push(Number((r as Extract<WalRecord, { kind: 'TableInsert' }>).batch.ts[0]));
      });
      assert.equal(tornAt, null, 'replay met a torn record');
      assert.deepEqual(replayed, [...acknowledged, 1000], `the failed write ${failedId} was replayed or a whole one lost`);
    });
  });

  it('in a checkpoint: no file left behind, the previous checkpoint stands, retried by itself once space is back', async () => {
    await withTmpfs(16 * MIB, async (root) => {
      const dataDir = join(root, 'db');
      const db = await Database.open({ dataDir, sweepIntervalMs: 0, minFreeDisk: 0 });
      await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
      const rows = (from: number, n: number) => ({ $timestamp: BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i)), v: Float64Array.from({ length: n }, (_, i) => from + i) });
      await db.insert('t', rows(0, 10_000));
      await db.checkpoint();
      const [first] = await listManifests(checkpointsDir(dataDir));
      await db.insert('t', rows(10_000, 200_000));
      const before = (await readdir(checkpointsDir(dataDir))).sort();
      const filler = await fillDisk(root, 256 * 1024);
      await expectCode(() => db.checkpoint(), 'StorageFull', /no space left on device/);
      assert.deepEqual((await readdir(checkpointsDir(dataDir))).sort(), before, 'the failed checkpoint left files behind');
      assert.deepEqual(await listManifests(checkpointsDir(dataDir)), [first]);
      assert.ok(db.figures().disk.noSpaceErrors >= 1);
      assert.equal(db.figures().checkpointFailures, 1);
      assert.equal(readRows(db, 't').length, 210_000);
      await rm(filler);
      // Retried on its own (after ~2 s): a newer manifest, and the WAL it covers gone.
      for (let i = 0; (await listManifests(checkpointsDir(dataDir))).at(-1) === first; i++) {
        assert.ok(i < 150, 'the failed checkpoint was not retried within 15 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      await db.close();
      const reopened = await Database.open({ dataDir, sweepIntervalMs: 0 });
      assert.equal(reopened.describeTable('t').rowCount, 210_000);
      await reopened.close();
    });
  });

  it('DROP TABLE while full gives the space back by itself: the checkpoint it starts lets the WAL go, writes resume', async () => {
    await withTmpfs(32 * MIB, async (root) => {
      const dataDir = join(root, 'db');
      const db = await Database.open({ dataDir, sweepIntervalMs: 0, minFreeDisk: 8 * MIB });
      const rows = (from: number, n: number) => ({ $timestamp: BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i)), v: Float64Array.from({ length: n }, (_, i) => from + i) });
      await db.createTable('keep', [{ name: 'v', type: 'DOUBLE' }]);
      await db.createTable('big', [{ name: 'v', type: 'DOUBLE' }]);
      await db.insert('keep', rows(0, 50_000));
      let inserted = 0;
      for (;;) {
        assert.ok(inserted < 3_000_000, 'a 32 MiB disk never reached its floor');
        const e = await db.insert('big', rows(inserted, 100_000)).then(() => null, (err: unknown) => err);
        if (e !== null) {
          assert.ok(e instanceof SvcError && e.code === 'StorageFull', String(e));
          break;
        }
        inserted += 100_000;
      }
      assert.equal(db.figures().disk.state, 'full');
      await db.dropTable('big');
      // Nothing deleted by hand: the checkpoint the DROP started gives the WAL's space back.
      for (let i = 0; db.figures().disk.state !== 'ok'; i++) {
        assert.ok(i < 100, `still full 10 s after the DROP: ${JSON.stringify(db.figures().disk)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await db.insert('keep', rows(50_000, 1_000));
      await db.close();
      const reopened = await Database.open({ dataDir, sweepIntervalMs: 0, minFreeDisk: 8 * MIB });
      assert.deepEqual(reopened.listAliases('').aliases, ['keep']);
      assert.equal(reopened.describeTable('keep').rowCount, 51_000);
      await reopened.close();
    });
  });
});
