// A source's TTL never removes view rows (SPEC §14, §15): two sources get the same writes, `raw`
// with a TTL whose removals take its oldest shards away, `twin` without; every view over `raw`
// must hold what the same view over `twin` holds — buckets whose rows all left, and the bucket the
// removal cuts through (its rows before the cut kept as partial states, merged with the rows
// still in the source as new ones arrive), across more removals (a shorter TTL) and a restart.
// A view's own TTL bounds its rows.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Database } from '../../engine/database.js';
import { prng } from '../prng.js';
import { compare, resultRows } from './view-workload.js';
import type { ViewCase } from './view-workload.js';
import { tempDir } from './helpers.js';

const DAY_S = 86_400;

/** Views of several bucket sizes over `source`: shorter than a shard, longer, and a calendar month. */
function views(source: string): ViewCase[] {
  const items = ['avg(v)', 'min(v)', 'max(v)', 'count(v)', 'sum(n)', 'first(v)', 'last(n)', 'sample_variance(v)', 'skewness(v)', 'kurtosis(v)', 'adjacent_count(host)', 'spread(n)', 'harmonic_mean(v)', 'quadratic_mean(v)', 'product(v)', 'abs_max(n)'];
  const make = (name: string, bucket: string, keys: string[], list: string[]): ViewCase => ({ name: `${source}_${name}`, round: 0, bucket, keys, items: list, columns: list, where: null });
  return [
    make('w', '1w', ['host'], items),
    make('h6', '6h', [], items.filter((i) => !i.startsWith('product'))),
    make('mon', '1mon', ['host'], ['avg(v)', 'max(v)', 'count(v)', 'first(v)', 'last(v)', 'population_stddev(v)']),
    // Aggregates whose states merge in any order, over buckets of many batches: refreshed from kept batch states.
    make('free', '2w', [], ['avg(v)', 'max(n)', 'count(v)', 'sample_stddev(v)', 'sum(n)', 'abs_min(v)']),
  ];
}

const create = (v: ViewCase, source: string) => `CREATE MATERIALIZED VIEW ${v.name} AS SELECT ${v.items.join(', ')} FROM ${source} GROUP BY ${[v.bucket, ...v.keys].join(', ')}`;
const read = (v: ViewCase) => `SELECT ${[...v.keys, ...v.columns].map((c) => `"${c}"`).join(', ')} FROM ${v.name}`;

/** `rows` rows between `from` and `to` seconds before now, in any order, the same text for both sources. */
function rows(r: () => number, n: number, from: number, to: number): string {
  const now = Date.now() / 1000;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const at = new Date((now - from + r() * (from - to)) * 1000).toISOString().replace('Z', '');
    const v = r() < 0.1 ? 'NULL' : (0.5 + r()).toFixed(4);
    const host = ["'a'", "'b'", "'c'", 'NULL'][Math.floor(r() * 4)];
    out.push(`(${at}, ${v}, ${Math.floor(r() * 100) - 20}, ${host})`);
  }
  return out.join(', ');
}

it("keeps in views the rows a source's TTL removes, buckets cut by a removal included", async () => {
  const seed = Number(process.env.VIEW_SEED ?? Math.floor(Math.random() * 1e6));
  const r = prng(seed);
  const dataDir = await tempDir('svc-views-ttl-');
  const options = { dataDir, durability: 'os' as const, batchRows: 64, sweepIntervalMs: 0 };
  let db = await Database.open(options);
  const both = async (text: (source: string) => string) => { for (const s of ['raw', 'twin']) await db.query(text(s)); };
  /** The same new rows into both sources. */
  const insert = async (n: number, from: number, to: number) => {
    const values = rows(r, n, from, to);
    await both((s) => `INSERT INTO ${s} ($timestamp, v, n, host) VALUES ${values}`);
  };
  const check = async (when: string) => {
    await db.viewsCaughtUp();
    const twins = views('twin');
    for (const [k, v] of views('raw').entries()) {
      const problems = compare(twins[k], resultRows(await db.query(read(v))), resultRows(await db.query(read(twins[k]))));
      assert.deepEqual(problems.slice(0, 8), [], `seed ${seed}, ${when}`);
    }
  };
  try {
    await db.query('CREATE TABLE raw (v DOUBLE, n INT64, host SYMBOL) SHARD_SIZE 1d TTL 40d');
    await db.query('CREATE TABLE twin (v DOUBLE, n INT64, host SYMBOL) SHARD_SIZE 1d');
    for (const s of ['raw', 'twin']) for (const v of views(s)) await db.query(create(v, s));
    await insert(3000, 35 * DAY_S, 0);
    await check('before any removal');
    // Shards older than 10 days leave raw: every view keeps them.
    await db.query('ALTER TABLE raw SET TTL 10d');
    assert.ok(await db.sweep() >= 0);
    assert.ok(db.describeTable('raw').rowCount < db.describeTable('twin').rowCount, `seed ${seed}: nothing left raw`);
    await check('after the first removal');
    // New rows in the days still held, late ones among them, and a DELETE there.
    await insert(400, 8 * DAY_S, 0);
    await both((s) => `DELETE FROM ${s} IN RANGE(${new Date(Date.now() - 5 * DAY_S * 1000).toISOString().replace('Z', '')}, +6h) WHERE n > 40`);
    await check('after new rows and a DELETE');
    // More leaves (the edge moves on, within a week and past one), then a restart.
    for (const ttl of ['9d', '6d']) {
      await db.query(`ALTER TABLE raw SET TTL ${ttl}`);
      await db.sweep();
      await insert(200, 5 * DAY_S, 0);
      await check(`after the TTL became ${ttl}`);
    }
    await db.checkpoint();
    await insert(200, 5 * DAY_S, 0);
    await db.close();
    db = await Database.open(options);
    await check('after a restart');
    await db.query('ALTER TABLE raw SET TTL 3d');
    await db.sweep();
    await insert(200, 2 * DAY_S, 0);
    await check('after a removal following the restart');
  } finally {
    await db.close();
  }
});

it("bounds a view's rows by its own TTL, whatever its source keeps", async () => {
  const dataDir = await tempDir('svc-views-own-ttl-');
  const db = await Database.open({ dataDir, durability: 'os', sweepIntervalMs: 0 });
  try {
    await db.query('CREATE TABLE t (v DOUBLE, n INT64, host SYMBOL) SHARD_SIZE 1d');
    await db.query('CREATE MATERIALIZED VIEW t_d TTL 5d AS SELECT count(v) FROM t GROUP BY 1d');
    await db.query(`INSERT INTO t ($timestamp, v, n, host) VALUES ${rows(prng(1), 500, 30 * DAY_S, 0)}`);
    await db.viewsCaughtUp();
    const cutoff = BigInt(Date.now() - 5 * DAY_S * 1000) * 1_000_000n;
    const days = await db.query('SELECT count($timestamp) FROM t_d');
    assert.ok(Number(days.tables[0].columns[0].values[0]) <= 6, 'rows older than the view\'s TTL are read');
    const source = await db.query(`SELECT count(v) FROM t GROUP BY 1d`);
    assert.ok(source.tables[0].rowCount >= 25, 'the source keeps its rows');
    await db.sweep();
    const left = await db.query('SELECT $timestamp FROM t_d');
    for (const ts of left.tables[0]?.timestamps ?? []) assert.ok(ts >= cutoff - 86_400_000_000_000n * 2n, `a view row of ${ts} outlived the view's TTL`);
    assert.equal(db.describeTable('t').rowCount, 500);
  } finally {
    await db.close();
  }
});
