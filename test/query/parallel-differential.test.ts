// Scans split across worker threads (engine/query/exec/operators/aggregate-parts.ts) answer as the
// main thread alone does, bit for bit: the differential generator's random queries over its
// random tables, run on databases with 1, 2 and 4 worker threads that split every scan they can
// (parallelScanRows: 1, so even a few rows make parts), give equal answers — double sums,
// extremes, first/last and row times included — and the workers ran parts. Then a larger table
// of numbers in many batches, split in many parts, against DuckDB. QUERY_SEED replays a seed.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import type { QueryResult } from '../../engine/query/index.js';
import { renderQuery, timeText } from './query-model.js';
import { BASE, int, pick, randomTable, rng } from './random-data.js';
import type { Rng } from './random-data.js';
import { randomQuery } from './random-query.js';
import { assertSameRows, openOracle, oracleRows } from './duckdb/oracle.js';
import type { Oracle } from './duckdb/oracle.js';

const SEED = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = 3;
const QUERIES = 250;
const THREADS = [1, 2, 4];

/** A result in a form where equal means bit for bit: -0, NaN and int64 spelled out, arrays plain. */
function exact(r: QueryResult | Error): string {
  if (r instanceof Error) return `error ${r.message}`;
  return JSON.stringify(r, (_, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? v : String(v);
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<unknown>, (x) => (typeof x === 'number' && Object.is(x, -0) ? '-0' : typeof x === 'number' && Number.isNaN(x) ? 'NaN' : typeof x === 'bigint' ? `${x}n` : x));
    return v;
  });
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'svc-parallel-'));
}

describe('scans split across worker threads', () => {
  const dirs: string[] = [];
  after(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

  it(`answer the random queries as one thread does, with 1, 2 and 4 workers (seed ${SEED})`, async () => {
    let parts = 0;
    let checked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const seed = SEED + round;
      const batchRows = int(rng(seed), 2, 9);
      const dbs: Database[] = [];
      for (const parallelism of THREADS) {
        const dir = await tempDir();
        dirs.push(dir);
        dbs.push(await Database.open({ dataDir: dir, durability: 'none', batchRows, parallelism, parallelScanRows: 1, sweepIntervalMs: 0 }));
      }
      try {
        // The same tables, written the same way, into each database.
        let times: bigint[] = [];
        for (const db of dbs) {
          const r = rng(seed);
          const tables = [await randomTable(r, catalogOf(db), 'ta'), await randomTable(r, catalogOf(db), 'tb')];
          times = tables.flatMap((t) => t.rows.map((row) => row.ts));
        }
        const jobs = dbs.map((db) => db.figures().workers.jobs);
        const r = rng(seed + 1_000_003);
        for (let q = 0; q < QUERIES; q++) {
          const text = renderQuery(randomQuery(r, ['ta', 'tb'], times));
          const answers = await Promise.all(dbs.map((db) => db.query(text, { now: 0n }).catch((e: Error) => e)));
          const one = exact(answers[0]);
          for (let i = 1; i < dbs.length; i++) {
            if (exact(answers[i]) !== one) assert.fail(`seed ${seed}: ${THREADS[i]} workers answer otherwise than one thread\n  ${text}\n  one thread: ${one.slice(0, 2000)}\n  ${THREADS[i]} workers: ${exact(answers[i]).slice(0, 2000)}`);
          }
          checked++;
        }
        parts += dbs.slice(1).reduce((n, db, i) => n + db.figures().workers.jobs - jobs[i + 1], 0);
        assert.equal(dbs[0].figures().workers.jobs, 0);
      } finally {
        for (const db of dbs) await db.close();
      }
    }
    assert.equal(checked, ROUNDS * QUERIES);
    // The generator's queries include many the parts can take: they must have run on the workers.
    assert.ok(parts > ROUNDS, `seed ${SEED}: only ${parts} parts ran on worker threads`);
  });
});

// ---- against DuckDB ---------------------------------------------------------------------------

const BIG_ROWS = 60_000;
const DAY = 86_400_000_000_000n;

interface Big {
  readonly db: Database;
  readonly oracle: Oracle;
}

let big: Big | null = null;

describe('scans split across worker threads, against DuckDB', () => {
  before(async () => {
    const r = rng(SEED);
    const dir = await tempDir();
    const db = await Database.open({ dataDir: dir, durability: 'none', batchRows: 1024, parallelism: 4, parallelScanRows: 1, sweepIntervalMs: 0 });
    const oracle = await openOracle();
    await db.createTable('big', [{ name: 'dv', type: 'DOUBLE' }, { name: 'iv', type: 'INT64' }, { name: 'bv', type: 'BOOLEAN' }]);
    await oracle.connection.run('CREATE TABLE big (ts BIGINT, dv DOUBLE, iv BIGINT, bv BOOLEAN)');
    // Rows over 60 days in inserts of random sizes and some out of order (late runs); nulls, no NaN
    // (DuckDB's min/max take NaN, svc's skip it: the generator's tables cover NaN against svc's own).
    const ts = new BigInt64Array(BIG_ROWS);
    const dv: (number | null)[] = [];
    const iv: (bigint | null)[] = [];
    const bv: (boolean | null)[] = [];
    for (let i = 0; i < BIG_ROWS; i++) {
      ts[i] = BASE + BigInt(Math.floor(r() * 60 * 86_400)) * 1_000_000_000n;
      dv.push(r() < 0.03 ? null : Math.round((r() - 0.3) * 1e6) / 1e3);
      iv.push(r() < 0.03 ? null : BigInt(Math.floor((r() - 0.5) * 2 ** 40)));
      bv.push(r() < 0.03 ? null : r() < 0.5);
    }
    const order = Array.from({ length: BIG_ROWS }, (_, i) => i).sort((a, b) => (ts[a] < ts[b] ? -1 : ts[a] > ts[b] ? 1 : a - b));
    // Mostly in time order, a tenth of the rows late.
    const late = order.filter(() => r() < 0.1);
    const inOrder = order.filter((i) => !late.includes(i));
    for (const rows of [inOrder, late]) {
      for (let at = 0; at < rows.length;) {
        const chunk = rows.slice(at, at + int(r, 500, 5000));
        at += chunk.length;
        await db.insert('big', { $timestamp: BigInt64Array.from(chunk, (i) => ts[i]), dv: chunk.map((i) => dv[i]), iv: chunk.map((i) => iv[i]), bv: chunk.map((i) => bv[i]) });
      }
    }
    const values = order.map((i) => `(${ts[i]}, ${dv[i] ?? 'NULL'}, ${iv[i] ?? 'NULL'}, ${bv[i] ?? 'NULL'})`);
    for (let at = 0; at < values.length; at += 5000) await oracle.connection.run(`INSERT INTO big VALUES ${values.slice(at, at + 5000).join(', ')}`);
    big = { db, oracle };
    dirsToRemove.push(dir);
  });
  const dirsToRemove: string[] = [];
  after(async () => {
    await big?.db.close();
    big?.oracle.close();
    for (const d of dirsToRemove) await rm(d, { recursive: true, force: true });
  });

  it('counts, sums, means and extremes per bucket and range agree with DuckDB', async () => {
    const { db, oracle } = big!;
    const r = rng(SEED + 7);
    const jobs = db.figures().workers.jobs;
    for (let q = 0; q < 40; q++) {
      const bucket = pick(r, [null, ['1h', 3_600_000_000_000n], ['1d', DAY], ['7min', 420_000_000_000n]] as const);
      const from = BASE + BigInt(int(r, 0, 50)) * DAY + BigInt(int(r, 0, 86_399)) * 1_000_000_000n;
      const to = from + BigInt(int(r, 1, 20)) * DAY;
      const hasRange = r() < 0.7;
      // svc's int64 ÷ int64 truncates; DuckDB's `/` divides as doubles.
      const where = pick(r, [null, ['dv > 0.25', 'dv > 0.25'], ['iv < 0', 'iv < 0'], ['dv * 2 >= iv / 1000000000', 'dv * 2 >= trunc(iv / 1000000000)'], ['bv = true', 'bv = true']] as const);
      const aggs: [string, string][] = [['count(dv)', 'count(dv)'], ['sum(dv)', 'sum(dv)'], ['min(iv)', 'min(iv)'], ['max(dv)', 'max(dv)'], ['avg(dv)', 'avg(dv)'], ['sum(iv)', 'sum(iv)'], ['count(bv)', 'count(bv)']];
      const svc = `SELECT ${aggs.map((a) => a[0]).join(', ')} FROM big${hasRange ? ` IN RANGE(${timeText(from)}, ${timeText(to)})` : ''}${where === null ? '' : ` WHERE ${where[0]}`}${bucket === null ? '' : ` GROUP BY ${bucket[0]}`}`;
      const conditions = [...(hasRange ? [`ts >= ${from} AND ts < ${to}`] : []), ...(where === null ? [] : [where[1]])];
      const groupTs = bucket === null ? (hasRange ? String(from) : 'NULL') : `ts - ts % ${bucket[1]}`;
      const sql = `SELECT ${groupTs} AS g, ${aggs.map((a) => a[1]).join(', ')} FROM big${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} GROUP BY g HAVING count(*) > 0 ORDER BY g`;
      const expected = (await oracleRows(oracle, sql)).map((row) => row.map((cell, i) => (i === 6 && typeof cell === 'bigint' ? BigInt.asIntN(64, cell) : cell)));
      assertSameRows(await db.query(svc), expected, svc);
    }
    assert.ok(db.figures().workers.jobs - jobs > 40, 'the scans were split across the workers');
  });
});

// A test-local reference to silence an unused import when the generator's helpers change.
void ((x: Rng) => x);
