// Incremental checkpoints. Over many rounds of writes → checkpoint (late rows rewriting sealed
// batches, SYMBOL dictionaries growing between checkpoints, a table dropped and recreated, blobs
// replaced and removed, tags moved), each reopen — after a clean close or from a crash copy —
// gives exactly the state the database had; the same with limits lowered so every table spans
// many files and every file is read in chunks of a few bytes (the path of files of any size).
// A checkpoint writes only the batches and blobs it has not written before: the files of an
// unchanged table, and the blob files of blobs still there, stay as they are. A child process
// SIGKILLed while it checkpoints leaves a directory that opens with every acknowledged batch and
// blob. Disk errors surface as StorageFailed naming the path.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { crc32c } from '@node-rs/crc32';
import { Database } from '../../engine/database.js';
import { fieldSpan, firstBuffers } from '../../engine/durability/checkpoint/arrow-format/ipc-layout.js';
import { arrowSchema } from '../../engine/storage/arrow-schema.js';
import { ioLimits } from '../../engine/durability/io-limits.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest, writeManifest } from '../../engine/durability/checkpoint/manifest.js';
import type { Manifest } from '../../engine/durability/checkpoint/manifest.js';
import { batchRows, blobOf, TABLE } from './checkpoint-crash-child.js';
import { BATCH_ROWS as FIXTURE_BATCH_ROWS, FIXTURE_DIR, fixtureAnswers } from './checkpoint-fixture.js';
import { copyAside, expectCode, prng, randInt, readRows, tempDir } from './helpers.js';

/** Everything a user can read back from the database, as plain values. */
async function state(db: Database): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const alias of db.listAliases('').aliases) {
    const type = db.entryType(alias);
    const tags = db.getTags(alias).aliases;
    if (type === 'blob') out[alias] = { ...db.describeBlob(alias), data: Buffer.from(await db.getBlob(alias)).toString('hex'), tags };
    else if (type === 'ts') out[alias] = { ...db.describeTable(alias), rows: readRows(db, alias), tags };
    else out[alias] = { type, tagged: db.getTagged(alias).aliases };
  }
  return out;
}

async function latestManifest(dataDir: string): Promise<Manifest> {
  const seq = (await listManifests(checkpointsDir(dataDir))).at(-1)!;
  return readManifest(checkpointsDir(dataDir), seq, (p) => new Error(`damaged ${p}`));
}

async function withLimits<T>(limits: Partial<typeof ioLimits>, run: () => Promise<T>): Promise<T> {
  const saved = { ...ioLimits };
  Object.assign(ioLimits, limits);
  try {
    return await run();
  } finally {
    Object.assign(ioLimits, saved);
  }
}

const COLUMNS = [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }, { name: 'str', type: 'STRING' }, { name: 'b', type: 'BLOB' }] as const;

async function randomRound(db: Database, rand: () => number, round: number): Promise<void> {
  const rows = randInt(rand, 1, 40);
  const ts: bigint[] = [];
  for (let k = 0; k < rows; k++) ts.push(BigInt(rand() < 0.2 ? randInt(rand, 0, round * 1000 + 999) : round * 1000 + randInt(rand, 0, 999)));
  await db.insert('a', {
    $timestamp: ts,
    v: ts.map((t) => (rand() < 0.1 ? null : Number(t) / 4)),
    // The dictionary grows every round: old files hold shorter versions of it.
    s: ts.map(() => (rand() < 0.1 ? null : `y${randInt(rand, 0, round * 3)}`)),
    str: ts.map((t) => `r${round}.${t}`),
    b: ts.map(() => (rand() < 0.5 ? null : Uint8Array.of(round, randInt(rand, 0, 255)))),
  });
  const hasB = db.listAliases('b').aliases.includes('b');
  if (hasB && rand() < 0.15) await db.dropTable('b');
  else if (!hasB && rand() < 0.6) await db.createTable('b', [{ name: 'n', type: rand() < 0.5 ? 'INT64' : 'SYMBOL' }]);
  if (db.listAliases('b').aliases.includes('b')) {
    const type = db.describeTable('b').columns[0].type;
    const n = Array.from({ length: randInt(rand, 1, 30) }, (_, k) => (type === 'INT64' ? BigInt(round * 100 + k) : `n${k % 5}`));
    await db.insert('b', { $timestamp: n.map((_, k) => BigInt(round * 100 + k)), n });
  }
  const blob = `blob/${randInt(rand, 0, 6)}`;
  const exists = db.listAliases(blob).aliases.includes(blob);
  if (exists && rand() < 0.3) await db.remove(blob);
  else await db.updateBlob(blob, new Uint8Array(randInt(rand, 0, 3000)).fill(round));
  if (db.listAliases(blob).aliases.includes(blob) && rand() < 0.4) await db.attachTag(blob, `tag${randInt(rand, 0, 2)}`);
  // An expiry change keeps the blob's data: a checkpoint keeps its file and records the change.
  const other = `blob/${randInt(rand, 0, 6)}`;
  if (other !== blob && db.listAliases(other).aliases.includes(other) && rand() < 0.3) await db.setExpiry(other, 4_000_000_000 + round);
}

describe('incremental checkpoints', () => {
  const variants = [
    { name: 'default limits', limits: {} },
    { name: 'tiny files read in 13-byte chunks', limits: { checkpointFileBytes: 700, readChunkBytes: 13 } },
  ];
  for (const variant of variants) {
    it(`many rounds of writes → checkpoint reopen identically (${variant.name})`, async () => {
      const seed = Number(process.env.CHECKPOINT_SEED ?? Date.now() % 100_000);
      const rand = prng(seed);
      const dataDir = await tempDir();
      const options = { dataDir, batchRows: 8, sweepIntervalMs: 0, checkpointWalBytes: 2 ** 40 };
      await withLimits(variant.limits, async () => {
        let db = await Database.open(options);
        try {
          await db.createTable('a', [...COLUMNS]);
          for (let round = 0; round < 24; round++) {
            await randomRound(db, rand, round);
            await db.checkpoint();
            if (round % 5 === 2) {
              // A crash copy: the checkpoint plus the WAL written after it.
              await randomRound(db, rand, round);
              const copy = await copyAside(dataDir);
              const crashed = await Database.open({ ...options, dataDir: copy });
              assert.deepEqual(await state(crashed), await state(db), `seed ${seed} round ${round}: crash copy`);
              await crashed.close();
            }
            if (round % 4 === 3) {
              const expected = await state(db);
              await db.close();
              db = await Database.open(options);
              assert.deepEqual(await state(db), expected, `seed ${seed} round ${round}: reopen`);
            }
          }
          // Nothing but the newest checkpoint's files is left.
          const manifest = await latestManifest(dataDir);
          const names = (await readdir(checkpointsDir(dataDir))).filter((n) => n !== 'FORMAT' && !n.endsWith('.manifest')).sort();
          assert.deepEqual(names, Object.keys(manifest.files).sort());
        } finally {
          await db.close();
        }
      });
    });
  }

  it('a checkpoint writes only new batches: the files of an unchanged table are not rewritten', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir, batchRows: 16, sweepIntervalMs: 0 });
    try {
      await db.createTable('still', [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }]);
      await db.createTable('busy', [{ name: 'v', type: 'DOUBLE' }]);
      const ts = Array.from({ length: 100 }, (_, i) => BigInt(i));
      await db.insert('still', { $timestamp: ts, v: ts.map(Number), s: ts.map((t) => `s${t % 7n}`) });
      await db.checkpoint();
      const first = await latestManifest(dataDir);
      const stillRefs = first.tables.find((t) => t.name === 'still')!.batches.map((b) => `${b.file}#${b.index}`);
      assert.equal(stillRefs.length, 7); // 6 sealed batches of 16 rows and the tail
      const stillFiles = [...new Set(first.tables.find((t) => t.name === 'still')!.batches.map((b) => b.file))];
      const stamps = await Promise.all(stillFiles.map(async (f) => (await stat(join(checkpointsDir(dataDir), f))).mtimeMs));
      for (let round = 1; round <= 4; round++) {
        const more = Array.from({ length: 20 }, (_, i) => BigInt(round * 20 + i));
        await db.insert('busy', { $timestamp: more, v: more.map(Number) });
        const before = new Set(await readdir(checkpointsDir(dataDir)));
        await db.checkpoint();
        const m = await latestManifest(dataDir);
        assert.deepEqual(m.tables.find((t) => t.name === 'still')!.batches.map((b) => `${b.file}#${b.index}`), stillRefs);
        assert.deepEqual(await Promise.all(stillFiles.map(async (f) => (await stat(join(checkpointsDir(dataDir), f))).mtimeMs)), stamps);
        // New column files hold only busy's new batches: its sealed ones are kept where they are.
        const added = (await readdir(checkpointsDir(dataDir))).filter((n) => n.endsWith('.cols') && !before.has(n));
        const busy = m.tables.find((t) => t.name === 'busy')!.batches;
        assert.deepEqual(added.sort(), [...new Set(busy.filter((b) => added.includes(b.file)).map((b) => b.file))].sort());
        assert.ok(busy.filter((b) => added.includes(b.file)).length <= 3, `round ${round} rewrote ${busy.length} batches`);
        if (round > 1) assert.ok(busy.some((b) => !added.includes(b.file)), 'busy kept none of its earlier files');
      }
    } finally {
      await db.close();
    }
  });

  it('SYMBOL dictionaries: batches from files of different checkpoints keep their strings through reopen, new symbols and rewrites', async () => {
    const dataDir = await tempDir();
    const options = { dataDir, batchRows: 4, sweepIntervalMs: 0 };
    const put = (db: Database, from: number, symbols: string[]) => {
      const ts = symbols.map((_, i) => BigInt(from + i));
      return db.insert('t', { $timestamp: ts, s: symbols });
    };
    let db = await Database.open(options);
    await db.createTable('t', [{ name: 's', type: 'SYMBOL' }]);
    await put(db, 0, ['a', 'b', 'a', 'b']);
    await db.checkpoint(); // file 1: dictionary [a b]
    await put(db, 100, ['c', 'd', 'c', 'd', 'a', 'c', 'd', 'b', 'd', 'd', 'c', 'c']);
    await db.checkpoint(); // file 2: dictionary [a b c d], three batches
    await db.close();
    db = await Database.open(options);
    await put(db, 200, ['e', 'f', 'e', 'c']); // new symbols after the restored dictionary
    // Late rows replace two of file 2's three batches: its third is rewritten into a new file.
    await put(db, 100, ['g', 'g', 'g', 'g', 'g', 'g', 'g', 'g']);
    const expected = await state(db);
    await db.checkpoint();
    await db.close();
    db = await Database.open(options);
    assert.deepEqual(await state(db), expected);
    await db.close();
  });

  it('a checkpoint writes only new blobs: a blob file is kept while its blobs live, expiry changes included', async () => {
    const dataDir = await tempDir();
    const blobFiles = async () => Object.keys((await latestManifest(dataDir)).blobs ?? {}).sort();
    let db = await Database.open({ dataDir, sweepIntervalMs: 0 });
    try {
      for (const k of [0, 1, 2]) await db.createBlob(`b${k}`, new Uint8Array(1000).fill(k));
      await db.checkpoint();
      const first = await blobFiles();
      assert.equal(first.length, 1);
      await db.checkpoint();
      assert.deepEqual(await blobFiles(), first, 'an unchanged blob set was written again');
      await db.createBlob('b3', new Uint8Array(10).fill(3));
      await db.setExpiry('b1', 4_000_000_000);
      await db.checkpoint();
      const second = await blobFiles();
      assert.equal(second.length, 2);
      assert.ok(second.includes(first[0]), 'the first blob file was not kept');
      const m = await latestManifest(dataDir);
      assert.equal(m.files[second.find((f) => f !== first[0])!].rows, 1, 'only the new blob goes to a new file');
      // A replaced blob and a removed one die in the old file: 1 of its 3 blobs is left.
      await db.updateBlob('b0', new Uint8Array(5).fill(9));
      await db.remove('b2');
      await db.checkpoint();
      const third = await latestManifest(dataDir);
      assert.ok(!(first[0] in third.files), 'a file with 1 of 3 blobs live was kept');
      const expected = await state(db);
      await db.close();
      db = await Database.open({ dataDir, sweepIntervalMs: 0 });
      assert.deepEqual(await state(db), expected);
      assert.equal(db.describeBlob('b1').expiry, 4_000_000_000);
      // Expiry changed again after a reopen: recorded without rewriting the blob.
      await db.setExpiry('b1', 4_000_000_001);
      const before = await blobFiles();
      await db.checkpoint();
      assert.deepEqual(await blobFiles(), before);
      const last = await state(db);
      await db.close();
      db = await Database.open({ dataDir, sweepIntervalMs: 0 });
      assert.deepEqual(await state(db), last);
    } finally {
      await db.close();
    }
  });

  it('a version 2 checkpoint (every blob in the entries files) opens, and the next checkpoint moves its blobs to blob files', async () => {
    const dataDir = await tempDir();
    let db = await Database.open({ dataDir, sweepIntervalMs: 0 });
    await db.createBlob('x', 'one');
    await db.createBlob('y', new Uint8Array(700).fill(2));
    await db.attachTag('x', 't');
    await db.setExpiry('y', 4_000_000_000);
    const expected = await state(db);
    await db.close();
    // The same checkpoint as version 2 wrote it: the blob frames first in the entries list.
    const seq = (await listManifests(checkpointsDir(dataDir))).at(-1)!;
    const m = await readManifest(checkpointsDir(dataDir), seq, (p) => new Error(`damaged ${p}`));
    assert.deepEqual(Object.values(m.blobs ?? {}), [[]]);
    const { blobs, ...rest } = m;
    await writeManifest(checkpointsDir(dataDir), seq, { ...rest, version: 2, entries: [...Object.keys(blobs ?? {}), ...m.entries] });
    db = await Database.open({ dataDir, sweepIntervalMs: 0 });
    try {
      assert.deepEqual(await state(db), expected);
      await db.checkpoint();
      const moved = await latestManifest(dataDir);
      assert.equal(moved.version, 6);
      assert.equal(Object.keys(moved.blobs ?? {}).length, 1);
      await db.close();
      db = await Database.open({ dataDir, sweepIntervalMs: 0 });
      assert.deepEqual(await state(db), expected);
    } finally {
      await db.close();
    }
  });

  it('a version 4 checkpoint (columns checked with crc32c) is read back and checked, and the next checkpoint rewrites it in the current format', async () => {
    // The format 5 fixture as version 4 wrote it: column checksums crc32c, places untagged.
    const dataDir = await tempDir();
    await cp(FIXTURE_DIR, dataDir, { recursive: true });
    const seq = (await listManifests(checkpointsDir(dataDir))).at(-1)!;
    const m = await readManifest(checkpointsDir(dataDir), seq, (p) => new Error(`damaged ${p}`));
    const files = new Map<string, Buffer>();
    const tables = await Promise.all(m.tables.map(async (t) => {
      const types = arrowSchema(t.columns).fields.map((f) => f.type);
      return {
        ...t,
        batches: await Promise.all(t.batches.map(async (ref) => {
          if (!files.has(ref.file)) files.set(ref.file, await readFile(join(checkpointsDir(dataDir), ref.file)));
          const bytes = files.get(ref.file)!;
          const { checksum, ...place } = ref.place!;
          assert.equal(checksum, 'crc32');
          const first = firstBuffers(types.slice(0, place.crcs.length));
          const crcs = place.crcs.map((_, f) => {
            const [a, b] = fieldSpan(place.buffers, first, f);
            return crc32c(bytes.subarray(place.body + a, place.body + b)) >>> 0;
          });
          return { ...ref, place: { ...place, crcs } };
        })),
      };
    }));
    await writeManifest(checkpointsDir(dataDir), seq, { ...m, version: 4, tables });
    const damagedCopy = await tempDir();
    await cp(dataDir, damagedCopy, { recursive: true });
    const options = { sweepIntervalMs: 0, batchRows: FIXTURE_BATCH_ROWS, memoryLimit: 1024 * 1024 };
    const expected = JSON.parse(await readFile(join(FIXTURE_DIR, '..', 'checkpoint-v5-answers.json'), 'utf8'));
    let db = await Database.open({ dataDir, ...options });
    try {
      assert.deepEqual(await fixtureAnswers(db), expected);
      await db.checkpoint();
      const next = await latestManifest(dataDir);
      assert.equal(next.version, 6);
      assert.ok(next.tables.every((t) => t.batches.every((b) => b.columns !== undefined)));
    } finally {
      await db.close();
    }
    db = await Database.open({ dataDir, ...options });
    try {
      assert.deepEqual(await fixtureAnswers(db), expected);
    } finally {
      await db.close();
    }
    // A flipped byte in column v of a version 4 batch is found when read back.
    const ref = m.tables.find((t) => t.name === 'fx.sensors')!.batches[3];
    const first = firstBuffers(arrowSchema(m.tables.find((t) => t.name === 'fx.sensors')!.columns).fields.map((f) => f.type));
    const [a, b] = fieldSpan(ref.place!.buffers, first, 1);
    const fh = await open(join(checkpointsDir(damagedCopy), ref.file), 'r+');
    const byte = Buffer.alloc(1);
    const at = ref.place!.body + Math.floor((a + b) / 2);
    await fh.read(byte, 0, 1, at);
    byte[0] ^= 4;
    await fh.write(byte, 0, 1, at);
    await fh.close();
    db = await Database.open({ dataDir: damagedCopy, ...options });
    const e = await expectCode(() => db.query('SELECT sum(v) FROM fx.sensors WHERE v > 0'), 'CheckpointCorrupt');
    assert.ok(e.message.includes(ref.file) && e.message.includes(`column 1 of batch ${ref.index}`), e.message);
    // Closing checkpoints, which rewrites the damaged batch in the current format: it cannot, and says so.
    await expectCode(() => db.close(), 'CheckpointCorrupt', new RegExp(ref.file));
  });

  it('a file whose batches were mostly replaced has its live ones rewritten, and is deleted', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir, batchRows: 4, sweepIntervalMs: 0 });
    try {
      await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
      const ts = Array.from({ length: 40 }, (_, i) => BigInt(i * 10));
      await db.insert('t', { $timestamp: ts, v: ts.map(Number) });
      await db.checkpoint();
      const [firstFile] = Object.keys((await latestManifest(dataDir)).files).filter((f) => f.endsWith('.cols'));
      // Late rows into most of the sealed batches replace them.
      const late = Array.from({ length: 8 }, (_, i) => BigInt(i * 50 + 5));
      await db.insert('t', { $timestamp: late, v: late.map(Number) });
      const expected = readRows(db, 't');
      await db.checkpoint();
      const m = await latestManifest(dataDir);
      assert.ok(!(firstFile in m.files), 'the mostly dead file is still named');
      assert.ok(!(await readdir(checkpointsDir(dataDir))).includes(firstFile), 'the mostly dead file was not deleted');
      await db.close();
      const again = await Database.open({ dataDir, batchRows: 4, sweepIntervalMs: 0 });
      assert.deepEqual(readRows(again, 't'), expected);
      await again.close();
    } finally {
      await db.close();
    }
  });
});

describe('checkpoint crash', () => {
  const CHILD = fileURLToPath(new URL('./checkpoint-crash-child.js', import.meta.url));

  it('SIGKILL while checkpointing: the directory opens with every acknowledged batch and blob', async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
    const rand = prng(seed);
    const dataDir = await tempDir();
    const acked = new Set<number>();
    const blobsAcked = new Set<number>();
    let newestAck = 0;
    let sawLeftovers = false;
    for (let round = 0; round < 6; round++) {
      const firstId = round * 100_000 + 1;
      const child = spawn(process.execPath, [CHILD, dataDir, String(firstId)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      await new Promise<void>((resolve, reject) => {
        const watchdog = setTimeout(() => reject(new Error(`the child was not ready: ${err}`)), 20_000);
        child.stdout.on('data', () => {
          if (!out.includes('ready\n')) return;
          clearTimeout(watchdog);
          setTimeout(() => { child.kill('SIGKILL'); resolve(); }, randInt(rand, 150, 700));
        });
      });
      // 'close', not 'exit': the child's last ack lines may still be in the pipe when it has exited.
      const [, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
      assert.equal(signal, 'SIGKILL', `the child exited on its own: ${err}`);
      for (const line of out.split('\n')) {
        if (!line.startsWith('ack ')) continue;
        const id = Number(line.slice(4));
        acked.add(id);
        blobsAcked.add(id);
        newestAck = Math.max(newestAck, id);
      }
      const names = await readdir(checkpointsDir(dataDir));
      const manifest = await latestManifest(dataDir).catch(() => null);
      if (manifest !== null && names.some((n) => n !== 'FORMAT' && !n.endsWith('.manifest') && !(n in manifest.files))) sawLeftovers = true;

      const db = await Database.open({ dataDir, batchRows: 16, sweepIntervalMs: 0 });
      try {
        const rows = readRows(db, TABLE);
        const byId = new Map<number, number>();
        for (const r of rows) byId.set(Math.floor((r.v as number) / 1000), (byId.get(Math.floor((r.v as number) / 1000)) ?? 0) + 1);
        for (const id of acked) assert.equal(byId.get(id), batchRows(id).ts.length, `seed ${seed} round ${round}: acknowledged batch ${id}`);
        for (const [id, n] of byId) assert.equal(n, batchRows(id).ts.length, `seed ${seed}: batch ${id} is partial`);
        // Blobs: every acknowledged one (and any seen before) is there, whole; `latest` holds the
        // newest acknowledged write or the one after it (written, killed before its ack).
        for (const id of blobsAcked) assert.deepEqual(await db.getBlob(`blob/${id}`), blobOf(id), `seed ${seed} round ${round}: blob ${id}`);
        for (const alias of db.listAliases('blob/').aliases) {
          assert.deepEqual(await db.getBlob(alias), blobOf(Number(alias.slice(5))), `seed ${seed}: ${alias}`);
          blobsAcked.add(Number(alias.slice(5)));
        }
        const latest = newestAck > 0 ? await db.getBlob('latest') : null;
        if (latest !== null) assert.ok([newestAck, newestAck + 1].some((id) => Buffer.from(blobOf(id)).equals(latest)), `seed ${seed} round ${round}: latest is not the last acknowledged write (or the one after)`);
        for (const id of byId.keys()) acked.add(id); // present now, so it must stay
      } finally {
        // Every other round the parent leaves the crashed state for the next child to recover.
        if (round % 2 === 0) await db.close();
        else await db['releaseLock']();
      }
    }
    assert.ok(acked.size > 6, `only ${acked.size} batches were acknowledged`);
    // Not asserted (timing decides), but reported: did a kill land between files and manifest?
    if (!sawLeftovers) console.log('# note: no kill left checkpoint leftovers this run');
  });
});

describe('checkpoint disk errors', () => {
  it('a checkpoint that cannot write → StorageFailed naming the path; the previous checkpoint still opens', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir, sweepIntervalMs: 0 });
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await db.insert('t', { $timestamp: [1n, 2n], v: [1, 2] });
    await db.checkpoint();
    await db.insert('t', { $timestamp: [3n], v: [3] });
    // The checkpoints directory replaced by a file: every write under it fails with ENOTDIR.
    const dir = checkpointsDir(dataDir);
    await rename(dir, `${dir}.aside`);
    await writeFile(dir, 'not a directory');
    const e = await expectCode(() => db.checkpoint(), 'StorageFailed');
    assert.ok(e.message.includes(dir), e.message);
    const onClose = await expectCode(() => db.close(), 'StorageFailed');
    assert.ok(onClose.message.includes(dir), onClose.message);
    await rm(dir);
    await rename(`${dir}.aside`, dir);
    const again = await Database.open({ dataDir, sweepIntervalMs: 0 });
    assert.deepEqual(readRows(again, 't').map((r) => r.v), [1, 2, 3]);
    await again.close();
  });
});
