// A replica's checkpoints (Database.openReplicated, the seam a cluster node uses): a node loads
// another node's checkpoint n (its files, read lazily), applies more, and checkpoints again. Its
// own checkpoint must never take the number of the one it loaded: files are named after their
// checkpoint, so checkpoint n written again overwrote the data the loaded batches are read from
// (the node, and any node loading its checkpoint, then read damaged or foreign batches). Such a
// checkpoint is refused; the next number works and what it holds loads whole elsewhere.
import assert from 'node:assert/strict';
import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Database } from '../../engine/database.js';
import type { LogState } from '../../engine/log/database-log.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { tempDir } from './helpers.js';
import { keysIn, stubReplica } from './stub-replica.js';

async function replica(): Promise<{ db: Database; state: LogState }> {
  return stubReplica(join(await tempDir('svc-replica-'), 'node'));
}

function rows(from: number, n: number): WalRecord {
  const ts = BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i + 1));
  const k = BigInt64Array.from({ length: n }, (_, i) => BigInt(from + i));
  return { kind: 'TableInsert', name: 't', batch: { ts, columns: [{ type: 'INT64', values: k, nulls: null }] } };
}

async function copyCheckpoints(from: LogState, to: LogState): Promise<void> {
  for (const name of await readdir(from.checkpoints.dir)) await copyFile(join(from.checkpoints.dir, name), join(to.checkpoints.dir, name));
}

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('replica checkpoints', () => {
  it('a node that loaded checkpoint n refuses to write its own n, and its n+1 loads whole on another node', async () => {
    const a = await replica();
    a.state.apply({ kind: 'TableCreate', name: 't', columns: [{ name: 'k', type: 'INT64' }], shardSize: 86_400_000_000_000n });
    for (let i = 0; i < 5; i++) a.state.apply(rows(i * 10_000, 10_000));
    await a.state.checkpoints.take(100);

    const b = await replica();
    await copyCheckpoints(a.state, b.state);
    await b.state.checkpoints.load();
    // Not read yet: the loaded batches are still in checkpoint 100's files.
    for (let i = 5; i < 15; i++) b.state.apply(rows(i * 10_000, 10_000));
    await assert.rejects(b.state.checkpoints.take(100), /checkpoint 100 refused: checkpoint 100 is here already/);
    await assert.rejects(b.state.checkpoints.take(99), /refused/);
    assert.deepEqual(await keysIn(b.db, 't'), range(0, 150_000), 'the node reads what it loaded and applied');
    await b.state.checkpoints.take(101);

    const c = await replica();
    await copyCheckpoints(b.state, c.state);
    await c.state.checkpoints.load();
    assert.deepEqual(await keysIn(c.db, 't'), range(0, 150_000));
    for (const r of [a, b, c]) await r.db.close();
  });
});
