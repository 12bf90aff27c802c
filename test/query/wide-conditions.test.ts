// Wide conditions: 10,000-term ORs and 10,000-value INs answer correctly (against each other and
// against the reference evaluator) with scratch memory that does not grow with the terms. Before
// condition buffers were shared by nesting level, the non-foldable OR below needed two 65,536-row
// buffers per term: over 5 GB.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { executeQuery } from '../../engine/query/index.js';
import { FakeCatalog } from './fake-catalog.js';
import type { MCond, MExpr, MQuery } from './query-model.js';
import type { RefTable } from './reference.js';
import { evaluate } from './reference.js';

const ROWS = 70_000;
const TERMS = 10_000;
const BASE = 1_483_228_800_000_000_000n;
const ts = BigInt64Array.from({ length: ROWS }, (_, k) => BASE + BigInt(k) * 1_000_000_000n);
// Every 100th row holds a value no term matches; the others hold 0–9.
const v = Float64Array.from({ length: ROWS }, (_, k) => (k % 100 === 99 ? 1e9 + k : k % 10));
const iv = BigInt64Array.from({ length: ROWS }, (_, k) => BigInt(k % 7));
const keys = Array.from({ length: TERMS }, (_, k) => k);

const balanced = (xs: readonly string[]): string =>
  (xs.length === 1 ? xs[0] : `(${balanced(xs.slice(0, xs.length >> 1))} OR ${balanced(xs.slice(xs.length >> 1))})`);

async function count(catalog: FakeCatalog, where: string): Promise<bigint> {
  const result = await executeQuery(catalog, `SELECT count(v) FROM t WHERE ${where}`, { deadlineMs: 120_000 });
  return result.tables.length === 0 ? 0n : (result.tables[0].columns[0].values[0] as bigint);
}

describe('wide conditions', () => {
  const catalog = new FakeCatalog(65_536);
  let expectedIn = 0n;
  before(async () => {
    await catalog.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }], { ifNotExists: false });
    await catalog.insert('t', { $timestamp: ts, v, i: iv });
    // The reference evaluator on the same rows, with the terms as a balanced tree (it recurses).
    const table: RefTable = { name: 't', columns: [{ name: 'v', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }], rows: Array.from({ length: ROWS }, (_, k) => ({ ts: ts[k], values: [v[k], iv[k]] })) };
    const term = (k: number): MCond => ({ k: 'and', l: { k: 'cmp', op: '=', l: { k: 'col', name: 'v' }, r: { k: 'int', v: BigInt(k) } }, r: { k: 'cmp', op: '>', l: { k: 'col', name: 'i' }, r: { k: 'int', v: -1n } } });
    const tree = (lo: number, hi: number): MCond => (hi - lo === 1 ? term(lo) : { k: 'or', l: tree(lo, (lo + hi) >> 1), r: tree((lo + hi) >> 1, hi) });
    const item: MExpr = { k: 'agg', name: 'count', arg: { k: 'col', name: 'v' } };
    const model: MQuery = { tables: ['t'], items: [{ k: 'item', e: item, alias: null }], ranges: [], where: tree(0, TERMS), bucket: null, keys: [], having: null, orderBy: [], limit: null, offset: null };
    expectedIn = evaluate(model, new Map([['t', table]])).tables[0].rows[0][1] as bigint;
  });

  it('a 10,000-value IN, a flat 10,000-term OR and 10,000 AND terms ORed (flat and balanced) agree with the reference', async () => {
    const rss = process.memoryUsage().rss;
    let peak = rss;
    const answers: Record<string, bigint> = {};
    const wheres: Record<string, string> = {
      in: `v IN (${keys.join(', ')})`,
      flatOr: keys.map((k) => `v = ${k}`).join(' OR '),
      flatAndTerms: keys.map((k) => `v = ${k} AND i > -1`).join(' OR '),
      balancedAndTerms: balanced(keys.map((k) => `(v = ${k} AND i > -1)`)),
    };
    for (const [name, where] of Object.entries(wheres)) {
      answers[name] = await count(catalog, where);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    assert.equal(expectedIn, BigInt(ROWS - ROWS / 100));
    assert.deepEqual(answers, { in: expectedIn, flatOr: expectedIn, flatAndTerms: expectedIn, balancedAndTerms: expectedIn });
    // A generous bound: the old per-term buffers needed over 5 GB here.
    assert.ok(peak - rss < 1024 ** 3, `rss grew by ${((peak - rss) / 1e6).toFixed(0)} MB`);
  });

  it('NOT IN and AND chains of inequalities agree', async () => {
    const notIn = await count(catalog, `v NOT IN (${keys.join(', ')})`);
    assert.equal(notIn, BigInt(ROWS / 100));
    assert.equal(await count(catalog, keys.map((k) => `v != ${k}`).join(' AND ')), notIn);
    assert.equal(await count(catalog, `NOT (${keys.map((k) => `v = ${k}`).join(' OR ')})`), notIn);
  });

  it('int64 IN and NOT IN lists of 10,000 values', async () => {
    const ints = await count(catalog, `i IN (${keys.map((k) => k * 2).join(', ')})`);
    // i = k % 7 takes 0, 2, 4, 6 among the even numbers.
    assert.equal(ints, BigInt(Array.from(iv).filter((x) => x % 2n === 0n).length));
    assert.equal(await count(catalog, `i NOT IN (${keys.map((k) => k * 2 + 1).join(', ')})`), ints);
  });
});
