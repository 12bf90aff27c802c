// The disk guard on its own, over a file system whose figures the test sets (no timer: the test
// polls): the default floor, full below it and ok again once space returns (no restart), the
// writers' bytes counted between polls so a fast writer cannot pass the floor unseen, an ENOSPC
// holding the state until what the failed write needed is free, a failure that only a restart
// ends, and the refusal naming the free bytes, the floor and the option.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiskGuard, defaultFloor } from '../../engine/durability/disk-guard.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** A file system of `total` bytes whose free bytes the test sets. */
function fakeDisk(total: number, free: number) {
  const disk = { free, polls: 0 };
  const statfs = async () => {
    disk.polls++;
    return { bsize: 4096, blocks: Math.floor(total / 4096), bavail: Math.floor(disk.free / 4096) };
  };
  return { disk, statfs };
}

async function guardOn(total: number, free: number, floor: number | undefined) {
  const { disk, statfs } = fakeDisk(total, free);
  const log: string[] = [];
  const guard = await DiskGuard.open('/data', floor, { statfs, isPolling: false, log: (m) => log.push(m) });
  return { guard, disk, log };
}

describe('disk guard', () => {
  it('default floor: 1 GiB, or 5 % of the disk when smaller', async () => {
    assert.equal(defaultFloor(100 * GIB), GIB);
    assert.equal(defaultFloor(10 * GIB), Math.floor(0.5 * GIB));
    const { guard } = await guardOn(64 * MIB, 60 * MIB, undefined);
    assert.equal(guard.floor, Math.floor(64 * MIB * 0.05));
    assert.equal(guard.state, 'ok');
    assert.deepEqual(guard.figures(), { state: 'ok', free: 60 * MIB, total: 64 * MIB, floor: Math.floor(64 * MIB * 0.05), refusals: 0, noSpaceErrors: 0 });
  });

  it('below the floor → full, with a refusal naming free bytes, floor and option; space back → ok by itself', async () => {
    const { guard, disk, log } = await guardOn(GIB, 500 * MIB, 100 * MIB);
    disk.free = 40 * MIB;
    await guard.poll();
    assert.equal(guard.isFull, true);
    const e = guard.refusal();
    assert.equal(e.code, 'StorageFull');
    assert.match(e.message, new RegExp(`${40 * MIB} bytes, below the floor of ${100 * MIB} bytes \\(--min-free-disk / minFreeDisk\\)`));
    assert.match(e.message, /reads, removals and DROP TABLE go on/);
    assert.equal(guard.figures().refusals, 1);
    const space = guard.whenSpace();
    assert.ok(space !== null);
    let isBack = false;
    void space.then(() => { isBack = true; });
    disk.free = 300 * MIB;
    await guard.poll();
    await space;
    assert.equal(isBack, true);
    assert.equal(guard.state, 'ok');
    assert.equal(guard.whenSpace(), null);
    assert.equal(log.length, 2, log.join('\n'));
    assert.match(log[0], /below the floor/);
    assert.match(log[1], /writes are accepted again/);
  });

  it('bytes written between polls count: crossing the floor is full at once, and a poll corrects a low estimate', async () => {
    const { guard, disk } = await guardOn(GIB, 200 * MIB, 100 * MIB);
    guard.charge(60 * MIB);
    assert.equal(guard.state, 'ok');
    assert.equal(guard.free, 140 * MIB);
    disk.free = 80 * MIB; // what the writes took
    const pollsBefore = disk.polls;
    guard.charge(60 * MIB);
    assert.equal(guard.state, 'full', 'the writer passed the floor between two polls');
    assert.ok(disk.polls > pollsBefore, 'crossing the floor asks for a poll');
    await guard.poll();
    assert.equal(guard.state, 'full');
    assert.equal(guard.free, 80 * MIB);
    // Files deleted since the last poll: the estimate is low, and the poll it asks for says so.
    disk.free = 600 * MIB;
    await guard.poll();
    disk.free = 900 * MIB;
    guard.charge(550 * MIB);
    assert.equal(guard.state, 'full');
    await guard.poll();
    assert.equal(guard.state, 'ok');
    assert.equal(guard.free, 900 * MIB);
  });

  it('an ENOSPC is full until what the failed write needed is free, even with the floor at 0', async () => {
    const { guard, disk } = await guardOn(GIB, 5 * MIB, 0);
    disk.free = 4096;
    guard.noteNoSpace(2 * MIB);
    assert.equal(guard.isFull, true);
    assert.match(guard.refusal().message, /a write of 2097152 bytes met "no space left on device"/);
    disk.free = MIB;
    await guard.poll();
    assert.equal(guard.isFull, true, 'not enough for the write that failed');
    disk.free = 3 * MIB;
    await guard.poll();
    assert.equal(guard.state, 'ok');
    assert.equal(guard.figures().noSpaceErrors, 1);
  });

  it('a failed log write or fsync is failed for good: space does not end it', async () => {
    const { guard, disk } = await guardOn(GIB, 500 * MIB, 100 * MIB);
    guard.noteFailed();
    disk.free = 900 * MIB;
    await guard.poll();
    assert.equal(guard.state, 'failed');
    assert.equal(guard.isFull, false, 'failed is not "full": the log refuses writes itself');
  });
});
