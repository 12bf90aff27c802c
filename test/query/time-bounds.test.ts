// WHERE terms on `$timestamp` narrow the scan (plan/time-bounds.ts): the planner takes the
// top-level `$timestamp <op> <time>` terms out of the WHERE as bounds, which terms stay, and the
// answers are the same as the IN RANGE query that says the same thing, while scanned_rows_count
// still counts every row of the query's ranges (SPEC §7). The random differential test compares
// such terms with the reference evaluator; this file checks the plan and the edges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '../../grammar/index.js';
import type { Select } from '../../grammar/index.js';
import { executeQuery } from '../../engine/query/index.js';
import type { QueryResult } from '../../engine/query/index.js';
import { DEFAULT_QUERY_LIMITS } from '../../engine/query/limits.js';
import { planSelect } from '../../engine/query/plan/plan-select.js';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf, tablesOf } from './helpers.js';
import type { Cell } from './helpers.js';

const BASE = 1_483_228_800_000_000_000n; // 2017-01-01
const S = 1_000_000_000n;
const INT64_MAX = 2n ** 63n - 1n;

/** A table over three daily shards, written out of order, ties included, one row at end_of_time. */
async function fixture(): Promise<FakeCatalog> {
  const catalog = new FakeCatalog(7);
  await catalog.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: false });
  const times: bigint[] = [];
  for (let k = 0; k < 300; k++) times.push(BASE + BigInt((k * 7919) % 300) * 900n * S); // 3 days, shuffled
  times.push(BASE + 10n * 900n * S, BASE + 10n * 900n * S, INT64_MAX);
  await catalog.insert('t', { $timestamp: BigInt64Array.from(times), v: Float64Array.from(times, (_, k) => k % 17) });
  return catalog;
}

function planOf(catalog: FakeCatalog, text: string) {
  return planSelect(parse(text) as Select, catalog, 0n, DEFAULT_QUERY_LIMITS).tables[0]!;
}

describe('WHERE on $timestamp', () => {
  it('the plan keeps only the terms that are not time bounds', async () => {
    const catalog = await fixture();
    const pure = planOf(catalog, 'SELECT count(v) FROM t WHERE $timestamp >= 2017-01-02 AND $timestamp < 2017-01-03');
    assert.deepEqual(pure.timeBounds, { from: BASE + 86_400n * S, to: BASE + 2n * 86_400n * S });
    assert.equal(pure.where, null);
    const flipped = planOf(catalog, 'SELECT count(v) FROM t WHERE 2017-01-02 < $timestamp AND v > 3 AND 2017-01-03 >= $timestamp');
    assert.deepEqual(flipped.timeBounds, { from: BASE + 86_400n * S + 1n, to: BASE + 2n * 86_400n * S + 1n });
    assert.equal(flipped.where?.kind, 'compare');
    // Under OR or NOT a time term bounds nothing; `!=` bounds nothing either.
    for (const text of [
      'SELECT count(v) FROM t WHERE $timestamp < 2017-01-02 OR v > 3',
      'SELECT count(v) FROM t WHERE NOT ($timestamp < 2017-01-02)',
      'SELECT count(v) FROM t WHERE $timestamp != 2017-01-02',
    ]) {
      const plan = planOf(catalog, text);
      assert.equal(plan.timeBounds, null, text);
      assert.notEqual(plan.where, null, text);
    }
  });

  const SAME = [
    ['WHERE $timestamp >= 2017-01-02 AND $timestamp < 2017-01-03', 'IN RANGE(2017-01-02, +1d)'],
    ['WHERE $timestamp > 2017-01-01T02:30 AND $timestamp <= 2017-01-02T05:00', 'IN RANGE(2017-01-01T02:30:00.000000001, 2017-01-02T05:00:00.000000001)'],
    ['WHERE $timestamp = 2017-01-01T02:30', 'IN RANGE(2017-01-01T02:30, +1ns)'],
    ['WHERE 2017-01-03T12:00 <= $timestamp AND $timestamp < end_of_time', 'IN RANGE(2017-01-03T12:00, end_of_time)'],
  ] as const;

  /** Rows without their row time: an aggregate's is its range start, null without a range. */
  const valuesOf = (r: QueryResult): Cell[][][] => r.tables.map((t) => rowsOf(t).map((row) => row.slice(1)));

  for (const [where, range] of SAME) {
    it(`${where} answers as ${range}, counting every row as scanned`, async () => {
      const catalog = await fixture();
      for (const [items, tail] of [['count(v), sum(v), min(v), first(v), last(v)', ''], ['count(v)', ' GROUP BY 1h'], ['*', '']]) {
        const narrowed = await executeQuery(catalog, `SELECT ${items} FROM t ${where}${tail}`);
        const ranged = await executeQuery(catalog, `SELECT ${items} FROM t ${range}${tail}`);
        assert.ok(ranged.tables.length > 0, 'the range holds rows');
        if (tail === '' && items !== '*') assert.deepStrictEqual(valuesOf(narrowed), valuesOf(ranged), items);
        else assert.deepStrictEqual(tablesOf(narrowed), tablesOf(ranged), items + tail);
        // $timestamp and v, over all 303 rows: the query has no range.
        assert.equal(narrowed.scannedRowsCount, 303 * 2, `scanned rows of ${items}${tail}`);
      }
    });
  }

  it('bounds reach end_of_time and can be empty', async () => {
    const catalog = await fixture();
    const count = async (where: string): Promise<Cell> => {
      const r = await executeQuery(catalog, `SELECT count(v) FROM t ${where}`);
      return r.tables.length === 0 ? 0n : rowsOf(r.tables[0]!)[0]![1]!;
    };
    assert.equal(await count('WHERE $timestamp <= end_of_time'), 303n);
    assert.equal(await count('WHERE $timestamp = end_of_time'), 1n);
    // The range is end-exclusive; `>=` is not: the row at end_of_time is one more.
    assert.equal(await count('WHERE $timestamp >= 2017-01-03T12:00'), (await count('IN RANGE(2017-01-03T12:00, end_of_time)')) as bigint + 1n);
    assert.equal(await count('WHERE $timestamp >= 2017-01-02 AND $timestamp < 2017-01-02'), 0n);
    assert.equal(await count('WHERE $timestamp > end_of_time'), 0n);
  });

  it('a range and WHERE bounds intersect, and the rest of the WHERE still filters', async () => {
    const catalog = await fixture();
    const both = await executeQuery(catalog, 'SELECT * FROM t IN RANGE(2017-01-02, +1d) WHERE $timestamp >= 2017-01-02T12:00 AND v > 8');
    const alone = await executeQuery(catalog, 'SELECT * FROM t IN RANGE(2017-01-02T12:00, 2017-01-03) WHERE v > 8');
    assert.deepStrictEqual(tablesOf(both), tablesOf(alone));
    assert.ok(rowsOf(both.tables[0]!).length > 10);
    // scanned_rows_count counts the IN RANGE rows, whatever the WHERE narrowed.
    const inDay = await executeQuery(catalog, 'SELECT count(v) FROM t IN RANGE(2017-01-02, +1d)');
    assert.equal(both.scannedRowsCount, Number(rowsOf(inDay.tables[0]!)[0]![1]) * 2);
  });
});
