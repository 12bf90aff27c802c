// Out-of-order and late rows in storage: the same rows inserted sorted and inserted shuffled,
// shuffled within windows, late or one at a time read back identically (ties in insertion
// order), with exact statistics, before and after background compaction and after a reopen.
// Batches a reader holds never change, and a checkpoint's batches restore to the same rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import type { ColumnDef } from '../../engine/types.js';
import { bytes, checkStats, decodeView, prng, readBatches, readRows, scanOf, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

const HOUR = 3_600_000_000_000n;
const BASE = 1_600_000_000_000_000_000n;
const COLUMNS: ColumnDef[] = [
  { name: 'd', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }, { name: 's', type: 'STRING' }, { name: 'y', type: 'SYMBOL' },
];
type Rng = () => number;
type Order = (rows: Row[], r: Rng) => Row[][];

/** Rows over three days with duplicated timestamps and nulls; `seq` in `i` shows insertion order. */
function makeRows(r: Rng, n: number): Row[] {
  const rows: Row[] = [];
  for (let k = 0; k < n; k++) {
    const ts = k > 0 && r() < 0.1 ? rows[Math.floor(r() * k)].$timestamp as bigint : BASE + BigInt(Math.floor(r() * 72 * 3600)) * 1_000_000_000n;
    rows.push({ $timestamp: ts, d: r() < 0.1 ? null : Math.round(r() * 100) / 4, i: BigInt(k), s: r() < 0.1 ? null : `s${k % 7}`, y: `y${k % 3}` });
  }
  return rows;
}

const inBatches = (rows: Row[], r: Rng, most: number): Row[][] => {
  const out: Row[][] = [];
  for (let at = 0; at < rows.length;) { const size = 1 + Math.floor(r() * most); out.push(rows.slice(at, at + size)); at += size; }
  return out;
};
const byTime = (rows: Row[]): Row[] => rows.map((row, k) => ({ row, k }))
  .sort((a, b) => (a.row.$timestamp! < b.row.$timestamp! ? -1 : a.row.$timestamp! > b.row.$timestamp! ? 1 : a.k - b.k)).map((x) => x.row);

const ORDERS: [string, Order][] = [
  ['fully shuffled, random batch sizes', (rows, r) => inBatches(rows, r, 300)],
  ['shuffled within each hour', (rows, r) => inBatches(byTime(rows).map((row, k) => ({ row, key: Number((row.$timestamp as bigint) / HOUR) * 1e6 + r() * 1e6 + k * 1e-9 }))
    .sort((a, b) => a.key - b.key).map((x) => x.row), r, 200)],
  ['1 % late rows', (rows, r) => {
    const sorted = byTime(rows);
    const late = sorted.filter(() => r() < 0.01);
    return [...inBatches(sorted.filter((x) => !late.includes(x)), r, 500), ...late.map((x) => [x])];
  }],
  ['single-row late inserts into sealed data', (rows) => {
    const sorted = byTime(rows.slice(0, rows.length >> 1));
    return [sorted, ...rows.slice(rows.length >> 1).map((x) => [x])];
  }],
];

async function open(dir: string, batchRows: number): Promise<Database> {
  return Database.open({ dataDir: dir, durability: 'none', batchRows, sweepIntervalMs: 0 });
}

async function insert(db: Database, rows: Row[]): Promise<void> {
  await db.insertRows('t', rows);
}

async function untilCompacted(db: Database): Promise<void> {
  while (catalogOf(db).table('t')!.isCompacting) await new Promise((resolve) => setImmediate(resolve));
}

describe('late rows', () => {
  for (const [name, order] of ORDERS) {
    it(`${name}: read back like sorted rows, before and after compaction and reopen`, async () => {
      for (let seed = 1; seed <= 4; seed++) {
        const r = prng(seed * 7919);
        const batchRows = [3, 16, 64, 1000][seed - 1];
        const rows = makeRows(r, 2000);
        // Insertion order is the order of `batches` flattened: the reference sorts that stably.
        const batches = order(rows, r);
        const expected = byTime(batches.flat());
        const dir = await tempDir();
        let db = await open(dir, batchRows);
        await db.createTable('t', COLUMNS, { shardSize: [HOUR, 24n * HOUR][seed % 2] });
        const half = batches.length >> 1;
        for (const [k, b] of batches.slice(0, half).entries()) {
          await insert(db, b);
          // Let compaction steps run between inserts, so runs and seals land mid-job.
          if (k % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        await untilCompacted(db);
        assert.deepEqual(readRows(db, 't'), byTime(batches.slice(0, half).flat()), `seed ${seed}: after background compaction`);
        for (const b of batches.slice(half)) await insert(db, b);
        assert.deepEqual(readRows(db, 't'), expected, `seed ${seed}: read while runs are pending`);
        checkStats(db, 't');
        await db.close();
        db = await open(dir, batchRows);
        assert.deepEqual(readRows(db, 't'), expected, `seed ${seed}: after reopen`);
        checkStats(db, 't');
        await db.close();
      }
    });
  }

  it('sorts large unsorted tails (scattered through the inverse order) and many-shard inserts exactly', async () => {
    for (const [shardSize, batchRows] of [[1000n * HOUR, 5000], [HOUR, 100_000], [HOUR, 40]] as const) {
      const r = prng(Number(batchRows) + 17);
      const rows = makeRows(r, 4000);
      const batches = inBatches(rows, r, 900);
      const dir = await tempDir();
      const db = await open(dir, batchRows);
      await db.createTable('t', COLUMNS, { shardSize });
      for (const b of batches) await insert(db, b);
      assert.deepEqual(readRows(db, 't'), byTime(batches.flat()), `shard ${shardSize}, batchRows ${batchRows}`);
      checkStats(db, 't');
      await db.close();
    }
  });

  it('seals the tail of a shard an unsorted stream has left behind, and keeps later rows for it', async () => {
    const DAY = 24n * HOUR;
    const row = (ts: bigint, k: number): Row => ({ $timestamp: ts, d: k, i: BigInt(k), s: null, y: 'y0' });
    const dir = await tempDir();
    const db = await open(dir, 1000);
    await db.createTable('t', COLUMNS, { shardSize: DAY });
    const table = catalogOf(db).table('t')!;
    const dayOf = (v: { minTs: bigint }): bigint => (v.minTs - BASE) / DAY;
    // Day 0 (unsorted), then day 0 and 1, then only day 2: day 0 is behind the last insert.
    const batches = [
      [row(BASE + 5n * HOUR, 0), row(BASE + 2n * HOUR, 1)],
      [row(BASE + 3n * HOUR, 2), row(BASE + DAY + HOUR, 3), row(BASE + HOUR, 4)],
      [row(BASE + 2n * DAY + 2n * HOUR, 5), row(BASE + 2n * DAY + HOUR, 6)],
    ];
    for (const b of batches) await insert(db, b);
    const before = table.allBatches().filter((v) => dayOf(v) === 0n);
    assert.equal(before.length, 1);
    assert.equal(before[0].rowCount, 4);
    // A late row for day 0 arrives after all: a tail of its own beside the sealed batch.
    const late = [row(BASE + 4n * HOUR, 7), row(BASE + 2n * DAY + 3n * HOUR, 8)];
    await insert(db, late);
    const after = table.allBatches().filter((v) => dayOf(v) === 0n);
    assert.equal(after.length, 2, 'day 0 was sealed before the late row came');
    assert.equal(after[0], before[0], 'the sealed batch is kept as it was');
    assert.deepEqual(readRows(db, 't'), byTime([...batches.flat(), ...late]));
    checkStats(db, 't');
    await db.close();
  });

  it('takes unsorted inserts whose rows come shard by shard (whole ranges) like any other order', async () => {
    const DAY = 24n * HOUR;
    const row = (ts: bigint, k: number): Row => ({ $timestamp: ts, d: k, i: BigInt(k), s: k % 5 === 0 ? null : `s${k}`, y: 'y1' });
    // Each insert: its rows unsorted within each day; days ascending (ranges), descending, or interleaved.
    const CASES: [string, number[][]][] = [
      ['days ascending', [[0, 0, 1, 1, 1, 2], [2, 2, 3], [3, 4, 4]]],
      ['one day per insert', [[0, 0, 0], [1, 1], [0, 0]]],
      ['days descending', [[2, 2, 1, 1, 0], [1, 0]]],
      ['days interleaved', [[0, 1, 0, 1], [1, 2, 1]]],
    ];
    for (const [name, days] of CASES) {
      for (const batchRows of [2, 1000]) {
        const r = prng(batchRows + name.length);
        let k = 0;
        const batches = days.map((b) => b.map((d) => row(BASE + BigInt(d) * DAY + BigInt(Math.floor(r() * 3)) * HOUR, k++)));
        const dir = await tempDir();
        const db = await open(dir, batchRows);
        await db.createTable('t', COLUMNS, { shardSize: DAY });
        for (const b of batches) await insert(db, b);
        assert.deepEqual(readRows(db, 't'), byTime(batches.flat()), `${name}, batchRows ${batchRows}`);
        checkStats(db, 't');
        await db.close();
      }
    }
  });

  it('checkpoints pending runs as they are and compacts them after reopen', async () => {
    const r = prng(42);
    const rows = makeRows(r, 1500);
    const dir = await tempDir();
    let db = await open(dir, 8);
    await db.createTable('t', COLUMNS);
    for (const b of inBatches(rows, r, 40)) await insert(db, b);
    // Close at once: background compaction has not run, so the checkpoint holds overlapping runs.
    const table = catalogOf(db).table('t')!;
    const stored = table.allBatches();
    assert.ok(stored.some((v, k) => k > 0 && v.minTs < stored[k - 1].maxTs), 'expected overlapping runs in the checkpoint');
    await db.close();
    db = await open(dir, 8);
    assert.ok(catalogOf(db).table('t')!.isCompacting, 'runs restored from a checkpoint are queued for compaction');
    await untilCompacted(db);
    const batches = catalogOf(db).table('t')!.allBatches();
    batches.forEach((v, k) => { if (k > 0) assert.ok(batches[k - 1].maxTs <= v.minTs, 'compacted batches overlap'); });
    assert.deepEqual(readRows(db, 't'), byTime(rows));
    await db.close();
  });

  it('never changes a batch a reader holds, and scan() returns an array the caller owns', async () => {
    const r = prng(3);
    const dir = await tempDir();
    const db = await open(dir, 16);
    await db.createTable('t', COLUMNS);
    await insert(db, byTime(makeRows(r, 500)));
    const held = scanOf(db, 't', -(2n ** 63n), 2n ** 63n - 1n);
    const copy = held.map((v) => ({ v, ts: v.ts.slice(), rows: v.rowCount, min: v.minTs, max: v.maxTs, data: v.allColumns.map((c) => v.column(c)), stats: v.stats }));
    const before = readRows(db, 't');
    held.length = 0; // The caller's array: emptying it must not empty the table.
    for (const b of inBatches(makeRows(r, 500), r, 20)) await insert(db, b);
    await untilCompacted(db);
    assert.equal(readRows(db, 't').length, 1000);
    for (const c of copy) {
      assert.deepEqual(c.v.ts, c.ts);
      assert.equal(c.v.rowCount, c.rows);
      assert.equal(c.v.minTs, c.min);
      assert.equal(c.v.maxTs, c.max);
      c.data.forEach((d, i) => assert.equal(c.v.column(i), d));
      assert.equal(c.v.stats, c.stats);
    }
    assert.equal(before.length, 500);
    await db.close();
  });

  it('merges inserts that overlap a sorted tail\'s end into it, leaving the rows a reader holds as they were', async () => {
    // Tails of up to 4,000 rows: each insert (≥ 64 rows, in any order) overlaps the end of what
    // came before, so it is merged into the tail; reads between inserts hold views of the tail.
    for (let seed = 1; seed <= 3; seed++) {
      const r = prng(seed * 104729);
      // Every column type, nulls in each (the third seed's rows start with none, then get some).
      const rows = byTime(makeRows(r, 3000)).map((row, k) => ({
        ...row,
        t: seed === 3 && k < 1500 ? BigInt(k) : r() < 0.1 ? null : BigInt(k) * 1000n - 7n,
        b: r() < 0.1 ? null : bytes(k & 255, (k >> 8) & 255),
      }));
      // Consecutive time ranges; neighbours trade their 10 closest rows (the later range's
      // earliest arrive early, the earlier range's latest arrive late), then each is shuffled.
      const ranges: Row[][] = [];
      for (let at = 0; at < rows.length;) {
        const size = 64 + Math.floor(r() * 300);
        ranges.push(rows.slice(at, at + size));
        at += size;
      }
      for (let k = 1; k < ranges.length; k++) {
        const prev = ranges[k - 1];
        const next = ranges[k];
        const late = prev.splice(prev.length - 10, 10);
        const early = next.splice(0, 10);
        prev.push(...early);
        next.unshift(...late);
      }
      const batches = ranges.map((b) => b.map((row) => ({ row, key: r() })).sort((a, b2) => a.key - b2.key).map((x) => x.row));
      const db = await open(await tempDir(), 4000);
      await db.createTable('t', [...COLUMNS, { name: 't', type: 'TIMESTAMP' }, { name: 'b', type: 'BLOB' }], { shardSize: 24n * 30n * HOUR });
      const held: { rows: Row[]; views: ReturnType<typeof readBatches> }[] = [];
      for (const b of batches) {
        await insert(db, b);
        if (r() < 0.5) { const views = readBatches(db, 't'); held.push({ rows: views.flatMap((v) => v.rows), views }); }
      }
      assert.deepEqual(readRows(db, 't'), byTime(batches.flat()), `seed ${seed}`);
      checkStats(db, 't');
      for (const h of held) {
        const again = h.views.flatMap((v) => decodeView(db, v.view));
        assert.deepEqual(again, h.rows, `seed ${seed}: a view held by a reader changed`);
      }
      await db.close();
    }
  });

  it('sorts an unsorted tail in place when read, leaving the rows a reader holds as they were', async () => {
    // Small shuffled inserts (too few rows to merge) leave tails unsorted; a read sorts them in
    // place, and the next read after more unsorted rows must sort fresh buffers, not the held ones.
    for (let seed = 1; seed <= 3; seed++) {
      const r = prng(seed * 7919);
      const rows = makeRows(r, 2500).map((row, k) => ({ ...row, t: r() < 0.1 ? null : BigInt(k) * 3n, b: r() < 0.1 ? null : bytes(k & 255) }));
      const db = await open(await tempDir(), 4000);
      await db.createTable('t', [...COLUMNS, { name: 't', type: 'TIMESTAMP' }, { name: 'b', type: 'BLOB' }]);
      const held: { rows: Row[]; views: ReturnType<typeof readBatches> }[] = [];
      const batches = inBatches(rows, r, 40);
      for (const b of batches) {
        await insert(db, b);
        if (r() < 0.3) { const views = readBatches(db, 't'); held.push({ rows: views.flatMap((v) => v.rows), views }); }
      }
      assert.ok(held.length > 10);
      assert.deepEqual(readRows(db, 't'), byTime(rows), `seed ${seed}`);
      checkStats(db, 't');
      for (const h of held) {
        const again = h.views.flatMap((v) => decodeView(db, v.view));
        assert.deepEqual(again, h.rows, `seed ${seed}: a view held by a reader changed`);
      }
      await db.close();
    }
  });

  it('puts rows next to shard edges into the right shard, far from 1970 too', async () => {
    const dir = await tempDir();
    const db = await open(dir, 4);
    const size = 86_400_000_000_000n;
    await db.createTable('t', [{ name: 'i', type: 'INT64' }], { shardSize: size });
    const edges = [-3n * size, 0n, 20_000n * size, 100_000n * size]; // the last near 2^63 (year 2243)
    const ts: bigint[] = [];
    // Per edge, inserts out of order whose rows span two shards: mixed (the counting path),
    // grouped by shard (each side unsorted: cut at the edge without a shard per row), and all
    // on one side of the edge.
    for (const e of edges) {
      for (const near of [
        [e + 1000n, e - 1n, e + 1n, e, e - 1000n, e - 2048n, e + 2047n],
        [e - 1n, e - 1000n, e - 2048n, e + 1n, e, e + 2047n],
        [e + 5n, e, e + 3n],
        [e - 5n, e - 1n, e - 3n],
      ]) {
        ts.push(...near);
        await db.insert('t', { $timestamp: BigInt64Array.from(near), i: near.map((_, k) => BigInt(k)) });
      }
    }
    const shardOf = (t: bigint): bigint => (t >= 0n ? t / size : -((-t - 1n) / size) - 1n);
    for (const v of catalogOf(db).table('t')!.allBatches()) assert.equal(shardOf(v.minTs), shardOf(v.maxTs), `batch ${v.minTs}..${v.maxTs} spans two shards`);
    assert.deepEqual(readRows(db, 't').map((row) => row.$timestamp), [...ts].sort((a, b) => (a < b ? -1 : 1)));
    await db.close();
  });
});
