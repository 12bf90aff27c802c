// WAL and checkpoint torture. A log is produced by the engine itself (the data directory copied
// aside while the database is open, so no checkpoint is taken), then damaged on disk:
// - the last record cut at every byte offset opens cleanly without that record, earlier data
//   intact, the torn bytes truncated (so later writes replay after it), and the cut logged;
// - a flipped byte anywhere in the header and in sampled payload bytes of every earlier record
//   (and in an earlier segment, or a record cut short there) fails the open with WalCorrupt
//   naming the file and the record's byte offset, leaving the file untouched;
// - a flipped byte, a truncation, an extra byte or a missing file in a checkpoint (its
//   manifest, entries file, one Arrow file per table) fails the open with CheckpointCorrupt
//   naming the file;
// - leftovers of a checkpoint interrupted by a crash (an older manifest, its files and the WAL
//   it covers not yet deleted, a half-written manifest .tmp and data file of the next one) are
//   ignored and cleaned up, nothing twice.
import assert from 'node:assert/strict';
import { cp, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { crc32c } from '@node-rs/crc32';
import { Database } from '../../engine/database.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../../engine/durability/checkpoint/manifest.js';
import type { Manifest } from '../../engine/durability/checkpoint/manifest.js';
import { copyAside, expectCode, prng, randInt, readRows, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

interface Frame { readonly offset: number; readonly end: number }

/** A segment starts with 16 bytes: magic `svc-wal\n`, u32 format version, u32 crc32c of those 12. */
const SEGMENT_HEADER = 16;

/** Record boundaries of a segment, parsed independently of the engine: [u32 len][u32 crc][payload]. */
function frames(buf: Buffer): Frame[] {
  const out: Frame[] = [];
  for (let at = SEGMENT_HEADER; at < buf.length;) {
    const end = at + 8 + buf.readUInt32LE(at);
    assert.ok(end <= buf.length, 'the engine wrote a torn segment');
    out.push({ offset: at, end });
    at = end;
  }
  return out;
}

async function segments(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'wal'))).filter((n) => n.endsWith('.wal')).sort();
}

async function fresh(base: string): Promise<string> {
  const dir = await tempDir('svc-torture-');
  await cp(base, dir, { recursive: true });
  return dir;
}

const ROWS: Row[] = [
  { $timestamp: 1n, v: 1.5, s: 'a' },
  { $timestamp: 2n, v: null, s: 'b' },
  { $timestamp: 3n, v: 3.5, s: null },
];

/** Writes the common records, then `last` as the final record; returns a crash copy (WAL only). */
async function logWith(last: (db: Database) => Promise<void>): Promise<string> {
  const dataDir = await tempDir();
  const db = await Database.open({ dataDir, checkpointWalBytes: 1 << 30, sweepIntervalMs: 0 });
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }]);
  await db.insert('t', { $timestamp: ROWS.map((r) => r.$timestamp), v: ROWS.map((r) => r.v), s: ROWS.map((r) => r.s) });
  await db.createBlob('b1', 'first blob');
  await db.attachTag('b1', 'tag');
  await db.createBlob('b2', new Uint8Array(300).fill(7));
  await last(db);
  const copy = await copyAside(dataDir);
  await db.close();
  assert.deepEqual((await readdir(join(copy, 'checkpoints'))), []);
  return copy;
}

async function checkEarlierState(db: Database): Promise<void> {
  assert.deepEqual(readRows(db, 't'), ROWS);
  assert.equal(Buffer.from(await db.getBlob('b1')).toString(), 'first blob');
  assert.deepEqual(await db.getBlob('b2'), new Uint8Array(300).fill(7));
  assert.deepEqual(db.getTagged('tag').aliases, ['b1']);
}

const lastRecords: { name: string; write: (db: Database) => Promise<void>; isAbsent: (db: Database) => Promise<void> }[] = [
  {
    name: 'a blob',
    write: (db) => db.createBlob('last', 'the last record'),
    isAbsent: (db) => assert.rejects(db.getBlob('last'), { code: 'AliasNotFound' }),
  },
  {
    name: 'a table insert',
    write: (db) => db.insert('t', { $timestamp: [10n, 11n], v: [10, 11], s: ['late', null] }),
    isAbsent: async (db) => assert.equal(db.describeTable('t').rowCount, ROWS.length),
  },
];

describe('WAL torn at the end', () => {
  for (const last of lastRecords) {
    it(`cutting the last record (${last.name}) at every byte offset opens cleanly without it`, async () => {
      const base = await logWith(last.write);
      const [segment] = await segments(base);
      const original = await readFile(join(base, 'wal', segment));
      const all = frames(original);
      const { offset, end } = all[all.length - 1];
      // The intact log has the record.
      {
        const db = await Database.open({ dataDir: await fresh(base), sweepIntervalMs: 0 });
        await assert.rejects(last.isAbsent(db));
        await db.close();
      }
      for (let cut = offset; cut < end; cut++) {
        const dir = await fresh(base);
        const file = join(dir, 'wal', segment);
        await truncate(file, cut);
        const log: string[] = [];
        const db = await Database.open({ dataDir: dir, sweepIntervalMs: 0, log: (m) => log.push(m) });
        try {
          await last.isAbsent(db);
          await checkEarlierState(db);
          assert.equal((await stat(file)).size, offset, `cut ${cut}: the torn bytes are truncated`);
          if (cut === offset) assert.deepEqual(log, [], 'a cut at a record boundary is not a torn record');
          else assert.ok(log.some((m) => m.includes(file) && m.includes(`offset ${offset}`)), `cut ${cut}: ${log.join('; ')}`);
          // Recovery composes: a write after the cut, then another crash, replays both segments.
          if (cut === offset + 1 || cut === end - 1) {
            await db.createBlob('after', 'written after recovery');
            const crashedAgain = await copyAside(dir);
            const again = await Database.open({ dataDir: crashedAgain, sweepIntervalMs: 0 });
            await last.isAbsent(again);
            await checkEarlierState(again);
            assert.equal(Buffer.from(await again.getBlob('after')).toString(), 'written after recovery');
            await again.close();
          }
        } finally {
          await db.close();
        }
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('WAL damaged before the end', () => {
  let base: string;
  let segment: string;
  let original: Buffer;
  let records: Frame[];
  before(async () => {
    base = await logWith((db) => db.createBlob('last', 'the last record'));
    [segment] = await segments(base);
    original = await readFile(join(base, 'wal', segment));
    records = frames(original).slice(0, -1);
    assert.ok(records.length >= 5);
  });

  it('a flipped byte in any earlier record → WalCorrupt naming the file and the record offset', async () => {
    const seed = Date.now() % 100_000;
    const rand = prng(seed);
    for (const [index, { offset, end }] of records.entries()) {
      // Every header byte (length and checksum), the payload's ends, and random payload bytes.
      const positions = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, end - offset - 1].map((p) => offset + p));
      for (let i = 0; i < 6; i++) positions.add(randInt(rand, offset + 8, end - 1));
      for (const position of positions) {
        for (const mask of [0xff, 1 << randInt(rand, 0, 7)]) {
          const dir = await fresh(base);
          const file = join(dir, 'wal', segment);
          const damaged = Buffer.from(original);
          damaged[position] ^= mask;
          await writeFile(file, damaged);
          const what = `record ${index} at ${offset}, byte ${position} ^ 0x${mask.toString(16)} (seed ${seed})`;
          const e = await expectCode(() => Database.open({ dataDir: dir, sweepIntervalMs: 0 }), 'WalCorrupt').catch((err: Error) => assert.fail(`${what}: ${err.message}`));
          assert.ok(e.message.includes(file), `${what}: ${e.message}`);
          assert.ok(e.message.includes(`byte offset ${offset}`), `${what}: ${e.message}`);
          assert.deepEqual(await readFile(file), damaged, `${what}: a failed open must not change the log`);
          await rm(dir, { recursive: true, force: true });
        }
      }
    }
  });

  it('damage in an earlier segment (flipped or cut short) → WalCorrupt naming that segment', async () => {
    // Recover the crash copy (it continues in a new segment), write more, crash again.
    const dir = await fresh(base);
    const db = await Database.open({ dataDir: dir, sweepIntervalMs: 0 });
    await db.createBlob('second-segment', 'x');
    const twoSegments = await copyAside(dir);
    await db.close();
    const names = await segments(twoSegments);
    assert.equal(names.length, 2);
    const { offset, end } = records[2];

    const flipped = await fresh(twoSegments);
    const flippedBytes = Buffer.from(original);
    flippedBytes[end - 1] ^= 0x20;
    await writeFile(join(flipped, 'wal', names[0]), flippedBytes);
    const e1 = await expectCode(() => Database.open({ dataDir: flipped }), 'WalCorrupt');
    assert.ok(e1.message.includes(join(flipped, 'wal', names[0])) && e1.message.includes(`byte offset ${offset}`), e1.message);

    const cut = await fresh(twoSegments);
    const last = frames(original).at(-1)!;
    await truncate(join(cut, 'wal', names[0]), last.offset + 3);
    const e2 = await expectCode(() => Database.open({ dataDir: cut }), 'WalCorrupt');
    assert.ok(e2.message.includes(join(cut, 'wal', names[0])) && e2.message.includes(`byte offset ${last.offset}`), e2.message);

    // Undamaged, both segments replay.
    const intact = await Database.open({ dataDir: twoSegments });
    await checkEarlierState(intact);
    assert.deepEqual(intact.listAliases('').aliases, ['b1', 'b2', 'last', 'second-segment', 't', 'tag']);
    await intact.close();
  });
});

/**
 * The bytes of checkpoint file `name` open reads (a table file's head, when it is the newest
 * file of a table with SYMBOL columns) and those read back with columns.
 */
function usedBytes(m: Manifest, name: string): { atOpen: [number, number][]; whenRead: [number, number][] } {
  const atOpen: [number, number][] = [];
  const whenRead: [number, number][] = [];
  for (const t of m.tables) {
    for (const ref of t.batches) {
      if (ref.file !== name) continue;
      for (const [, at, size] of ref.columns!) whenRead.push([at, at + size]);
    }
    // The head of a table's newest file: its SYMBOL dictionaries.
    const newest = t.batches.map((b) => b.file).sort().at(-1);
    if (newest === name && t.columns.some((c) => c.type === 'SYMBOL')) atOpen.push([0, m.files[name].ends[0]]);
  }
  return { atOpen, whenRead };
}
describe('WAL segment header', () => {
  let base: string;
  let segment: string;
  let original: Buffer;
  before(async () => {
    base = await logWith((db) => db.createBlob('last', 'the last record'));
    [segment] = await segments(base);
    original = await readFile(join(base, 'wal', segment));
  });

  async function openWith(bytes: Buffer): Promise<{ dir: string; file: string; open: () => Promise<Database> }> {
    const dir = await fresh(base);
    const file = join(dir, 'wal', segment);
    await writeFile(file, bytes);
    return { dir, file, open: () => Database.open({ dataDir: dir, sweepIntervalMs: 0 }) };
  }

  it('starts every segment: magic, format version 1, crc32c of both', () => {
    assert.equal(original.subarray(0, 8).toString('latin1'), 'svc-wal\n');
    assert.equal(original.readUInt32LE(8), 1);
    assert.equal(original.readUInt32LE(12), crc32c(original.subarray(0, 12)) >>> 0);
  });

  it('a flipped byte anywhere in the header → WalCorrupt at byte offset 0, the file untouched', async () => {
    for (let position = 0; position < SEGMENT_HEADER; position++) {
      const damaged = Buffer.from(original);
      damaged[position] ^= 0x10;
      const { dir, file, open } = await openWith(damaged);
      const e = await expectCode(open, 'WalCorrupt');
      assert.ok(e.message.includes(file) && e.message.includes('byte offset 0'), `byte ${position}: ${e.message}`);
      assert.deepEqual(await readFile(file), damaged);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a newer format version → WalCorrupt saying so', async () => {
    const newer = Buffer.from(original);
    newer.writeUInt32LE(2, 8);
    newer.writeUInt32LE(crc32c(newer.subarray(0, 12)) >>> 0, 12);
    const { dir, open } = await openWith(newer);
    await expectCode(open, 'WalCorrupt', /format version 2 is newer/);
    await rm(dir, { recursive: true, force: true });
  });

  it('a headerless segment of an earlier svc (format 0) still replays', async () => {
    const { dir, open } = await openWith(original.subarray(SEGMENT_HEADER));
    const db = await open();
    await checkEarlierState(db);
    assert.equal(Buffer.from(await db.getBlob('last')).toString(), 'the last record');
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a last segment cut inside its header opens empty and is cut to 0 bytes; in an earlier segment it is damage', async () => {
    for (let cut = 1; cut < SEGMENT_HEADER; cut++) {
      const { dir, file, open } = await openWith(original.subarray(0, cut));
      const db = await open();
      assert.deepEqual(db.listAliases('').aliases, []);
      assert.equal((await stat(file)).size, 0, `cut ${cut}`);
      await db.createBlob('after', 'x');
      const crashed = await copyAside(dir);
      await db.close();
      // The same cut in a segment followed by another one is damage.
      const earlier = await fresh(crashed);
      await writeFile(join(earlier, 'wal', segment), original.subarray(0, cut));
      const again = await Database.open({ dataDir: crashed, sweepIntervalMs: 0 });
      assert.deepEqual(again.listAliases('').aliases, ['after']);
      await again.close();
      await expectCode(() => Database.open({ dataDir: earlier, sweepIntervalMs: 0 }), 'WalCorrupt', /segment header is cut short/);
      await rm(dir, { recursive: true, force: true });
      await rm(earlier, { recursive: true, force: true });
    }
  });

  it('an empty segment before the last one (a log cut back to 0 bytes on a full disk, then rotated) holds nothing and is passed over', async () => {
    const { dir, open } = await openWith(original);
    const db = await open();
    const before = db.listAliases('').aliases;
    await db.createBlob('after', 'x');
    const crashed = await copyAside(dir);
    await db.close();
    // The last segment moves one number up; an empty segment takes its place, before it.
    const last = (await segments(crashed)).at(-1)!;
    const next = `${String(Number.parseInt(last, 10) + 1).padStart(last.indexOf('.'), '0')}.wal`;
    await rename(join(crashed, 'wal', last), join(crashed, 'wal', next));
    await writeFile(join(crashed, 'wal', last), Buffer.alloc(0));
    const again = await Database.open({ dataDir: crashed, sweepIntervalMs: 0 });
    assert.deepEqual(again.listAliases('').aliases.sort(), [...before, 'after'].sort());
    await again.close();
    await rm(dir, { recursive: true, force: true });
    await rm(crashed, { recursive: true, force: true });
  });
});

describe('checkpoint damaged', () => {
  let base: string;
  let files: string[];
  before(async () => {
    base = await tempDir();
    const db = await Database.open({ dataDir: base, sweepIntervalMs: 0 });
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }]);
    await db.insert('t', { $timestamp: ROWS.map((r) => r.$timestamp), v: ROWS.map((r) => r.v), s: ROWS.map((r) => r.s) });
    await db.createTable('u', [{ name: 'i', type: 'INT64' }]);
    await db.insertRows('u', [{ $timestamp: 5n, i: 5n }]);
    await db.createBlob('b1', 'first blob');
    await db.attachTag('b1', 'tag');
    await db.createBlob('b2', new Uint8Array(300).fill(7));
    await db.close();
    // FORMAT only marks that a checkpoint once completed; the rest is the checkpoint.
    files = (await readdir(join(base, 'checkpoints'))).filter((n) => n !== 'FORMAT').sort();
    assert.equal(files.length, 5);
    assert.match(files.join(' '), /^(\d{12})-0\.cols \1-1\.cols \1-b0\.bin \1-e0\.bin \1\.manifest$/);
    const ok = await Database.open({ dataDir: await fresh(base) });
    await checkEarlierState(ok);
    await ok.close();
  });

  // Open reads manifests and entries files whole, of table files only the region holding a
  // table's SYMBOL dictionaries, and no blob file: column data and blob contents are checked
  // when they are read back. A flip elsewhere in a table file (IPC metadata, padding) is never
  // read, and changes no answer; every byte of a blob file belongs to some blob's frame.
  it('a flipped byte in any checkpoint file → CheckpointCorrupt naming the file, at open or when the data it damages is read', async () => {
    const rand = prng(7);
    const manifest = await readManifest(checkpointsDir(base), (await listManifests(checkpointsDir(base))).at(-1)!, (p) => new Error(`damaged ${p}`));
    for (const name of files) {
      const original = await readFile(join(base, 'checkpoints', name));
      const positions = new Set([0, 3, 4, Math.floor(original.length / 2), original.length - 1]);
      for (let i = 0; i < 4; i++) positions.add(randInt(rand, 0, original.length - 1));
      const { atOpen, whenRead } = usedBytes(manifest, name);
      const isLazy = name.endsWith('.cols') || /-b\d+\.bin$/.test(name);
      if (/-b\d+\.bin$/.test(name)) whenRead.push([0, original.length]);
      if (name.endsWith('.cols')) for (const [a, b] of whenRead) positions.add(randInt(rand, a, b - 1));
      for (const position of positions) {
        const dir = await fresh(base);
        const file = join(dir, 'checkpoints', name);
        const damaged = Buffer.from(original);
        damaged[position] ^= 1 << randInt(rand, 0, 7);
        await writeFile(file, damaged);
        const where = `${name} byte ${position}`;
        const isIn = (spans: [number, number][]) => spans.some(([a, b]) => position >= a && position < b);
        if (!isLazy || isIn(atOpen)) {
          const e = await expectCode(() => Database.open({ dataDir: dir }), 'CheckpointCorrupt').catch((err: Error) => assert.fail(`${where}: ${err.message}`));
          assert.ok(e.message.includes(file), e.message);
        } else {
          const db = await Database.open({ dataDir: dir });
          const read = async () => { await checkEarlierState(db); assert.deepEqual(readRows(db, 'u'), [{ $timestamp: 5n, i: 5n }]); };
          if (isIn(whenRead)) {
            const e = await expectCode(read, 'CheckpointCorrupt').catch((err: Error) => assert.fail(`${where}: ${err.message}`));
            assert.ok(e.message.includes(name), e.message);
          } else {
            await read();
          }
          await db.close();
        }
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it('a truncated, extended or missing checkpoint file → CheckpointCorrupt', async () => {
    for (const name of files) {
      const original = await readFile(join(base, 'checkpoints', name));
      const damages: [string, (file: string) => Promise<void>][] = [
        ['truncated', (file) => truncate(file, original.length - 1)],
        ['emptied', (file) => truncate(file, 0)],
        ['extended', (file) => writeFile(file, Buffer.concat([original, Buffer.of(0)]))],
        ['missing', (file) => rm(file)],
      ];
      for (const [how, damage] of damages) {
        const dir = await fresh(base);
        const file = join(dir, 'checkpoints', name);
        await damage(file);
        await expectCode(() => Database.open({ dataDir: dir }), 'CheckpointCorrupt').catch((err: Error) => assert.fail(`${name} ${how}: ${err.message}`));
        await rm(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('checkpoint interrupted by a crash', () => {
  it('an older checkpoint, the WAL it covers and a .tmp directory are ignored, then removed', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir, checkpointWalBytes: 1 << 30, sweepIntervalMs: 0 });
    await db.createTable('t', [{ name: 'v', type: 'INT64' }]);
    const put = (from: number) => db.insert('t', { $timestamp: [BigInt(from), BigInt(from + 1)], v: [from, from + 1] });
    await put(0);
    await db.createBlob('b1', 'one');
    const beforeFirst = await copyAside(dataDir); // the WAL segment the first checkpoint covers
    await db.checkpoint();
    const first = await copyAside(dataDir); // the first checkpoint
    await put(10);
    await db.createBlob('b2', 'two');
    await db.checkpoint();
    await put(20);
    const crashed = await copyAside(dataDir);
    await db.close();

    // As if the crash came before the old checkpoint and WAL were deleted, and mid-way through
    // writing a third checkpoint (a data file written, the manifest not yet renamed).
    const [oldSegment] = await segments(beforeFirst);
    const latestFiles = (await readdir(join(crashed, 'checkpoints'))).sort();
    const [oldManifest] = (await readdir(join(first, 'checkpoints'))).filter((n) => n.endsWith('.manifest'));
    const [latest] = latestFiles.filter((n) => n.endsWith('.manifest'));
    assert.ok(oldManifest < latest);
    await cp(join(beforeFirst, 'wal', oldSegment), join(crashed, 'wal', oldSegment));
    for (const name of await readdir(join(first, 'checkpoints'))) await cp(join(first, 'checkpoints', name), join(crashed, 'checkpoints', name), { force: false });
    const next = String(Number(latest.slice(0, 12)) + 1).padStart(12, '0');
    await writeFile(join(crashed, 'checkpoints', `${next}.manifest.tmp`), 'half written');
    await writeFile(join(crashed, 'checkpoints', `${next}-0.cols`), 'half written');
    assert.ok((await readdir(join(crashed, 'checkpoints'))).length > latestFiles.length + 2);

    const recovered = await Database.open({ dataDir: crashed, sweepIntervalMs: 0 });
    assert.deepEqual(readRows(recovered, 't').map((r) => r.v), [0n, 1n, 10n, 11n, 20n, 21n]);
    assert.deepEqual(recovered.listAliases('').aliases, ['b1', 'b2', 't']);
    assert.deepEqual((await readdir(join(crashed, 'checkpoints'))).sort(), latestFiles);
    assert.ok(!(await segments(crashed)).includes(oldSegment));
    await recovered.close();
  });
});
