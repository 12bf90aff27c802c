// Open/close life cycle of the engine: DatabaseClosed for every call after close, DatabaseLocked
// for a second open of a data directory (same process and another process), takeover of a lock
// left by a dead process, option validation, writes racing close(), and the three durability
// modes (fsync / os keep a WAL that survives a crash; none keeps none and relies on the
// checkpoint taken by a clean close), and StorageFailed once a WAL write fails.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import type { OpenOptions } from '../../engine/database.js';
import { formatOwner, ownerOf } from '../../engine/durability/lock-file.js';
import { SvcError } from '../../engine/errors.js';
import type { Durability } from '../../engine/types.js';
import { copyAside, expectCode, readRows, tempDir } from './helpers.js';

const DATABASE_JS = fileURLToPath(new URL('../../engine/database.js', import.meta.url));

async function walFiles(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'wal'))).filter((n) => n.endsWith('.wal'));
}

describe('close', () => {
  it('every call after close fails with DatabaseClosed; close is idempotent', async () => {
    const db = await Database.open({ dataDir: await tempDir() });
    await db.createBlob('blob', 'x');
    await db.attachTag('blob', 'tag');
    await db.createTable('table', [{ name: 'v', type: 'DOUBLE' }]);
    await db.close();
    await db.close();
    const calls: [string, () => unknown][] = [
      ['createBlob (new alias)', () => db.createBlob('new', 'x')],
      ['createBlob (existing alias)', () => db.createBlob('blob', 'x')],
      ['updateBlob', () => db.updateBlob('blob', 'y')],
      ['updateBlob (a tag)', () => db.updateBlob('tag', 'y')],
      ['getBlob', () => db.getBlob('blob')],
      ['describeBlob', () => db.describeBlob('blob')],
      ['entryType', () => db.entryType('blob')],
      ['findBlobs', () => db.findBlobs('x')],
      ['listAliases', () => db.listAliases('')],
      ['remove', () => db.remove('blob')],
      ['setExpiry', () => db.setExpiry('blob', 0)],
      ['attachTag (unchanged)', () => db.attachTag('blob', 'tag')],
      ['attachTag', () => db.attachTag('blob', 'tag2')],
      ['detachTag', () => db.detachTag('blob', 'tag')],
      ['detachTag (unchanged)', () => db.detachTag('blob', 'tag2')],
      ['getTags', () => db.getTags('blob')],
      ['getTagged', () => db.getTagged('tag')],
      ['createTable', () => db.createTable('t2', [{ name: 'v', type: 'DOUBLE' }])],
      ['createTable ifNotExists (existing)', () => db.createTable('table', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: true })],
      ['dropTable', () => db.dropTable('table')],
      ['dropTable ifExists (missing)', () => db.dropTable('none', true)],
      ['describeTable', () => db.describeTable('table')],
      ['insert', () => db.insert('table', { $timestamp: [1n], v: [1] })],
      ['insert (empty batch)', () => db.insert('table', { $timestamp: [] })],
      ['insertRows', () => db.insertRows('table', [{ $timestamp: 1n, v: 1 }])],
      ['findEntries', () => db.findEntries({ withTags: [], withoutTags: [], types: [] })],
      ['checkpoint', () => db.checkpoint()],
      ['query', () => db.query('SELECT 1')],
    ];
    for (const [name, call] of calls) {
      await expectCode(call, 'DatabaseClosed').catch((e: Error) => assert.fail(`${name}: ${e.message}`));
    }
    assert.equal(await db.sweep(), 0);
  });

  it('writes committed before close are all durable; writes that lose the race fail cleanly', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    await db.createTable('t', [{ name: 'v', type: 'INT64' }]);
    const inserts = Array.from({ length: 50 }, (_, i) => db.insert('t', { $timestamp: [BigInt(i)], v: [i] }));
    const settled = Promise.allSettled(Array.from({ length: 20 }, (_, i) => db.createBlob(`b${i}`, `content ${i}`)));
    await db.close();
    await Promise.all(inserts);
    const outcomes = await settled;
    for (const o of outcomes) if (o.status === 'rejected') assert.equal((o.reason as SvcError).code, 'DatabaseClosed');
    const reopened = await Database.open({ dataDir });
    try {
      assert.equal(reopened.describeTable('t').rowCount, 50);
      for (const [i, o] of outcomes.entries()) {
        if (o.status === 'fulfilled') assert.equal(Buffer.from(await reopened.getBlob(`b${i}`)).toString(), `content ${i}`);
        else await assert.rejects(reopened.getBlob(`b${i}`), { code: 'AliasNotFound' });
      }
    } finally {
      await reopened.close();
    }
  });
});

describe('lock', () => {
  it('a second open of the same directory fails with DatabaseLocked until the first closes', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    await db.createBlob('a', 'x');
    await expectCode(() => Database.open({ dataDir }), 'DatabaseLocked', /in use by process \d+ \(this process\)/);
    // The failed open left the first database intact and working.
    await db.createBlob('b', 'y');
    await db.close();
    const again = await Database.open({ dataDir });
    assert.deepEqual(again.listAliases('').aliases, ['a', 'b']);
    await again.close();
  });

  it('another process cannot open a directory in use', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    const script = `
      const { Database } = await import(${JSON.stringify(DATABASE_JS)});
      try { await Database.open({ dataDir: ${JSON.stringify(dataDir)} }); console.log('opened'); }
      catch (e) { console.log(e.code + ': ' + e.message); }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    await new Promise((resolve) => child.on('exit', resolve));
    assert.match(out, new RegExp(`^DatabaseLocked: .*in use by process ${process.pid}`));
    await db.close();
  });

  it('a lock left by a dead process (or unreadable) is taken over', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    for (const content of [String(dead), 'garbage', '']) {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'LOCK'), content);
      const db = await Database.open({ dataDir });
      assert.equal((await readFile(join(dataDir, 'LOCK'), 'utf8')), formatOwner(ownerOf(process.pid)!));
      await db.close();
      await assert.rejects(readFile(join(dataDir, 'LOCK')), { code: 'ENOENT' });
    }
  });

  // After a container restart the new process often gets the pid the old owner had: a lock with
  // this very pid but another start time or boot is stale, not "in use by this process".
  it('a lock with this process\'s pid but another start time or boot is stale and taken over', async () => {
    const me = ownerOf(process.pid)!;
    assert.ok(me.bootId !== '' && me.startTime !== '', 'this test needs /proc');
    const stale = [
      { ...me, startTime: String(Number(me.startTime) + 1) },
      { ...me, bootId: '00000000-0000-0000-0000-000000000000' },
    ];
    for (const owner of stale) {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'LOCK'), formatOwner(owner));
      const db = await Database.open({ dataDir });
      assert.equal(await readFile(join(dataDir, 'LOCK'), 'utf8'), formatOwner(me));
      await db.close();
    }
  });

  // PostgreSQL's postmaster.pid rule: our own pid names us only while we have the directory open.
  // The older format held just a pid, and such a lock used to block this process forever.
  it('a lock naming this process while it has no database open there is stale and taken over', async () => {
    const me = ownerOf(process.pid)!;
    for (const content of [`${process.pid}\n`, formatOwner(me)]) {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'LOCK'), content);
      const db = await Database.open({ dataDir });
      assert.equal(await readFile(join(dataDir, 'LOCK'), 'utf8'), formatOwner(me));
      // Held now: the same directory, even by another path to it, is refused.
      await expectCode(() => Database.open({ dataDir: join(dataDir, '.') }), 'DatabaseLocked', /\(this process\)/);
      await db.close();
    }
  });

  it('a live owner is refused: this process, or another one recorded with its start time', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    await expectCode(() => Database.open({ dataDir }), 'DatabaseLocked', new RegExp(`in use by process ${process.pid} \\(this process\\)`));
    await db.close();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const other = ownerOf(child.pid!)!;
      assert.ok(other !== null);
      await writeFile(join(dataDir, 'LOCK'), formatOwner(other));
      await expectCode(() => Database.open({ dataDir }), 'DatabaseLocked', new RegExp(`in use by process ${child.pid}`));
      // The same pid recorded with another start time is someone else, long gone.
      await writeFile(join(dataDir, 'LOCK'), formatOwner({ ...other, startTime: String(Number(other.startTime) - 1) }));
      await (await Database.open({ dataDir })).close();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a failed open releases the lock', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    await db.createBlob('x', 'y');
    await db.close();
    const manifest = (await readdir(join(dataDir, 'checkpoints'))).find((n) => n.endsWith('.manifest'))!;
    await writeFile(join(dataDir, 'checkpoints', manifest), 'broken');
    await expectCode(() => Database.open({ dataDir }), 'CheckpointCorrupt');
    await assert.rejects(readFile(join(dataDir, 'LOCK')), { code: 'ENOENT' });
  });
});

describe('options', () => {
  const bad: [name: string, options: Record<string, unknown>, message: RegExp][] = [
    ['an unknown durability', { durability: 'sometimes' }, /durability must be fsync, os or none/],
    ['batchRows 0 (looped forever)', { batchRows: 0 }, /batchRows must be an integer from 1 to 16777216, got 0/],
    ['batchRows fractional', { batchRows: 1.5 }, /batchRows must be an integer/],
    ['batchRows too big', { batchRows: 2 ** 24 + 1 }, /batchRows must be an integer from 1 to 16777216/],
    ['batchRows a string', { batchRows: '100' }, /batchRows must be an integer/],
    ['checkpointWalBytes NaN', { checkpointWalBytes: Number.NaN }, /checkpointWalBytes must be an integer from 1 /],
    ['checkpointWalBytes negative', { checkpointWalBytes: -1 }, /checkpointWalBytes must be an integer from 1 /],
    ['walSegmentBytes under 1 KiB', { walSegmentBytes: 1023 }, /walSegmentBytes must be an integer from 1024 to 2147483647, got 1023/],
    ['walSegmentBytes Infinity', { walSegmentBytes: Number.POSITIVE_INFINITY }, /walSegmentBytes must be an integer/],
    ['sweepIntervalMs negative', { sweepIntervalMs: -5 }, /sweepIntervalMs must be an integer from 0 /],
    ['log not a function', { log: 'console' }, /log must be a function/],
  ];
  for (const [name, extra, message] of bad) {
    it(`${name} → InvalidArgument saying the limit, before anything is created`, async () => {
      const dataDir = join(await tempDir(), 'data');
      await expectCode(() => Database.open({ dataDir, ...extra } as OpenOptions), 'InvalidArgument', message);
      await assert.rejects(readdir(dataDir), { code: 'ENOENT' });
    });
  }

  it('a missing or empty dataDir → InvalidArgument', async () => {
    await expectCode(() => Database.open({} as OpenOptions), 'InvalidArgument', /dataDir/);
    await expectCode(() => Database.open({ dataDir: '' }), 'InvalidArgument', /dataDir/);
    await expectCode(() => Database.open(undefined as unknown as OpenOptions), 'InvalidArgument', /dataDir/);
  });

  it('a dataDir that is a file → StorageFailed naming the path (no raw fs error)', async () => {
    const file = join(await tempDir(), 'plain-file');
    await writeFile(file, 'x');
    const e = await expectCode(() => Database.open({ dataDir: file }), 'StorageFailed');
    assert.ok(e.message.includes(file), e.message);
  });

  it('creates a missing data directory, nested', async () => {
    const dataDir = join(await tempDir(), 'a', 'b', 'c');
    const db = await Database.open({ dataDir });
    assert.equal(db.dataDir, dataDir);
    assert.equal(db.durability, 'fsync');
    assert.equal(db.hasFailed, false);
    await db.close();
    assert.deepEqual((await readdir(dataDir)).sort(), ['checkpoints', 'wal']);
  });
});

describe('durability modes', () => {
  for (const durability of ['fsync', 'os', 'none'] as const) {
    it(`${durability}: acknowledged writes survive a clean close${durability === 'none' ? '' : ' and a crash'}`, async () => {
      const dataDir = await tempDir();
      const db = await Database.open({ dataDir, durability });
      assert.equal(db.durability, durability);
      await db.createBlob('blob', 'content');
      await db.attachTag('blob', 'tag');
      await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'y', type: 'SYMBOL' }]);
      await db.insert('t', { $timestamp: [3n, 1n, 2n], v: [3, 1, null], y: ['c', null, 'b'] });
      const expected = [
        { $timestamp: 1n, v: 1, y: null },
        { $timestamp: 2n, v: null, y: 'b' },
        { $timestamp: 3n, v: 3, y: 'c' },
      ];
      // A crash now: the directory as it is while the database is open.
      const crashed = await copyAside(dataDir);
      if (durability === 'none') assert.deepEqual(await walFiles(dataDir), []);
      else assert.equal((await walFiles(dataDir)).length, 1);
      await db.close();

      const recovered = await Database.open({ dataDir: crashed, durability });
      if (durability === 'none') {
        assert.deepEqual(recovered.listAliases('').aliases, []);
      } else {
        assert.deepEqual(recovered.listAliases('').aliases, ['blob', 't', 'tag']);
        assert.deepEqual(readRows(recovered, 't'), expected);
      }
      await recovered.close();

      // A clean close took a checkpoint: every mode reopens with everything, in any mode.
      for (const reopenAs of ['fsync', 'none'] as const) {
        const reopened = await Database.open({ dataDir, durability: reopenAs });
        assert.equal(Buffer.from(await reopened.getBlob('blob')).toString(), 'content');
        assert.deepEqual(reopened.getTagged('tag').aliases, ['blob']);
        assert.deepEqual(readRows(reopened, 't'), expected);
        await reopened.close();
      }
    });
  }
});

describe('storage failure', () => {
  it('a failed WAL write → StorageFailed; the database then refuses writes and checkpoints', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir });
    // The first write opens segment 0: a directory in its place makes that open fail.
    const segment = join(dataDir, 'wal', '000000000000.wal');
    await mkdir(segment);
    await expectCode(() => db.createBlob('lost', 'x'), 'StorageFailed');
    assert.equal(db.hasFailed, true);
    // The write failed before anything was applied: the blob is not there, even in memory.
    await expectCode(() => db.getBlob('lost'), 'AliasNotFound');
    await expectCode(() => db.createBlob('other', 'y'), 'StorageFailed', /stopped accepting writes/);
    await expectCode(() => db.createTable('table', [{ name: 'v', type: 'DOUBLE' }]), 'StorageFailed');
    await expectCode(() => db.checkpoint(), 'StorageFailed');
    assert.equal(await db.sweep(), 0);
    await db.close();
    assert.deepEqual((await readdir(join(dataDir, 'checkpoints'))).filter((n) => !n.endsWith('.tmp')), []);
    await rmdir(segment);
    // Nothing that failed became durable.
    const reopened = await Database.open({ dataDir });
    assert.deepEqual(reopened.listAliases('').aliases, []);
    await reopened.close();
  });
});
