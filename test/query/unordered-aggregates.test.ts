// Order-free aggregates over late runs that have not been merged: the same rows inserted sorted,
// shuffled, or late one row at a time into sealed data (background compaction stopped, so runs
// stay pending) must answer exactly as the sorted table — to the bit, ±0 and the picked row's
// time included — and the query must leave the runs unmerged (it read the batches as stored).
// Aggregates whose rounding depends on the batch layout (products, logs, moments; see
// aggregates/row-order.ts) agree within rounding. first/last, adjacent_count and raw rows still
// get the merged order, and they merge the runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import { readsUnordered } from '../../engine/query/aggregates/row-order.js';
import { maxBuckets } from '../../engine/query/exec/grouping/bucket-segments.js';
import type { Slice } from '../../engine/query/exec/scan/scan-slices.js';
import { executeQuery } from '../../engine/query/index.js';
import type { QueryResult } from '../../engine/query/index.js';
import type { AggregatePlan } from '../../engine/query/plan/plan-types.js';
import type { ColumnDef } from '../../engine/types.js';
import { prng, tempDir } from '../engine/helpers.js';
import type { Row } from '../engine/helpers.js';
import type { Rng } from '../prng.js';
import { rowsOf } from './helpers.js';
import type { Cell } from './helpers.js';

const HOUR = 3_600_000_000_000n;
const BASE = 1_600_000_000_000_000_000n;
const COLUMNS: ColumnDef[] = [
  { name: 'd', type: 'DOUBLE' }, { name: 'z', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }, { name: 'tag', type: 'SYMBOL' },
];

/**
 * Rows over three days, a tenth repeating an earlier timestamp. `d` holds quarters, so sums are
 * exact in any order; `z` holds 0, -0 and ±0.5, so min/max ties and the sign of zero show which
 * row won; `i` repeats few values (ties), `tag` is a GROUP BY column; all but `i` have nulls.
 */
function makeRows(r: Rng, n: number): Row[] {
  const rows: Row[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
  for (let k = 0; k < n; k++) {
    const ts = k > 0 && r() < 0.1 ? rows[Math.floor(r() * k)].$timestamp as bigint : BASE + BigInt(Math.floor(r() * 72 * 3600)) * 1_000_000_000n;
    rows.push({
      $timestamp: ts,
      d: r() < 0.1 ? null : Math.round(r() * 80 - 40) / 4 || 0.25,
      z: r() < 0.1 ? null : pick([0, -0, 0.5, -0.5]),
      i: BigInt(Math.floor(r() * 9) - 4),
      tag: r() < 0.1 ? null : pick(['a', 'b', 'c']),
    });
  }
  return rows;
}

const byTime = (rows: Row[]): Row[] => rows.map((row, k) => ({ row, k }))
  .sort((a, b) => (a.row.$timestamp! < b.row.$timestamp! ? -1 : a.row.$timestamp! > b.row.$timestamp! ? 1 : a.k - b.k)).map((x) => x.row);

function inBatches(rows: Row[], r: Rng, most: number): Row[][] {
  const out: Row[][] = [];
  for (let at = 0; at < rows.length;) { const size = 1 + Math.floor(r() * most); out.push(rows.slice(at, at + size)); at += size; }
  return out;
}

/** Insertion orders of the same rows (insertion order = `batches` flattened). */
const ORDERS: [string, (rows: Row[], r: Rng) => Row[][]][] = [
  ['fully shuffled, random batch sizes', (rows, r) => inBatches(rows, r, 60)],
  ['late single rows into sealed data', (rows) => [byTime(rows.slice(0, rows.length >> 1)), ...rows.slice(rows.length >> 1).map((x) => [x])]],
];

const iso = (ts: bigint): string => new Date(Number(ts / 1_000_000n)).toISOString();
const CUT = `IN RANGE(${iso(BASE + 7n * HOUR + 1_500_000_000n)}, ${iso(BASE + 50n * HOUR)})`;
const TWO_RANGES = `IN [RANGE(${iso(BASE + 60n * HOUR)}, ${iso(BASE + 70n * HOUR)}), RANGE(${iso(BASE + HOUR)}, ${iso(BASE + 30n * HOUR)})]`;

/** Aggregates whose answer cannot depend on the order the rows are read in (with this data). */
const EXACT = [
  'count(d)', 'count(*)', 'min(d)', 'max(d)', 'spread(d)', 'min(z)', 'max(z)', 'spread(z)', 'sum(d)', 'avg(d)',
  'sum_of_squares(d)', 'quadratic_mean(d)', 'sum(i)', 'avg(i)', 'min(i)', 'max(i)', 'spread(i)', 'abs_min(z)',
  'abs_max(d)', 'abs_min(i)', 'abs_max(i)', 'distinct_count(tag)', 'distinct_count(z)', 'min($timestamp)',
  'max($timestamp)', 'sum(d * 2 + i)', 'max(i * 2)',
];
/** Aggregates that read unordered but round differently with the batch layout. */
const ROUNDING = [
  'product(d)', 'harmonic_mean(d)', 'geometric_mean(d * d)', 'sample_variance(d)', 'sample_stddev(i)',
  'population_variance(i)', 'population_stddev(d)', 'skewness(d)', 'kurtosis(d)',
];
const SHAPES = [
  '', 'WHERE i > 0', 'WHERE z = 0', 'GROUP BY 1d', 'GROUP BY 1h', 'WHERE d < 2 GROUP BY 6h', 'GROUP BY tag',
  'GROUP BY 1d, tag', 'GROUP BY z', 'WHERE i != 3 GROUP BY 2h, z', `${CUT} GROUP BY 5h`, `${TWO_RANGES} GROUP BY 1d`,
  'GROUP BY 1h HAVING count(d) > 8', 'GROUP BY tag ORDER BY sum(i) DESC LIMIT 2',
];
/** A lone picked-row aggregate: the row time is the picked row's (ties: the earliest). */
const POINTS = ['min(z)', 'max(z)', 'min(i)', 'max(i)', 'abs_min(z)', 'abs_max(z)', 'abs_min(i)', 'abs_max(i)', 'min(d)', 'max($timestamp)'];
const POINT_SHAPES = ['', 'WHERE i < 2', CUT, TWO_RANGES];
/** Queries that need rows in time order: they must merge the runs and answer as sorted. */
const ORDERED = [
  'SELECT first(d), last(z) FROM t GROUP BY 1h', 'SELECT first(z) FROM t', 'SELECT last(i) FROM t WHERE d > 0',
  'SELECT adjacent_count(tag) FROM t GROUP BY 1d', 'SELECT count(d), first(i) FROM t GROUP BY tag',
  'SELECT * FROM t', `SELECT $timestamp, z, i FROM t ${CUT} WHERE i > 0`, 'SELECT * FROM t LIMIT 7 OFFSET 100',
  'SELECT i, z FROM t ORDER BY i DESC LIMIT 20',
];

async function load(batches: Row[][], batchRows: number): Promise<Database> {
  const db = await Database.open({ dataDir: await tempDir(), durability: 'none', batchRows, sweepIntervalMs: 0 });
  await db.createTable('t', COLUMNS, { shardSize: 24n * HOUR });
  // No background compaction: late runs stay until a read merges them.
  catalogOf(db).table('t')!.stopCompaction();
  for (const b of batches) await db.insertRows('t', b);
  return db;
}

const hasRuns = (db: Database): boolean => catalogOf(db).table('t')!.hasRuns;
const run = (db: Database, text: string): Promise<QueryResult> => executeQuery(catalogOf(db), text, { now: 0n });

describe('order-free aggregates over unmerged late runs', () => {
  for (const [name, order] of ORDERS) {
    for (const batchRows of [8, 64]) {
      it(`${name}, batches of ${batchRows}: answers as the sorted table, runs left unmerged`, async () => {
        const r = prng(batchRows * 31 + name.length);
        const batches = order(makeRows(r, 700), r);
        const sorted = await load([byTime(batches.flat())], batchRows);
        const late = await load(batches, batchRows);
        assert.ok(hasRuns(late), 'the insert order should leave late runs');
        assert.ok(!hasRuns(sorted));
        const check = async (text: string, isExact: boolean): Promise<void> => {
          const expected = await run(sorted, text);
          compare(await run(late, text), expected, isExact, text);
          assert.ok(hasRuns(late), `the query merged the late runs: ${text}`);
        };
        for (const shape of SHAPES) {
          const keys = /GROUP BY [^H]*\b(tag|z)\b/.exec(shape)?.[1];
          for (const a of EXACT) await check(`SELECT ${a}${keys ? `, ${keys}` : ''} FROM t ${shape}`, true);
          await check(`SELECT ${EXACT.join(', ')} FROM t ${shape}`, true);
          await check(`SELECT ${ROUNDING.join(', ')}, count(i) FROM t ${shape}`, false);
        }
        for (const shape of POINT_SHAPES) for (const a of POINTS) await check(`SELECT ${a} FROM t ${shape}`, true);
        await sorted.close();
        await late.close();
      });
    }
  }

  it('first, last, adjacent_count and raw rows merge the runs and read them in time order', async () => {
    const r = prng(5);
    const batches = ORDERS[0][1](makeRows(r, 400), r);
    const sorted = await load([byTime(batches.flat())], 8);
    for (const text of ORDERED) {
      const late = await load(batches, 8);
      assert.ok(hasRuns(late));
      compare(await run(late, text), await run(sorted, text), true, text);
      // A range merges only the shards it touches.
      if (!text.includes('RANGE')) assert.ok(!hasRuns(late), `expected the ordered read to merge the runs: ${text}`);
      await late.close();
    }
    await sorted.close();
  });

  it('reads unordered only when no aggregate needs row order (rounding ones by policy)', () => {
    const plan = (...specs: [string, string][]): AggregatePlan => ({ accumulators: specs.map(([family, type]) => ({ family, arg: { type } })) }) as unknown as AggregatePlan;
    const CASES: [AggregatePlan, boolean, boolean][] = [
      // plan, unordered with rounding allowed, unordered without
      [plan(), true, true],
      [plan(['count', 'blob'], ['minmax', 'timestamp'], ['abs', 'int64'], ['distinct', 'string'], ['sum', 'int64']), true, true],
      [plan(['count', 'double'], ['sum', 'double']), true, false],
      [plan(['powers', 'int64']), true, false],
      [plan(['moments', 'double']), true, false],
      [plan(['count', 'double'], ['firstlast', 'double']), false, false],
      [plan(['adjacent', 'string']), false, false],
    ];
    for (const [p, withRounding, without] of CASES) {
      assert.equal(readsUnordered(p, true), withRounding, JSON.stringify(p));
      assert.equal(readsUnordered(p, false), without, JSON.stringify(p));
    }
  });

  it('bounds the buckets of slices in any order by their earliest and latest rows', () => {
    const slice = (...ts: bigint[]): Slice => ({ view: {} as Slice['view'], lo: 0, hi: ts.length, minTs: ts[0], maxTs: ts[ts.length - 1] });
    const hour = { months: 0, nanos: HOUR, calendarUnit: null } as Parameters<typeof maxBuckets>[1];
    const a = slice(BASE, BASE + HOUR, BASE + 2n * HOUR, BASE + 3n * HOUR);
    const b = slice(BASE + 20n * HOUR, BASE + 21n * HOUR, BASE + 22n * HOUR, BASE + 23n * HOUR);
    const late = slice(BASE + 5n * HOUR, BASE + 6n * HOUR, BASE + 7n * HOUR, BASE + 8n * HOUR);
    // 23 hours of span: at most 25 buckets, never more than the 12 rows; in any slice order.
    for (const slices of [[a, b, late], [a, late, b], [late, b, a], [b, a]]) {
      const rows = slices.reduce((n, x) => n + x.hi, 0);
      assert.equal(maxBuckets(slices, hour), rows, 'bounded by the rows');
    }
    const day = { months: 0, nanos: 24n * HOUR, calendarUnit: null } as Parameters<typeof maxBuckets>[1];
    assert.equal(maxBuckets([late, b, a], day), 2);
    assert.equal(maxBuckets([b, late], day), 2);
  });

  it('Table.scanUnordered gives every row of the range once, each batch sorted, without merging', async () => {
    const r = prng(9);
    const rows = makeRows(r, 500);
    const db = await load(inBatches(rows, r, 40), 16);
    const table = catalogOf(db).table('t')!;
    const ranges: [bigint, bigint][] = [[BASE - HOUR, BASE + 80n * HOUR], [BASE + 5n * HOUR + 7n, BASE + 40n * HOUR], [BASE + 2n * HOUR, BASE + 2n * HOUR]];
    for (const [from, to] of ranges) {
      const views = table.scanUnordered(from, to);
      assert.ok(table.hasRuns, 'scanUnordered merged the runs');
      if (from < to) assert.ok(views.some((v, k) => k > 0 && v.minTs < views[k - 1].maxTs), 'expected overlapping batches');
      else assert.equal(views.length, 0);
      const got: bigint[] = [];
      for (const v of views) {
        assert.ok(v.maxTs >= from && v.minTs < to, 'a batch outside the range');
        for (let k = 1; k < v.rowCount; k++) assert.ok(v.ts[k - 1] <= v.ts[k], 'a batch is not sorted');
        for (const t of v.ts) if (t >= from && t < to) got.push(t);
      }
      const want = rows.map((x) => x.$timestamp as bigint).filter((t) => t >= from && t < to);
      const sort = (a: bigint[]): bigint[] => a.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      assert.deepEqual(sort(got), sort(want));
    }
    await db.close();
  });
});

function compare(actual: QueryResult, expected: QueryResult, isExact: boolean, where: string): void {
  assert.ok(actual.kind === 'rows' && expected.kind === 'rows');
  assert.equal(actual.scannedRowsCount, expected.scannedRowsCount, `scannedRowsCount: ${where}`);
  assert.equal(actual.tables.length, expected.tables.length, `table count: ${where}`);
  expected.tables.forEach((e, t) => {
    const a = actual.tables[t];
    assert.deepEqual(a.columns.map((c) => [c.name, c.type]), e.columns.map((c) => [c.name, c.type]), `columns: ${where}`);
    const want = rowsOf(e);
    const got = rowsOf(a);
    assert.equal(got.length, want.length, `row count: ${where}`);
    got.forEach((row, i) => row.forEach((cell, c) => {
      if (!same(cell, want[i][c], isExact)) assert.fail(`row ${i} cell ${c}: ${String(cell)} vs sorted ${String(want[i][c])} (${Object.is(cell, -0) ? '-0' : ''})\n${where}`);
    }));
  });
}

/** Exact: Object.is (tells -0 from 0); otherwise doubles within rounding. */
function same(a: Cell, b: Cell, isExact: boolean): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (Object.is(a, b)) return true;
  if (isExact || typeof a !== 'number' || typeof b !== 'number') return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}
