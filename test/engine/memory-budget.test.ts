// The memory budget in one process (SPEC §10): under a budget far below the data, queries answer
// exactly as an unbounded database does, before and after a reopen, reading back only the
// columns they need; statistics answer without reading anything back, and open reads no column
// data; held data makes writers wait for checkpoints, and a write that cannot fit fails with
// MemoryLimit and changes nothing. (The budget against the process's real RSS, and a SIGKILLed
// writer, are in memory-rss.test.ts.)
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { CheckpointFiles } from '../../engine/durability/checkpoint/checkpoint-files.js';
import type { StoredColumnBatch } from '../../engine/durability/checkpoint/stored-column-batch.js';
import { MemoryBudget, ReadRing } from '../../engine/memory/index.js';
import type { ColumnDef } from '../../engine/types.js';
import { copyAside, expectCode, prng, randInt, scanOf, tempDir } from './helpers.js';

const MIB = 1024 * 1024;
const HOUR = 3_600_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;

const COLUMNS: ColumnDef[] = [
  { name: 'd', type: 'DOUBLE' },
  { name: 'i', type: 'INT64' },
  { name: 's', type: 'STRING' },
  { name: 'y', type: 'SYMBOL' },
  { name: 'b', type: 'BLOB' },
];

/** Inserts of random rows, with nulls, mostly in time order, some rows late (runs, compaction). */
function inserts(seed: number, count: number, rows: number): Record<string, unknown>[] {
  const r = prng(seed);
  const out: Record<string, unknown>[] = [];
  let t = T0;
  for (let k = 0; k < count; k++) {
    const ts: bigint[] = [];
    const d: (number | null)[] = [];
    const i: (bigint | null)[] = [];
    const s: (string | null)[] = [];
    const y: (string | null)[] = [];
    const b: (Uint8Array | null)[] = [];
    for (let n = 0; n < rows; n++) {
      t += BigInt(randInt(r, 1, 120)) * 1_000_000_000n;
      ts.push(r() < 0.03 ? t - BigInt(randInt(r, 1, 48)) * HOUR : t);
      d.push(r() < 0.05 ? null : Math.round(r() * 1e6) / 1e3);
      i.push(r() < 0.05 ? null : BigInt(randInt(r, -1e6, 1e6)));
      s.push(r() < 0.05 ? null : `${String.fromCharCode(97 + randInt(r, 0, 5))}-${randInt(r, 0, 1e6)}`);
      y.push(r() < 0.05 ? null : `sym${randInt(r, 0, 9)}`);
      b.push(r() < 0.3 ? null : Uint8Array.from({ length: randInt(r, 0, 24) }, () => randInt(r, 0, 255)));
    }
    out.push({ $timestamp: ts, d, i, s, y, b });
  }
  return out;
}

const QUERIES = [
  'SELECT count(d), sum(d), min(d), max(d), first(d), last(d), avg(i), min(i) FROM t',
  'SELECT count(d), sum(i), max(d) FROM t GROUP BY 1h',
  'SELECT first(s), last(s), count(y), first(b) FROM t GROUP BY 1d',
  'SELECT count(d), sum(d) FROM t WHERE d > 500',
  `SELECT * FROM t IN RANGE(${new Date(Number((T0 + 30n * HOUR) / 1_000_000n)).toISOString().slice(0, 19)}, +3h)`,
  "SELECT $timestamp, y, b FROM t WHERE y = 'sym3' LIMIT 300",
  'SELECT count(d), count(s), first(s) FROM t GROUP BY y',
  "SELECT max(i), count(b) FROM t WHERE s ~ '^a'",
  // The language's newer operators read evicted batches through the same door (lang's cases).
  `SELECT t.d, u.i, u.$timestamp FROM t LEFT ASOF JOIN u IN RANGE(${new Date(Number((T0 + 30n * HOUR) / 1_000_000n)).toISOString().slice(0, 19)}, +3h)`,
  'SELECT count(*), sum(u.d), max(t.i) FROM t ASOF JOIN u GROUP BY 1h',
  'SELECT count(t.d), count(u.d) FROM t FULL ASOF JOIN u GROUP BY 6h',
  'SELECT count(t.s), min(u.i) FROM t RIGHT ASOF JOIN u',
  `SELECT avg(d), max(i) FROM t IN RANGE(${new Date(Number(T0 / 1_000_000n)).toISOString().slice(0, 19)}, +2d) WITH TIME IN (08:00, 20:00) GROUP BY 1h FILL(LINEAR)`,
  `SELECT cumsum(d), delta(i), lag(y) FROM t IN RANGE(${new Date(Number((T0 + 10n * HOUR) / 1_000_000n)).toISOString().slice(0, 19)}, +6h)`,
];

async function answers(db: Database): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUERIES) out.push((await db.query(q, { now: T0 })).tables);
  return out;
}

describe('memory budget', () => {
  // Also with worker threads splitting every scan they can: they read the evicted batches read back
  // into shared memory, and the budget holds the same.
  for (const workers of [{}, { parallelism: 2, parallelScanRows: 1 }]) it(`answers under a budget a fraction of the data exactly as an unbounded database, before and after reopen${'parallelism' in workers ? ', with worker threads' : ''}`, async () => {
    const data = inserts(11, 60, 1000);
    const joined = inserts(12, 15, 1000);
    const unbounded = await Database.open({ dataDir: await tempDir(), durability: 'none', batchRows: 512 });
    const dir = await tempDir();
    const limit = 2 * MIB;
    let small = await Database.open({ dataDir: dir, durability: 'os', batchRows: 512, memoryLimit: limit, ...workers });
    for (const db of [unbounded, small]) {
      await db.createTable('t', COLUMNS, { shardSize: 6n * HOUR });
      for (const batch of data) await db.insert('t', batch);
      await db.createTable('u', COLUMNS, { shardSize: 6n * HOUR });
      for (const batch of joined) await db.insert('u', batch);
    }
    const expected = await answers(unbounded);
    assert.deepEqual(await answers(small), expected);
    if ('parallelism' in workers) assert.ok(small.figures().workers.jobs > 0, 'the workers ran parts of the scans');
    const during = small.figures().memory;
    assert.ok(during.evictions > 0 && during.readBacks > 0, `evicted and read back: ${JSON.stringify(during)}`);
    assert.ok(during.used <= limit, `within the budget once no query runs: ${JSON.stringify(during)}`);
    await small.close();
    small = await Database.open({ dataDir: dir, batchRows: 512, memoryLimit: limit, ...workers });
    assert.equal(small.figures().memory.readBackBytes, 0, 'open read column data back');
    assert.deepEqual(await answers(small), expected);
    assert.ok(small.figures().memory.used <= limit);
    await small.close();
    await unbounded.close();
  });

  it('answers aggregates from statistics without reading back, and a scan reads back only its column', async () => {
    const dir = await tempDir();
    const rows = 200_000;
    let db = await Database.open({ dataDir: dir, durability: 'none', memoryLimit: 4 * MIB });
    await db.createTable('t', [{ name: 'a', type: 'DOUBLE' }, { name: 'v', type: 'DOUBLE' }]);
    for (let at = 0; at < rows; at += 20_000) {
      const ts = BigInt64Array.from({ length: 20_000 }, (_, k) => T0 + BigInt(at + k) * 1_000_000_000n);
      const v = Float64Array.from({ length: 20_000 }, (_, k) => ((at + k) % 1000) / 1000);
      await db.insert('t', { $timestamp: ts, a: v, v });
    }
    await db.close();
    db = await Database.open({ dataDir: dir, memoryLimit: 4 * MIB });
    const r = await db.query('SELECT count(v), min(v), max(v), first(v), last(v) FROM t');
    assert.deepEqual(r.tables[0].columns.map((c) => c.values[0]), [BigInt(rows), 0, 0.999, 0, 0.999]);
    assert.equal(db.figures().memory.readBacks, 0, 'statistics answered without reading back');
    const w = await db.query('SELECT count(v), sum(v) FROM t WHERE v > 0.5');
    assert.equal(w.tables[0].columns[0].values[0], BigInt((rows / 1000) * 499));
    assert.ok(Math.abs((w.tables[0].columns[1].values[0] as number) - (rows / 1000) * 374.25) < 1e-6);
    const { readBackBytes } = db.figures().memory;
    assert.ok(readBackBytes >= rows * 8 && readBackBytes < rows * 8 * 1.05, `read back ${readBackBytes} bytes for ${rows * 8} of column v`);
    await db.close();
  });

  it('makes writers wait for checkpoints, and fails only writes that cannot fit, with MemoryLimit and nothing applied', async () => {
    const dir = await tempDir();
    const limit = MIB;
    let db = await Database.open({ dataDir: dir, durability: 'os', memoryLimit: limit, batchRows: 1 << 20 });
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }]);
    const r = prng(5);
    let next = 0;
    let kept = 0;
    let failed = 0;
    for (let k = 0; k < 60; k++) {
      // Mostly writes a checkpoint makes room for; now and then one larger than the budget.
      const n = r() < 0.15 ? randInt(r, 70_000, 200_000) : randInt(r, 1_000, 12_000);
      const ts = BigInt64Array.from({ length: n }, (_, j) => T0 + BigInt(next + j));
      const v = Float64Array.from({ length: n }, (_, j) => next + j);
      try {
        await db.insert('t', { $timestamp: ts, v, w: v });
        next += n;
        kept += n;
      } catch (e) {
        assert.equal((e as { code?: string }).code, 'MemoryLimit', String(e));
        failed++;
      }
    }
    assert.ok(failed > 0 && kept > 0, `${failed} refused, ${kept} rows kept`);
    await expectCode(() => db.createBlob('big', new Uint8Array(2 * MIB)), 'MemoryLimit', /more than the whole budget/);
    const figures = db.figures().memory;
    assert.ok(figures.evictions > 0, 'writers went on after checkpoints made held data evictable');
    assert.ok(figures.held <= limit, JSON.stringify(figures));
    const count = async (d: Database) => (await d.query('SELECT count(v), sum(w) FROM t')).tables[0].columns.map((c) => c.values[0]);
    assert.deepEqual(await count(db), [BigInt(kept), (kept * (kept - 1)) / 2]);
    assert.deepEqual(db.listAliases('').aliases, ['t']);
    await db.close();
    db = await Database.open({ dataDir: dir, memoryLimit: limit });
    assert.deepEqual(await count(db), [BigInt(kept), (kept * (kept - 1)) / 2]);
    await db.close();
  });

  it('evicts and reads back blob contents', async () => {
    const dir = await tempDir();
    let db = await Database.open({ dataDir: dir, durability: 'os', memoryLimit: MIB });
    const blob = (k: number) => {
      const b = Uint8Array.from({ length: 200_000 }, (_, j) => (j * 31 + k) & 255);
      b.set(Buffer.from(`marker ${k} here`), 1000 + k);
      return b;
    };
    for (let k = 0; k < 12; k++) await db.createBlob(`b${k}`, blob(k));
    await db.checkpoint();
    for (let k = 0; k < 12; k++) assert.deepEqual(await db.getBlob(`b${k}`), blob(k));
    assert.ok(db.figures().memory.readBacks > 0 && db.figures().memory.used <= MIB);
    assert.deepEqual((await db.findBlobs('marker 7 here')).aliases, ['b7']);
    await db.close();
    db = await Database.open({ dataDir: dir, memoryLimit: MIB });
    assert.equal(db.figures().memory.used, 0, 'open read no blob content');
    assert.equal(db.describeBlob('b3').size, 200_000);
    assert.deepEqual(await db.getBlob('b3'), blob(3));
    await db.close();
  });
});

describe('large scans read through a ring', () => {
  const rows = 200_000;
  const limit = 4 * MIB;
  /** 200k rows of a, v (1.6 MB each: more than a quarter of a 4 MiB budget), written and closed. */
  async function written(): Promise<string> {
    const dir = await tempDir();
    const db = await Database.open({ dataDir: dir, durability: 'none', memoryLimit: limit, batchRows: 16_384 });
    await db.createTable('t', [{ name: 'a', type: 'DOUBLE' }, { name: 'v', type: 'DOUBLE' }]);
    for (let at = 0; at < rows; at += 20_000) {
      const ts = BigInt64Array.from({ length: 20_000 }, (_, k) => T0 + BigInt(at + k) * 1_000_000_000n);
      const v = Float64Array.from({ length: 20_000 }, (_, k) => ((at + k) % 1000) / 1000);
      await db.insert('t', { $timestamp: ts, a: v.map((x) => 1 - x), v });
    }
    await db.close();
    return dir;
  }
  const big = 'SELECT count(v), sum(v) FROM t WHERE v > 0.5';
  const bigAnswer = [BigInt((rows / 1000) * 499), (rows / 1000) * 374.25];
  const small = `SELECT count(a) FROM t IN RANGE(${new Date(Number(T0 / 1_000_000n)).toISOString().slice(0, 19)}, +10h) WHERE a > 0.5`;
  const answer = async (db: Database, q: string) => (await db.query(q)).tables[0].columns.map((c) => c.values[0]);
  const near = (got: unknown[], want: unknown[]) => {
    assert.equal(got[0], want[0]);
    assert.ok(Math.abs((got[1] as number) - (want[1] as number)) < 1e-6, `${got[1]} vs ${want[1]}`);
  };

  it('caches what a small scan reads back; a scan larger than a quarter of the budget caches and evicts nothing, and lends its buffers back', async () => {
    const db = await Database.open({ dataDir: await written(), memoryLimit: limit });
    assert.deepEqual(await answer(db, small), [BigInt(10 * 3600 / 2)]);
    const cached = db.figures().memory;
    assert.ok(cached.cached > 0 && cached.readBackBytes > 0, JSON.stringify(cached));
    assert.deepEqual(await answer(db, small), [BigInt(10 * 3600 / 2)]);
    assert.equal(db.figures().memory.readBackBytes, cached.readBackBytes, 'the small scan was cached');
    for (let k = 1; k <= 2; k++) {
      near(await answer(db, big), bigAnswer);
      const m = db.figures().memory;
      assert.ok(m.readBackBytes - cached.readBackBytes >= k * rows * 8 && m.readBackBytes - cached.readBackBytes < k * rows * 8 * 1.05, JSON.stringify(m));
      assert.equal(m.evictions, 0, 'the large scan evicted nothing');
      assert.equal(m.cached, cached.cached, 'nor cached anything');
      assert.equal(m.scanning, 0, 'its ring went back to the budget');
      assert.ok(m.used <= limit, JSON.stringify(m));
    }
    assert.deepEqual(await answer(db, small), [BigInt(10 * 3600 / 2)]);
    await db.close();
  });

  it('serves concurrent scans and SELECT * through rings as an unbounded database does', async () => {
    const dir = await written();
    const unbounded = await Database.open({ dataDir: await copyAside(dir) });
    const db = await Database.open({ dataDir: dir, memoryLimit: limit });
    const queries = [big, 'SELECT sum(a), max(v) FROM t WHERE a < v', 'SELECT * FROM t WHERE v > 0.998', 'SELECT count(v) FROM t GROUP BY 1h', small, big];
    const expected = await Promise.all(queries.map((q) => unbounded.query(q).then((r) => r.tables)));
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await Promise.all(queries.map((q) => db.query(q).then((r) => r.tables))), expected);
      const m = db.figures().memory;
      assert.equal(m.scanning, 0, JSON.stringify(m));
      assert.ok(m.used <= limit, JSON.stringify(m));
    }
    await db.close();
    await unbounded.close();
  });

  it('finds damaged bytes of a column read through a ring, and lends the ring back after the failure', async () => {
    const dir = await written();
    let db = await Database.open({ dataDir: dir, memoryLimit: limit });
    const batch = scanOf(db, 't')[5];
    const stored = batch.stored as StoredColumnBatch;
    const [, at, size] = stored.columns[2];
    const position = at + Math.floor(size / 2);
    await db.close();
    const file = await open(join(dir, 'checkpoints', stored.file), 'r+');
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, position);
    byte[0] ^= 0x20;
    await file.write(byte, 0, 1, position);
    await file.close();
    db = await Database.open({ dataDir: dir, memoryLimit: limit });
    for (let k = 0; k < 2; k++) {
      const e = await expectCode(() => db.query(big), 'CheckpointCorrupt');
      assert.ok(e.message.includes(stored.file) && e.message.includes('column 2'), e.message);
      // Reads ahead still in flight when the scan failed return their buffers as they end.
      for (let wait = 0; wait < 200 && db.figures().memory.scanning > 0; wait++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(db.figures().memory.scanning, 0, JSON.stringify(db.figures().memory));
    }
    // Column a is whole: its scan answers, through a ring too.
    assert.deepEqual(await answer(db, 'SELECT count(a) FROM t WHERE a > 0.5'), [BigInt(rows / 2)]);
    assert.equal(db.figures().memory.scanning, 0);
    await db.close();
  });

  it('a ring reuses its buffers, grows one that is too small, and returns them to the budget', () => {
    const budget = new MemoryBudget(MIB);
    const ring = new ReadRing(budget);
    const a = ring.take(100_000);
    const b = ring.take(100_000);
    assert.equal(a.length, 100_000);
    const lent = budget.figures.scanning;
    assert.ok(lent >= 200_000 && lent === budget.used, JSON.stringify(budget.figures));
    ring.give(a.buffer as ArrayBuffer);
    assert.equal(ring.take(50_000).buffer, a.buffer, 'reused');
    ring.give(b.buffer as ArrayBuffer);
    const c = ring.take(300_000);
    assert.notEqual(c.buffer, b.buffer);
    assert.equal(budget.figures.scanning, a.buffer.byteLength + c.buffer.byteLength, 'the smaller buffer went back');
    ring.close();
    ring.give(a.buffer as ArrayBuffer);
    ring.give(c.buffer as ArrayBuffer);
    assert.equal(budget.figures.scanning, 0);
    assert.ok(budget.used <= MIB);
    assert.ok(ReadRing.isFor(budget, MIB / 4 + 1) && !ReadRing.isFor(budget, MIB / 4));
  });
});

describe('checkpoint files', () => {
  it('keeps a file a reader may still need until every lease taken before its removal is released', async () => {
    const dir = await tempDir();
    for (const name of ['a', 'b']) await writeFile(join(dir, name), name);
    const files = new CheckpointFiles(dir);
    const early = files.lease();
    await files.remove(['a']);
    const late = files.lease();
    assert.ok(existsSync(join(dir, 'a')), 'an earlier lease keeps the file');
    late();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(existsSync(join(dir, 'a')));
    early();
    for (let k = 0; k < 100 && existsSync(join(dir, 'a')); k++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(!existsSync(join(dir, 'a')), 'deleted once the earlier lease is released');
    await files.remove(['b']);
    assert.ok(!existsSync(join(dir, 'b')), 'deleted at once when no reader holds a lease');
    await files.close();
  });
});
