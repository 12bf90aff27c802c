// A DELETE rewriting more than the memory budget, its rows cold (SPEC §14: memory stays within the
// budget whatever is deleted): the replacement batches are staged to disk as they are built, so
// what must stay in memory after the DELETE is a fraction of the budget, not the rewrite's size;
// the rows are right, after a restart, and after a crash (staged files unnamed by any manifest are
// deleted at open and the DELETE replayed from the WAL).
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { Database } from '../../engine/database.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../../engine/durability/checkpoint/manifest.js';
import { copyAside, tempDir } from './helpers.js';

const MIB = 1024 * 1024;
const ROWS = 1_500_000;

it('stages the batches a DELETE rewrites, so memory stays within the budget, and recovers the same rows', async () => {
  const dir = await tempDir();
  const limit = 8 * MIB;
  let db = await Database.open({ dataDir: dir, durability: 'fsync', sweepIntervalMs: 0, memoryLimit: limit });
  try {
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }]);
    for (let at = 0; at < ROWS; at += 100_000) {
      const ts = BigInt64Array.from({ length: 100_000 }, (_, i) => 1_600_000_000_000_000_000n + BigInt(at + i) * 1_000_000_000n);
      await db.insert('t', { $timestamp: ts, v: Float64Array.from(ts, (_, i) => (at + i) % 2), w: Float64Array.from(ts, (_, i) => at + i) });
    }
    await db.checkpoint(); // 36 MB of rows on disk, most of them out of memory
    const r = await db.query('DELETE FROM t IN RANGE(2020, 2022) WHERE v = 0');
    assert.equal(Number(r.tables[0].columns[0].values[0]), ROWS / 2);
    const { held } = db.figures().memory;
    assert.ok(held < limit / 2, `${held} bytes held after rewriting ~${(ROWS / 2) * 24} bytes of rows under a ${limit}-byte budget`);
    const staged = (await readdir(join(dir, 'checkpoints'))).filter((n) => /-s.+\.cols$/.test(n));
    assert.ok(staged.length > 0, 'the rewrite was staged in files of its own');
    const check = async (d: Database, where: string) => {
      const [count, sum] = (await d.query('SELECT count(w), sum(w) FROM t')).tables[0].columns.map((c) => Number(c.values[0]));
      assert.deepEqual([count, sum], [ROWS / 2, (ROWS / 2) * (ROWS / 2)], where);
    };
    await check(db, 'after the DELETE');
    const crashed = await copyAside(dir);
    await db.close();
    db = await Database.open({ dataDir: dir, sweepIntervalMs: 0, memoryLimit: limit });
    await check(db, 'after a restart');
    // The checkpoint on close named the staged files the table kept; nothing else of them is left.
    const folder = checkpointsDir(dir);
    const manifest = await readManifest(folder, (await listManifests(folder)).at(-1)!, (p) => new Error(p));
    const left = (await readdir(folder)).filter((n) => staged.includes(n));
    assert.deepEqual(left.filter((n) => manifest.files[n] === undefined), [], 'a staged file no manifest names is left');
    await db.close();
    db = await Database.open({ dataDir: crashed, sweepIntervalMs: 0, memoryLimit: limit });
    await check(db, 'after a crash right after the DELETE (replayed)');
    assert.deepEqual((await readdir(join(crashed, 'checkpoints'))).filter((n) => staged.includes(n)), [], 'staged files no manifest names are deleted at open');
    await db.close();
    await rm(crashed, { recursive: true, force: true });
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('a SYMBOL added after the last checkpoint and rewritten by a staged DELETE reads back the same after a restart', async () => {
  // The staged files' heads hold the dictionary as it was at the DELETE, newer than the files of
  // the checkpoint before them (whose number they carry); the restart must read its rows right.
  const dir = await tempDir();
  const limit = 8 * MIB;
  const T0 = 1_600_000_000_000_000_000n;
  let db = await Database.open({ dataDir: dir, durability: 'fsync', sweepIntervalMs: 0, memoryLimit: limit });
  try {
    await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }]);
    for (let at = 0; at < ROWS; at += 100_000) {
      const ts = BigInt64Array.from({ length: 100_000 }, (_, i) => T0 + BigInt(at + i) * 1_000_000_000n);
      await db.insert('t', { $timestamp: ts, v: Float64Array.from(ts, (_, i) => (at + i) % 2), w: Float64Array.from(ts, (_, i) => at + i), s: Array.from(ts, (_, i) => ((at + i) % 3 === 0 ? 'a' : 'b')) });
    }
    await db.checkpoint();
    // A symbol the checkpoint's files do not know, in rows only memory holds.
    const late = BigInt64Array.from({ length: 1000 }, (_, i) => T0 + BigInt(ROWS + i) * 1_000_000_000n);
    await db.insert('t', { $timestamp: late, v: Float64Array.from(late, (_, i) => i % 2), w: Float64Array.from(late, () => 1), s: Array.from(late, () => 'new') });
    // The later half of the old rows and the new ones, rewritten: staged files; the earlier half stays in the checkpoint's files.
    const from = new Date(Number((T0 + BigInt(ROWS / 2) * 1_000_000_000n) / 1_000_000n)).toISOString();
    await db.query(`DELETE FROM t IN RANGE(${from}, +10y) WHERE v = 0`);
    assert.ok((await readdir(join(dir, 'checkpoints'))).some((n) => /-s.+\.cols$/.test(n)), 'the rewrite was staged');
    const answer = async (d: Database) => JSON.stringify((await d.query("SELECT count(w), sum(w) FROM t WHERE s = 'new'")).tables[0].columns.map((c) => Number(c.values[0])));
    const expected = await answer(db);
    assert.equal(expected, JSON.stringify([500, 500]));
    await db.close();
    db = await Database.open({ dataDir: dir, sweepIntervalMs: 0, memoryLimit: limit });
    assert.equal(await answer(db), expected, 'after a restart');
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
