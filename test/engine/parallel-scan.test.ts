// Scans on worker threads, the hard cases: a worker killed while it aggregates a query's part
// fails that query with WorkerFailed and is replaced, after which the query answers as one thread
// does; while the workers read data larger than the memory budget — read back from checkpoint
// files through the scan's ring — the budget holds at every moment a query waits on them, and the
// answers are those of a database holding everything in memory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { isSvcError } from '../../engine/errors.js';
import type { QueryResult } from '../../engine/query/index.js';
import { tempDir } from './helpers.js';

const MIB = 1024 * 1024;
const HOUR = 3_600_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;

/** `rows` rows of two doubles, a second apart, inserted in batches of 50,000. */
async function fill(db: Database, rows: number): Promise<void> {
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }]);
  for (let at = 0; at < rows; at += 50_000) {
    const n = Math.min(50_000, rows - at);
    const ts = new BigInt64Array(n);
    const v = new Float64Array(n);
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = at + i;
      ts[i] = T0 + BigInt(k) * 1_000_000_000n;
      v[i] = Math.sin(k / 977) * 100 + (k % 13) / 7;
      w[i] = (k * 7919) % 1000 / 10;
    }
    await db.insert('t', { $timestamp: ts, v, w });
  }
}

const exact = (r: QueryResult): string => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>, (x) => (Object.is(x, -0) ? '-0' : typeof x === 'bigint' ? `${x}n` : x)) : v));

describe('scans on worker threads', () => {
  it('a worker killed during a query fails that query with WorkerFailed; the pool replaces it and the query answers', async () => {
    const one = await Database.open({ dataDir: await tempDir(), durability: 'none' });
    const db = await Database.open({ dataDir: await tempDir(), durability: 'none', parallelism: 2, parallelScanRows: 1 });
    try {
      for (const d of [one, db]) await fill(d, 3_000_000);
      const query = 'SELECT avg(v), max(w), count(v) FROM t WHERE w > 10 GROUP BY 1min';
      const pool = db.workers!;
      // Its failure is taken as it comes (it may fail while the workers are being killed).
      const running = db.query(query).then(() => null, (e: unknown) => e);
      for (let i = 0; i < 2_000 && pool.figures.busy === 0; i++) await new Promise((r) => setImmediate(r));
      assert.ok(pool.figures.busy > 0, 'no part of the query reached a worker');
      await Promise.all([pool.terminate(0), pool.terminate(1)]);
      const failure = await running;
      assert.ok(isSvcError(failure) && failure.code === 'WorkerFailed' && /worker thread/.test(failure.message), String(failure));
      assert.ok(db.figures().workers.restarts >= 2);
      const jobs = db.figures().workers.jobs;
      assert.equal(exact(await db.query(query)), exact(await one.query(query)));
      assert.ok(db.figures().workers.jobs > jobs, 'the replacements ran the parts');
    } finally {
      await one.close();
      await db.close();
    }
  });

  it('holds the memory budget while the workers read data five times larger, and answers as a database holding it all', async () => {
    const limit = 8 * MIB;
    const unbounded = await Database.open({ dataDir: await tempDir(), durability: 'none', batchRows: 16_384 });
    const db = await Database.open({ dataDir: await tempDir(), durability: 'os', memoryLimit: limit, batchRows: 16_384, parallelism: 2, parallelScanRows: 1 });
    try {
      // 2.5 M rows × 3 columns × 8 bytes: 60 MB of column data against 8 MiB.
      for (const d of [unbounded, db]) await fill(d, 2_500_000);
      await db.checkpoint();
      const queries = [
        'SELECT sum(v), count(w) FROM t WHERE v > 0.5',
        'SELECT avg(v), min(w), max(w) FROM t GROUP BY 1h',
        `SELECT first(v), last(v), spread(w) FROM t IN RANGE(${new Date(Number((T0 + 100n * HOUR) / 1_000_000n)).toISOString().slice(0, 19)}, +300h) WHERE w < 90 GROUP BY 1d`,
      ];
      let peak = 0;
      let samples = 0;
      // Sampled whenever the main thread waits (on the workers, on reads): the budget at those moments.
      const sampler = setInterval(() => {
        samples++;
        peak = Math.max(peak, db.figures().memory.used);
      }, 1);
      try {
        for (const q of queries) {
          const jobs = db.figures().workers.jobs;
          assert.equal(exact(await db.query(q)), exact(await unbounded.query(q)), q);
          assert.ok(db.figures().workers.jobs > jobs, `the workers ran parts of ${q}`);
        }
      } finally {
        clearInterval(sampler);
      }
      const memory = db.figures().memory;
      assert.ok(memory.readBacks > 0 && memory.evictions > 0, `evicted and read back: ${JSON.stringify(memory)}`);
      assert.ok(samples > 0 && peak <= limit, `the budget held: peak ${peak} of ${limit} over ${samples} samples`);
      assert.ok(memory.used <= limit);
    } finally {
      await unbounded.close();
      await db.close();
    }
  });
});
