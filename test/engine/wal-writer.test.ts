// The WAL writer on its own: records are in the log when append returns (so callers may reuse
// their arrays), writers are acknowledged oldest first even when two fdatasyncs overlap (records
// of over 1 MiB make a second one start while the first runs), segment rotations in the middle of
// such a burst keep every record in order, drain waits for everything appended, `os` mode
// acknowledges at once, and writers acknowledged together share the next fdatasync.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NormalizedBatch } from '../../engine/storage/batch-input.js';
import { replayWal } from '../../engine/durability/wal/wal-replay.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { WalWriter } from '../../engine/durability/wal/wal-writer.js';
import { tempDir } from './helpers.js';

const ROWS = 80_000; // 80,000 × 16 bytes ≈ 1.3 MB per record: more than the 1 MiB sync split

function insert(id: number): WalRecord {
  const ts = new BigInt64Array(ROWS).fill(BigInt(id));
  const values = new Float64Array(ROWS).fill(id);
  const batch: NormalizedBatch = { ts, columns: [{ type: 'DOUBLE', values, nulls: null }] };
  return { kind: 'TableInsert', name: 't', batch };
}

async function replayedIds(dir: string): Promise<number[]> {
  const ids: number[] = [];
  await replayWal(dir, 0, (r) => {
    assert.equal(r.kind, 'TableInsert');
    const { ts, columns } = (r as Extract<WalRecord, { kind: 'TableInsert' }>).batch;
    assert.equal(ts.length, ROWS);
    assert.ok(ts.every((t) => t === ts[0]) && (columns[0].values as Float64Array).every((v) => v === Number(ts[0])));
    ids.push(Number(ts[0]));
  });
  return ids;
}

describe('WAL writer', () => {
  it('fsync: writers acknowledged together share one fdatasync for their next records', async () => {
    const dir = await tempDir();
    const wal = new WalWriter(dir, 0, 'fsync');
    const small: WalRecord = { kind: 'BlobPut', alias: 'b', data: new Uint8Array(100), mime: 'application/octet-stream', expiry: 0 };
    // The bench's pipelined writer: 8 appends in flight, a new one as soon as the oldest is acknowledged.
    const window = 8;
    const total = 96;
    const inFlight: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      if (i >= window) await inFlight[i % window];
      inFlight[i % window] = wal.append([small]);
    }
    await Promise.all(inFlight);
    // One fdatasync per window of 8 (and the first one alone): 2 per window when the first
    // writer's next record started a sync that the other 7 missed.
    assert.ok(wal.syncRounds <= total / window + 2, `${wal.syncRounds} fdatasync rounds for ${total} records in windows of ${window}`);
    await wal.close();
  });

  it('fsync: overlapping fdatasyncs acknowledge writers oldest first; rotations keep the order', async () => {
    const dir = await tempDir();
    const wal = new WalWriter(dir, 0, 'fsync');
    const acked: number[] = [];
    const pending: Promise<void>[] = [];
    for (let id = 0; id < 24; id++) {
      const record = insert(id);
      pending.push(wal.append([record]).then(() => { acked.push(id); }));
      // The arrays are in the log already: scribbling on them must not reach it.
      (record as Extract<WalRecord, { kind: 'TableInsert' }>).batch.ts.fill(-1n);
      if (id % 7 === 6) wal.rotate();
    }
    await wal.drain();
    assert.equal(acked.length, 24, 'drain resolved before every writer was acknowledged');
    await Promise.all(pending);
    assert.deepEqual(acked, [...Array(24).keys()]);
    await wal.close();
    assert.deepEqual(await replayedIds(dir), [...Array(24).keys()]);
  });

  it('os: acknowledged at once, in the log in order', async () => {
    const dir = await tempDir();
    const wal = new WalWriter(dir, 0, 'os');
    for (let id = 0; id < 5; id++) await wal.append([insert(id)]);
    await wal.drain();
    await wal.close();
    assert.deepEqual(await replayedIds(dir), [0, 1, 2, 3, 4]);
  });
});
