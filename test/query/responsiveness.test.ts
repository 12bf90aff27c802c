// A running SELECT shares the event loop: it yields in slices (timers and I/O run meanwhile), an
// AbortSignal stops it with QueryCancelled, the deadline stops it even inside one long batch,
// and it reads a snapshot taken when it started, whatever is inserted while it is suspended.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import { executeQuery } from '../../engine/query/index.js';
import { FakeCatalog } from './fake-catalog.js';
import { tablesOf } from './helpers.js';

const BASE = 1_483_228_800_000_000_000n;
const SECOND = 1_000_000_000n;

function series(n: number, from = 0): { $timestamp: BigInt64Array; v: Float64Array } {
  return {
    $timestamp: BigInt64Array.from({ length: n }, (_, k) => BASE + BigInt(from + k) * SECOND),
    v: Float64Array.from({ length: n }, (_, k) => (from + k) % 100),
  };
}

/** Terms no row matches and no planner rule folds: each is a pass over every row. */
const slowWhere = (terms: number): string => Array.from({ length: terms }, (_, k) => `v * 2.0 = ${-1 - k}`).join(' OR ');

const isCode = (code: string) => (e: unknown): boolean => e instanceof SvcError && e.code === code;

describe('responsiveness', () => {
  const catalog = new FakeCatalog(1000);
  before(async () => {
    await catalog.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
    await catalog.insert('t', series(100_000));
  });

  it('a long query lets timers run while it executes (default slices)', async () => {
    let isDone = false;
    let ticksDuring = 0;
    const timer = setInterval(() => { if (!isDone) ticksDuring++; }, 1);
    try {
      const result = await executeQuery(catalog, `SELECT count(v) FROM t WHERE ${slowWhere(200)}`);
      isDone = true;
      assert.equal(result.tables.length, 0);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticksDuring > 0, 'the interval never ran while the query executed');
  });

  it('an aborted signal stops a running query with QueryCancelled', async () => {
    const controller = new AbortController();
    const running = executeQuery(catalog, `SELECT count(v) FROM t WHERE ${slowWhere(50)}`, { signal: controller.signal, yieldAfterMs: 0 });
    controller.abort();
    await assert.rejects(running, isCode('QueryCancelled'));
    // Plain rows stop too.
    const rows = new AbortController();
    const scan = executeQuery(catalog, 'SELECT * FROM t', { signal: rows.signal, yieldAfterMs: 0 });
    setImmediate(() => rows.abort());
    await assert.rejects(scan, isCode('QueryCancelled'));
  });

  it('a wide condition over one big batch lets timers run too', async () => {
    const one = new FakeCatalog(65_536);
    await one.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
    await one.insert('t', series(65_536));
    let isDone = false;
    let ticksDuring = 0;
    const timer = setInterval(() => { if (!isDone) ticksDuring++; }, 1);
    try {
      await executeQuery(one, `SELECT count(v) FROM t WHERE ${slowWhere(600)}`);
      isDone = true;
    } finally {
      clearInterval(timer);
    }
    // One batch of 39 M term tests: pausing only between batches would let the timer run once
    // at most (before the batch); the batch cut into ~1 M-test slices lets it run again and again.
    assert.ok(ticksDuring >= 5, `the interval ran ${ticksDuring} times while the query executed`);
  });

  it('the deadline stops a wide condition inside one batch', async () => {
    const one = new FakeCatalog(65_536);
    await one.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
    await one.insert('t', series(65_536));
    // 3,000 terms over one batch: checked only between batches, this ran for seconds.
    await assert.rejects(executeQuery(one, `SELECT count(v) FROM t WHERE ${slowWhere(3000)}`, { deadlineMs: 50 }), isCode('QueryTimeout'));
  });

  describe('a long query text is parsed in slices', () => {
    // ~270 KB, ~100,000 tokens: the Earley parser takes ~0.4 s over it. The range holds no rows, so
    // running the statement is instant: whatever pauses happen, happen while it is parsed.
    const wide = `SELECT count(v) FROM t IN RANGE(1970, +1s) WHERE ${Array.from({ length: 25_000 }, (_, k) => `v = ${k}.5`).join(' OR ')}`;

    it('timers run while it is parsed', async () => {
      let isDone = false;
      let ticksDuring = 0;
      const timer = setInterval(() => { if (!isDone) ticksDuring++; }, 1);
      try {
        const result = await executeQuery(catalog, wide);
        isDone = true;
        assert.equal(result.tables.length, 0);
      } finally {
        clearInterval(timer);
      }
      assert.ok(ticksDuring >= 5, `the interval ran ${ticksDuring} times while the text was parsed`);
    });

    it('the deadline and the signal stop the parse', async () => {
      await assert.rejects(executeQuery(catalog, wide, { deadlineMs: 20 }), isCode('QueryTimeout'));
      const signal = { aborted: false };
      setTimeout(() => { signal.aborted = true; }, 20);
      // Parsed in one go, the text would be refused only after it was parsed ("before it started").
      await assert.rejects(executeQuery(catalog, wide, { signal }), (e) => isCode('QueryCancelled')(e) && /while it ran/.test((e as Error).message));
    });

    it('an INSERT cancelled while it is parsed writes nothing', async () => {
      const rows = Array.from({ length: 20_000 }, (_, k) => `(${BASE + BigInt(k) * SECOND}, 1)`).join(', ');
      const before = await executeQuery(catalog, 'SELECT count(v) FROM t');
      // Not a timer racing the parse (the INSERT scanner parses these 20,000 rows in ~10 ms, so a
      // 20 ms timer came after the write under light load): the parse yields at every step
      // (yieldAfterMs 0), and the signal turns once it has yielded.
      const signal = { aborted: false };
      const inserting = executeQuery(catalog, `INSERT INTO t ($timestamp, v) VALUES ${rows}`, { signal, yieldAfterMs: 0 });
      setImmediate(() => { signal.aborted = true; });
      await assert.rejects(inserting, (e) => isCode('QueryCancelled')(e) && /while it ran/.test((e as Error).message));
      assert.deepStrictEqual(tablesOf(await executeQuery(catalog, 'SELECT count(v) FROM t')), tablesOf(before));
    });
  });
});

describe('snapshot of a suspended query', () => {
  let dir: string;
  let db: Database;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-snapshot-'));
    db = await Database.open({ dataDir: dir, durability: 'none', batchRows: 100, sweepIntervalMs: 0 });
    for (const name of ['a', 'b']) {
      await db.createTable(name, [{ name: 'v', type: 'DOUBLE' }]);
      await db.insert(name, series(1000));
    }
  });
  after(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const QUERIES = [
    'SELECT count(v), sum(v), max(v) FROM a, b',
    'SELECT count(v) FROM a, b WHERE v > 10 GROUP BY 1min',
    'SELECT * FROM a, b WHERE v < 3',
  ];

  for (const query of QUERIES) {
    it(`inserts while it is suspended do not reach it: ${query}`, async () => {
      const before = tablesOf(await db.query(query));
      // Yielding after every batch, the query is suspended before it reads its first batch.
      const running = db.query(query, { yieldAfterMs: 0 });
      // New rows at the end, late rows inside sealed batches (which rewrites them), a new shard.
      await db.insert('a', series(500, 1000));
      await db.insert('a', series(300, 250));
      await db.insert('b', series(10, 400_050));
      assert.deepStrictEqual(tablesOf(await running), before);
      assert.notDeepStrictEqual(tablesOf(await db.query(query)), before, 'the inserts changed nothing: the test proves nothing');
      await db.query('DROP TABLE a');
      await db.query('DROP TABLE b');
      for (const name of ['a', 'b']) {
        await db.createTable(name, [{ name: 'v', type: 'DOUBLE' }]);
        await db.insert(name, series(1000));
      }
    });
  }
});
