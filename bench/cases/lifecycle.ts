// Issue 26, the data lifecycle: what DELETE, TTL removal and the TTL cutoff cost.
// - DELETE of 1 % of BENCH_LIFECYCLE_ROWS rows (default 100 M; `$timestamp` + one DOUBLE over a
//   year, checkpointed) in the middle of the table: a time range (whole batches dropped, two edge
//   batches rebuilt), and scattered (a WHERE keeping 90 % of a tenth of the table: every batch of
//   that tenth rebuilt), in rows removed per second and rows rewritten per second.
// - TTL removal of 50 shards: 60 one-hour shards checkpointed, then a TTL that passes 50 of them;
//   timed from ALTER … SET TTL to the sweep's removal written and the checkpoint that deletes their
//   files (the bytes back on the disk).
// - The TTL cutoff on hot queries: the same table with and without a TTL (one whose cutoff lies
//   before every row, so both answer the same), a GROUP BY from statistics and a scan.
// - DELETE … WHERE DUPLICATE on 10 M rows (1 % of them repeated) beside DuckDB's equivalent,
//   `DELETE … WHERE rowid NOT IN (SELECT min(rowid) … GROUP BY …)`, on the same rows in memory.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../engine/index.js';
import { benchRows, makeSeries, tempDir, toBatches, YEAR_NS, YEAR_START } from '../data.js';
import type { InputBatch } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';
import { appendBatches, createDuckTable, duckAnswer, duckQuery, openDuck } from '../peers/duckdb.js';
import { insertAll } from './ingest.js';
import { prng } from '../../test/prng.js';

export const LIFECYCLE_SUITE = 'lifecycle';
export const LIFECYCLE_QUERY_SUITE = 'lifecycle: TTL cutoff on hot queries';
export const DELETE_RANGE = 'svc DELETE 1 % in the middle (a time range)';
export const DELETE_SCATTERED = 'svc DELETE 1 % scattered over a tenth (WHERE)';
export const TTL_SHARDS = 'svc TTL removal of 50 shards, until the bytes are back';
export const DUPLICATE_SVC = 'svc DELETE … WHERE DUPLICATE, 10 M rows';
export const DUPLICATE_DUCK = 'duckdb DELETE … WHERE rowid NOT IN (SELECT min(rowid) … GROUP BY …)';
export const TTL_GROUP_BY = 'svc GROUP BY 1h from statistics, TTL';
export const NO_TTL_GROUP_BY = 'svc GROUP BY 1h from statistics, no TTL';
export const TTL_SCAN = 'svc sum WHERE v > 0.5, TTL';
export const NO_TTL_SCAN = 'svc sum WHERE v > 0.5, no TTL';

const H = 3_600_000_000_000n;
const TABLE = 't';
const COLUMNS = ['v'] as const;

/** Rows of the DELETE cases (BENCH_LIFECYCLE_ROWS; default 100 M, or BENCH_ROWS × 10 when that is set). */
function lifecycleRows(): number {
  const text = process.env.BENCH_LIFECYCLE_ROWS;
  if (text !== undefined) return Number(text.replaceAll('_', ''));
  return process.env.BENCH_ROWS === undefined ? 100_000_000 : benchRows() * 10;
}

/** The year of `rows` rows, made once per size. */
let series: { rows: number; batches: InputBatch[] } | null = null;
function yearOf(rows: number): InputBatch[] {
  if (series?.rows !== rows) {
    series = null;
    series = { rows, batches: toBatches(makeSeries(rows, COLUMNS, 26), 100_000) };
  }
  return series.batches;
}

/** A database holding the year, checkpointed (its batches on disk, as a long-lived table's are). */
async function filled(rows: number, options: { shardSize?: bigint; ttl?: boolean } = {}): Promise<{ db: Database; remove: () => Promise<void>; dir: string }> {
  const dir = await tempDir('lifecycle');
  const db = await Database.open({ dataDir: dir.path, durability: 'fsync', sweepIntervalMs: 0 });
  await db.createTable(TABLE, COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })), {
    shardSize: options.shardSize, ttl: options.ttl === true ? { months: 12 * 100, nanos: 0n } : undefined,
  });
  await insertAll(db, TABLE, yearOf(rows), 8);
  await db.checkpoint();
  return { db, dir: dir.path, remove: async () => { await db.close(); await dir.remove(); } };
}

const isoOf = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString().replace('Z', '');
/** The middle of the year, and a span of `share` of it from there. */
function middle(share: number): string {
  const span = BigInt(Math.round(Number(YEAR_NS) * share));
  return `RANGE(${isoOf(YEAR_START + YEAR_NS / 2n)}, ${isoOf(YEAR_START + YEAR_NS / 2n + span)})`;
}

async function deleted(db: Database, text: string): Promise<number> {
  const r = await db.query(text);
  return Number(r.tables[0]?.columns[0].values[0] ?? 0);
}

export const lifecycleSuite: Suite = {
  name: LIFECYCLE_SUITE,
  mode: 'once',
  rounds: 3,
  cases: [
    defineCase({
      name: DELETE_RANGE,
      rows: () => Math.round(lifecycleRows() / 100),
      setup: () => filled(lifecycleRows()),
      run: ({ db }) => deleted(db, `DELETE FROM ${TABLE} IN ${middle(0.01)}`),
      check: (n, { db }) => {
        const expected = Math.round(lifecycleRows() / 100);
        return Math.abs(n - expected) > expected * 0.01 || db.describeTable(TABLE).rowCount !== lifecycleRows() - n ? [`removed ${n}, expected about ${expected}`] : [];
      },
      teardown: ({ remove }) => remove(),
    }),
    defineCase({
      name: DELETE_SCATTERED,
      // Rows rewritten: the tenth of the table the range covers.
      rows: () => Math.round(lifecycleRows() / 10),
      setup: () => filled(lifecycleRows()),
      run: ({ db }) => deleted(db, `DELETE FROM ${TABLE} IN ${middle(0.1)} WHERE v < 0.1`),
      check: (n) => {
        const expected = lifecycleRows() / 100;
        return Math.abs(n - expected) > expected * 0.05 ? [`removed ${n}, expected about ${expected}`] : [];
      },
      teardown: ({ remove }) => remove(),
    }),
    defineCase({
      name: TTL_SHARDS,
      rows: () => Math.round(benchRows() * 50 / 60),
      async setup() {
        // 60 one-hour shards ending now.
        const rows = benchRows();
        const now = BigInt(Date.now()) * 1_000_000n;
        const first = now - now % H - 59n * H;
        const step = (60n * H) / BigInt(rows);
        const ts = BigInt64Array.from({ length: rows }, (_, i) => first + BigInt(i) * step);
        const random = prng(7);
        const batches = toBatches({ rows, ts, columns: { v: Float64Array.from({ length: rows }, () => random()) } }, 100_000);
        const dir = await tempDir('lifecycle-ttl');
        const db = await Database.open({ dataDir: dir.path, durability: 'fsync', sweepIntervalMs: 0 });
        await db.createTable(TABLE, [{ name: 'v', type: 'DOUBLE' }], { shardSize: H });
        await insertAll(db, TABLE, batches, 8);
        await db.checkpoint();
        const before = await bytesIn(join(dir.path, 'checkpoints'));
        return { db, dir: dir.path, before, remove: async () => { await db.close(); await dir.remove(); } };
      },
      async run({ db, dir }) {
        // 10 h: the shard holding the cutoff and the 9 after it stay, the 50 before it go.
        await db.setTtl(TABLE, { months: 0, nanos: 10n * H - 1n });
        await db.sweep();
        await db.checkpoint();
        return bytesIn(join(dir, 'checkpoints'));
      },
      check: (after, { db, before }) => {
        const left = db.describeTable(TABLE).rowCount;
        const problems: string[] = [];
        if (Math.abs(left - benchRows() / 6) > benchRows() / 60) problems.push(`${left} rows left, expected about ${benchRows() / 6}`);
        if (after > before * 0.25) problems.push(`checkpoint bytes ${before} → ${after}: not returned`);
        return problems;
      },
      teardown: ({ remove }) => remove(),
    }),
    defineCase({
      name: DUPLICATE_SVC,
      rows: () => duplicateRows().rows,
      vs: [DUPLICATE_DUCK],
      async setup() {
        const dir = await tempDir('lifecycle-dup');
        const db = await Database.open({ dataDir: dir.path, durability: 'fsync', sweepIntervalMs: 0 });
        await db.createTable(TABLE, [{ name: 'v', type: 'DOUBLE' }, { name: 'w', type: 'DOUBLE' }]);
        await insertAll(db, TABLE, duplicateRows().batches, 8);
        await db.checkpoint();
        return { db, remove: async () => { await db.close(); await dir.remove(); } };
      },
      run: ({ db }) => deleted(db, `DELETE FROM ${TABLE} IN RANGE(2020, 2023) WHERE DUPLICATE`),
      check: (n) => (n === duplicateRows().repeats ? [] : [`removed ${n}, expected ${duplicateRows().repeats}`]),
      teardown: ({ remove }) => remove(),
    }),
    defineCase({
      name: DUPLICATE_DUCK,
      rows: () => duplicateRows().rows,
      async setup() {
        const duck = await openDuck();
        await createDuckTable(duck.connection, TABLE, ['v', 'w']);
        await appendBatches(duck.connection, TABLE, ['v', 'w'], duplicateRows().batches, 'bulk');
        return duck;
      },
      run: (duck) => duckQuery(duck.connection, `DELETE FROM ${TABLE} WHERE rowid NOT IN (SELECT min(rowid) FROM ${TABLE} GROUP BY ts, v, w)`),
      check: async (_out, duck) => {
        const n = Number((await duckAnswer(duck.connection, `SELECT count(*) AS n FROM ${TABLE}`)).n[0]);
        const expected = duplicateRows().rows - duplicateRows().repeats;
        return n === expected ? [] : [`${n} rows left, expected ${expected}`];
      },
      teardown: (duck) => duck.close(),
    }),
  ],
};

/** 10 M rows (BENCH_ROWS) over 2021, 1 % of them a repeat of the row before (same time and values). */
let duplicates: { rows: number; repeats: number; batches: InputBatch[] } | null = null;
function duplicateRows(): { rows: number; repeats: number; batches: InputBatch[] } {
  const rows = benchRows();
  if (duplicates?.rows === rows) return duplicates;
  const base = makeSeries(rows, ['v', 'w'], 27);
  const random = prng(28);
  let repeats = 0;
  for (let i = 1; i < rows; i++) {
    if (random() >= 0.01) continue;
    base.ts[i] = base.ts[i - 1];
    base.columns.v[i] = base.columns.v[i - 1];
    base.columns.w[i] = base.columns.w[i - 1];
    repeats++;
    i++; // never a repeat of a repeat: each set is a pair
  }
  duplicates = { rows, repeats, batches: toBatches(base, 100_000) };
  return duplicates;
}

/** Same rows in two tables, one with a TTL that hides nothing (its cutoff before every row). */
let hot: { db: Database; remove: () => Promise<void> } | null = null;

export const lifecycleQuerySuite: Suite = {
  name: LIFECYCLE_QUERY_SUITE,
  mode: 'ops',
  rounds: 2,
  async setup() {
    const dir = await tempDir('lifecycle-hot');
    const db = await Database.open({ dataDir: dir.path, durability: 'none', sweepIntervalMs: 0 });
    for (const [name, ttl] of [['plain', undefined], ['ttl', { months: 12 * 100, nanos: 0n }]] as const) {
      await db.createTable(name, [{ name: 'v', type: 'DOUBLE' }], { ttl });
      await insertAll(db, name, yearOf(benchRows()), 8);
    }
    hot = { db, remove: async () => { await db.close(); await dir.remove(); } };
  },
  async teardown() {
    await hot?.remove();
    hot = null;
  },
  cases: [
    { name: TTL_GROUP_BY, vs: [NO_TTL_GROUP_BY], run: () => hot!.db.query(`SELECT count(v), avg(v) FROM ttl IN RANGE(2021, +1y) GROUP BY 1h`) },
    { name: NO_TTL_GROUP_BY, run: () => hot!.db.query(`SELECT count(v), avg(v) FROM plain IN RANGE(2021, +1y) GROUP BY 1h`) },
    { name: TTL_SCAN, vs: [NO_TTL_SCAN], run: () => hot!.db.query(`SELECT sum(v) FROM ttl WHERE v > 0.5`) },
    { name: NO_TTL_SCAN, run: () => hot!.db.query(`SELECT sum(v) FROM plain WHERE v > 0.5`) },
  ],
};

async function bytesIn(dir: string): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir)) n += (await stat(join(dir, name))).size;
  return n;
}

