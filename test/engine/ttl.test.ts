// A table's time to live (SPEC §14): rows older than now − TTL are gone for every read at once —
// a batch straddling the cutoff is cut, never answered from its statistics — whatever the query
// (aggregates, GROUP BY, WHERE on time, ASOF JOIN, FIND over tagged tables); the TTL can be set
// and dropped, survives a restart and a crash; shards wholly past it leave memory and disk.
import assert from 'node:assert/strict';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { copyAside, tempDir } from './helpers.js';
import { timeText as iso } from '../query/query-model.js';

const MIN = 60_000_000_000n;
const H = 60n * MIN;
const D = 24n * H;
const T0 = 1_700_000_000_000_000_000n - (1_700_000_000_000_000_000n % D); // a UTC midnight
/** Rows every 10 minutes over three days: v = the row's number. */
const TIMES = Array.from({ length: 3 * 144 }, (_, i) => T0 + BigInt(i) * 10n * MIN);

async function open(dir: string, extra: Partial<Parameters<typeof Database.open>[0]> = {}): Promise<Database> {
  return Database.open({ dataDir: dir, durability: 'os', batchRows: 7, sweepIntervalMs: 0, ...extra });
}

async function filled(dir: string): Promise<Database> {
  const db = await open(dir);
  await db.query("CREATE TABLE t (v DOUBLE, k INT64) SHARD_SIZE 6h WITH TAGS=[g] TTL 1d");
  await db.query("CREATE TABLE u (w DOUBLE) SHARD_SIZE 1d WITH TAGS=['g'] TTL 2d");
  await db.insert('t', { $timestamp: BigInt64Array.from(TIMES), v: Float64Array.from(TIMES, (_, i) => i), k: TIMES.map((_, i) => BigInt(i % 5)) });
  // u: one row an hour, w = its hour since T0.
  const hours = Array.from({ length: 72 }, (_, i) => T0 + BigInt(i) * H);
  await db.insert('u', { $timestamp: BigInt64Array.from(hours), w: Float64Array.from(hours, (_, i) => i) });
  return db;
}

const num = (x: unknown): number => Number(x);
async function one(db: Database, text: string, now: bigint): Promise<number[]> {
  const r = await db.query(text, { now });
  return r.tables.length === 0 ? [] : r.tables[0].columns.map((c) => num(c.values[0]));
}

describe('TTL', () => {
  it('hides exactly the rows past the cutoff from aggregates answered from statistics, GROUP BY and WHERE on time', async () => {
    const dir = await tempDir();
    const db = await filled(dir);
    try {
      // Cutoffs on a row, between rows, on a batch edge and mid-batch (batches of 7 rows).
      for (const at of [1, 7, 100, 203, 250, 431]) {
        for (const delta of [0n, 1n, -1n, 3n * MIN]) {
          const floor = TIMES[at] + delta;
          const now = floor + D;
          const kept = TIMES.map((t, i) => ({ t, i })).filter((x) => x.t >= floor);
          const where = `cutoff at row ${at}${delta === 0n ? '' : ` ${delta > 0n ? '+' : ''}${delta}ns`}`;
          const sum = kept.reduce((n, x) => n + x.i, 0);
          assert.deepEqual(await one(db, 'SELECT count(v), sum(v), min(v), max(v), first(v), last(v) FROM t', now),
            kept.length === 0 ? [] : [kept.length, sum, kept[0].i, kept.at(-1)!.i, kept[0].i, kept.at(-1)!.i], where);
          const byHour = await db.query('SELECT count(v) FROM t GROUP BY 1h', { now });
          const hours = new Map<bigint, number>();
          for (const x of kept) { const h = x.t - ((x.t - T0) % H); hours.set(h, (hours.get(h) ?? 0) + 1); }
          assert.deepEqual([...byHour.tables[0]?.timestamps ?? []], [...hours.keys()], `buckets, ${where}`);
          assert.deepEqual(Array.from(byHour.tables[0]?.columns[0].values ?? [], num), [...hours.values()], `bucket counts, ${where}`);
          // A WHERE on time and a range both reaching before the cutoff: only what is left counts, scanned rows too.
          const from = TIMES[Math.max(0, at - 20)];
          const r = await db.query(`SELECT count(v) FROM t WHERE $timestamp >= ${iso(from)}`, { now });
          const inRange = kept.filter((x) => x.t >= from).length;
          assert.deepEqual(r.tables.map((x) => num(x.columns[0].values[0])), inRange === 0 ? [] : [inRange], `WHERE on time, ${where}`);
          assert.equal(r.scannedRowsCount, 2 * inRange, `scanned rows ($timestamp and v), ${where}`);
          const ranged = await db.query(`SELECT count(k) FROM t IN RANGE(${iso(from)}, +1d)`, { now });
          assert.equal(ranged.scannedRowsCount, kept.filter((x) => x.t >= from && x.t < from + D).length, `scanned rows of a range, ${where}`);
        }
      }
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a joined table past its own cutoff matches nothing, and FIND reads each table with its own TTL', async () => {
    const dir = await tempDir();
    const db = await filled(dir);
    try {
      const now = T0 + 3n * D; // t keeps its last day, u its last two
      const joined = await db.query('SELECT $timestamp, v, w FROM t LEFT ASOF JOIN u', { now });
      const rows = joined.tables[0];
      assert.equal(rows.rowCount, TIMES.filter((t) => t >= T0 + 2n * D).length);
      for (let i = 0; i < rows.rowCount; i++) {
        const t = rows.timestamps[i];
        assert.equal(rows.columns[2].values[i], Number((t - T0) / H), 'u matched at the hour');
      }
      // u's cutoff after t's: t rows older than it find no u row to match.
      await db.query('ALTER TABLE u SET TTL 18h');
      const uFloor = now - 18n * H;
      const j2 = (await db.query('SELECT $timestamp, w FROM t LEFT ASOF JOIN u', { now })).tables[0];
      assert.equal(j2.rowCount, TIMES.filter((t) => t >= now - D).length);
      let unmatched = 0;
      for (let i = 0; i < j2.rowCount; i++) {
        const hour = T0 + ((j2.timestamps[i] - T0) / H) * H;
        if (hour >= uFloor) assert.equal(j2.columns[1].values[i], Number((hour - T0) / H));
        else { assert.equal(j2.columns[1].nulls?.[i], 1, 'a u row past its cutoff was matched'); unmatched++; }
      }
      assert.equal(unmatched, 36, 'the six hours before u\'s cutoff');
      await db.query('ALTER TABLE u SET TTL 2d');
      const found = await db.query("SELECT count(*) FROM FIND(tag='g')", { now });
      assert.deepEqual(found.tables.map((x) => [x.name, num(x.columns[0].values[0])]), [
        ['t', TIMES.filter((t) => t >= now - D).length], ['u', 48],
      ]);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('SET and DROP TTL apply to the rows already there; SHOW reports it; it survives a restart and a crash', async () => {
    const dir = await tempDir();
    const db = await filled(dir);
    const now = T0 + 3n * D;
    try {
      assert.deepEqual(await one(db, 'SELECT count(v) FROM t', now), [144]);
      await db.query('ALTER TABLE t DROP TTL');
      assert.deepEqual(await one(db, 'SELECT count(v) FROM t', now), [432], 'rows not removed yet are back');
      await db.query('ALTER TABLE t SET TTL 12h');
      assert.deepEqual(await one(db, 'SELECT count(v) FROM t', now), [72]);
      const show = await db.query('SHOW t');
      assert.deepEqual(show.tables[0].columns.map((c) => c.values.slice(-2)), [['$ttl', '$tags'], ['12h', 'g']]);
      assert.deepEqual(db.describeTable('u').ttl, { months: 0, nanos: 2n * D });
      const crashed = await copyAside(dir); // TableSetTtl records in the WAL
      await db.close();
      for (const d of [dir, crashed]) {
        const again = await open(d);
        assert.deepEqual(await one(again, 'SELECT count(v) FROM t', now), [72], d === dir ? 'after a restart' : 'after a crash');
        assert.deepEqual(again.describeTable('t').ttl, { months: 0, nanos: 12n * H });
        await again.close();
      }
      await rm(crashed, { recursive: true, force: true });
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a TTL that is not a positive duration (a negative one does not parse)', async () => {
    const dir = await tempDir();
    const db = await open(dir);
    try {
      await assert.rejects(db.query('CREATE TABLE z (v DOUBLE) TTL -1d'), (e: Error & { code?: string }) => e.code === 'QuerySyntax');
      await assert.rejects(db.query('CREATE TABLE z (v DOUBLE) TTL 0s'), /positive/);
      await assert.rejects(db.query('ALTER TABLE nope SET TTL 1d'), (e: Error & { code?: string }) => e.code === 'TableNotFound');
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('removes shards wholly past the TTL from memory and disk, and returns their bytes', async () => {
    const dir = await tempDir();
    const db = await open(dir);
    try {
      // Ten days up to now, one shard a day, rows every minute.
      const now = BigInt(Date.now()) * 1_000_000n;
      const first = now - 10n * D;
      const n = 10 * 1440;
      const ts = BigInt64Array.from({ length: n }, (_, i) => first + BigInt(i) * MIN);
      await db.createTable('m', [{ name: 'v', type: 'DOUBLE' }, { name: 'x', type: 'DOUBLE' }], { shardSize: D });
      await db.insert('m', { $timestamp: ts, v: Float64Array.from(ts, (_, i) => i), x: Float64Array.from(ts, () => Math.random()) });
      await db.checkpoint();
      const before = await bytesIn(join(dir, 'checkpoints'));
      await db.setTtl('m', { months: 0, nanos: 2n * D });
      await db.sweep();
      await db.checkpoint();
      const after = await bytesIn(join(dir, 'checkpoints'));
      const floor = BigInt(Date.now()) * 1_000_000n - 2n * D;
      const firstKept = floor - (floor % D); // the shard holding the cutoff stays
      const rows = db.describeTable('m').rowCount;
      assert.equal(rows, [...ts].filter((t) => t >= firstKept).length, 'every shard wholly past the TTL left, the rest stayed');
      assert.ok(after < before * 0.45, `checkpoint bytes ${before} → ${after}`);
      await db.close();
      const again = await open(dir);
      assert.equal(again.describeTable('m').rowCount, rows, 'gone after a restart too');
      await again.close();
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('retention by size removes the oldest shards across tables first, never a table\'s newest', async () => {
    // a: days 0–5, b: days 3–9, one 500-row shard a day, checkpointed.
    const dir = await tempDir();
    const fill = await open(dir);
    for (const t of ['a', 'b']) await fill.createTable(t, [{ name: 'v', type: 'DOUBLE' }], { shardSize: D });
    for (const [t, first, last] of [['a', 0, 5], ['b', 3, 9]] as const) {
      for (let d = first; d <= last; d++) {
        const ts = BigInt64Array.from({ length: 500 }, (_, i) => T0 + BigInt(d) * D + BigInt(i) * MIN);
        await fill.insert(t, { $timestamp: ts, v: Float64Array.from(ts, () => Math.random()) });
      }
    }
    await fill.checkpoint();
    await fill.close();
    const shard = (await bytesIn(join(dir, 'checkpoints'), '.cols')) / 13;
    const days = async (db: Database, t: string) => db.describeTable(t).rowCount / 500;
    const oldest = async (db: Database, t: string) => (await db.query(`SELECT min($timestamp) FROM ${t}`, { now: T0 })).tables[0].timestamps[0];
    try {
      // Room for ~8.5 of the 13 shards: a's days 0–3 and b's day 3 go, oldest first across tables.
      let db = await open(dir, { retentionSize: Math.floor(shard * 8.5) });
      await db.sweep();
      assert.ok(Math.abs(await days(db, 'a') + await days(db, 'b') - 8) <= 1, `${await days(db, 'a')} + ${await days(db, 'b')} day-shards left`);
      assert.ok(await oldest(db, 'a') >= T0 + 3n * D && await oldest(db, 'b') >= T0 + 3n * D, 'the oldest days of both tables went first');
      await db.close();
      // Room for nothing: each table keeps its newest shard, the one being written.
      db = await open(dir, { retentionSize: 1 });
      await db.sweep();
      assert.deepEqual([await days(db, 'a'), await days(db, 'b')], [1, 1]);
      assert.deepEqual([await oldest(db, 'a'), await oldest(db, 'b')], [T0 + 5n * D, T0 + 9n * D]);
      await db.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});


/** Bytes of the files in `dir` (those ending in `suffix`). */
async function bytesIn(dir: string, suffix = ''): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir)) if (name.endsWith(suffix)) n += (await stat(join(dir, name))).size;
  return n;
}
