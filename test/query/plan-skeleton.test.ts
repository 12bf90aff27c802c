// Plans made from a shape's skeleton (plan/plan-cache.ts, plan-select.ts rebindPlan) must be the
// plans planSelect makes for the same text: random queries of the differential generator share
// shapes (their literals differ), and each one's cached plan is compared with a fresh plan of a
// fresh parse, node ids aside. Then the cases where a literal changes more than a value: a
// SYMBOL test whose answers are kept per plan node, a bucket width, a regex that no longer
// compiles, a clock-relative range, a schema grown since the skeleton was made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, tokenize } from '../../grammar/index.js';
import type { Select } from '../../grammar/index.js';
import { parseCached } from '../../engine/query/ast-cache.js';
import { DEFAULT_QUERY_LIMITS, executeQuery } from '../../engine/query/index.js';
import { isSvcError } from '../../engine/errors.js';
import { planSelectCached } from '../../engine/query/plan/plan-cache.js';
import { planSelect } from '../../engine/query/plan/plan-select.js';
import type { SelectPlan } from '../../engine/query/plan/plan-types.js';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf } from './helpers.js';
import { renderQuery } from './query-model.js';
import { pick, randomTable, rng } from './random-data.js';
import type { Rng } from './random-data.js';
import { randomQuery } from './random-query.js';

/**
 * A plan without its nodes' ids (a rebound WHERE is numbered from its own range) and source
 * offsets (the skeleton's text's: they serve only planning's own errors, and the parts planned
 * again carry the new text's).
 */
function withoutIds(plan: unknown): unknown {
  const seen = new Map<object, unknown>();
  const strip = (x: unknown): unknown => {
    if (typeof x !== 'object' || x === null) return x;
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== Array.prototype) return x;
    if (seen.has(x)) return seen.get(x);
    if (Array.isArray(x)) {
      const out: unknown[] = [];
      seen.set(x, out);
      for (const v of x) out.push(strip(v));
      return out;
    }
    const out: Record<string, unknown> = {};
    seen.set(x, out);
    for (const [k, v] of Object.entries(x)) if (k !== 'id' && !(k === 'offset' && 'kind' in x)) out[k] = strip(v);
    return out;
  };
  return strip(plan);
}

/** Literals each literal token kind may become: a whole number may turn fractional, a bucket 0s, a regex not compile. */
const OTHER_LITERALS: Readonly<Record<string, readonly string[]>> = {
  number: ['0', '1', '2.5', '3', '1000', '0.0', '7', '-2'],
  datetime: ['2017-01-01', '2017-01-03T10:00', '2017-02-01T00:00:01.5Z', '2016-12-31T23:59:59', '2017-03-01T12:00:00.000000001'],
  duration: ['1h', '30min', '0s', '7min', '1mon', '2d', '1w', '90s'],
  string: ["'a'", "'x'", "'('", "'^b'", "''"],
  timeOfDay: ['10:00', '23:59', '00:00:30'],
};

/** `text` with each literal token replaced, by chance, by another of its kind: a text of the same shape. */
function withOtherLiterals(r: Rng, text: string): string {
  let out = '';
  let at = 0;
  for (const t of tokenize(text)) {
    const others = OTHER_LITERALS[t.type!];
    if (others === undefined || r() < 0.4) continue;
    out += text.slice(at, t.offset) + pick(r, others);
    at = t.offset + t.text.length;
  }
  return out + text.slice(at);
}

const S = 1_000_000_000n;
const T = 1_483_228_800n * S; // 2017-01-01

describe('plans rebound from a skeleton', () => {
  it('equal the plans planSelect makes, over random queries and their literals changed', async () => {
    const seed = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const r = rng(seed);
    const catalog = new FakeCatalog(4);
    const table = await randomTable(r, catalog, 'ta');
    const times = table.rows.map((row) => row.ts);
    let rebound = 0;
    for (let q = 0; q < 300; q++) {
      const text = renderQuery(randomQuery(r, ['ta'], times));
      for (let v = 0; v < 5; v++) {
        const variant = v === 0 ? text : withOtherLiterals(r, text);
        let cached: SelectPlan;
        try {
          cached = planSelectCached(parseCached(variant) as Select, catalog, 0n, DEFAULT_QUERY_LIMITS);
        } catch (e) {
          // A text refused by the skeleton's way is refused by a fresh parse and plan the same way.
          assert.throws(() => planSelect(parse(variant) as Select, catalog, 0n, DEFAULT_QUERY_LIMITS), (f) => (f as Error).message === (e as Error).message && (f as Error).name === (e as Error).name, `seed ${seed}: ${variant}\n  ${String(e)}`);
          continue;
        }
        const fresh = planSelect(parse(variant) as Select, catalog, 0n, DEFAULT_QUERY_LIMITS);
        assert.deepStrictEqual(withoutIds(cached), withoutIds(fresh), `seed ${seed}: ${variant}`);
        if (cached.tables.some((t) => t.where !== null && t.where.id >= 1 << 29)) rebound++;
      }
    }
    assert.ok(rebound > 30, `only ${rebound} plans were rebound from a skeleton (seed ${seed})`);
  });

  it('keeps a SYMBOL test’s answers to its own literal', async () => {
    const c = new FakeCatalog(4);
    await c.createTable('s', [{ name: 'host', type: 'SYMBOL' }, { name: 'v', type: 'DOUBLE' }]);
    await c.insert('s', { $timestamp: BigInt64Array.from([T, T + S, T + 2n * S]), host: ['a', 'b', 'a'], v: [1, 2, 4] });
    for (const [host, sum] of [['a', 5], ['b', 2], ['a', 5], ['c', null]] as const) {
      const result = await executeQuery(c, `SELECT sum(v) FROM s WHERE host = '${host}'`);
      assert.deepEqual(result.tables.length === 0 ? null : rowsOf(result.tables[0])[0][1], sum, host);
    }
  });

  it('binds a new bucket width, LIMIT and range', async () => {
    const c = new FakeCatalog(4);
    await c.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await c.insert('t', { $timestamp: BigInt64Array.from({ length: 12 }, (_, i) => T + BigInt(i) * 600n * S), v: Array.from({ length: 12 }, (_, i) => i) });
    const rows = async (text: string) => rowsOf((await executeQuery(c, text)).tables[0]);
    assert.deepEqual(await rows('SELECT count(v) FROM t IN RANGE(2017, +2h) GROUP BY 1h LIMIT 5'), [[T, 6n], [T + 3600n * S, 6n]]);
    assert.deepEqual(await rows('SELECT count(v) FROM t IN RANGE(2017, +1h) GROUP BY 30min LIMIT 1'), [[T, 3n]]);
    assert.deepEqual(await rows('SELECT count(v) FROM t IN RANGE(2017-01-01T01:00, +1h) GROUP BY 20min LIMIT 9'), [[T + 3600n * S, 2n], [T + 4800n * S, 2n], [T + 6000n * S, 2n]]);
  });

  it('refuses a literal the skeleton’s own text did not have', async () => {
    const c = new FakeCatalog(4);
    await c.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'STRING' }]);
    await c.insert('t', { $timestamp: BigInt64Array.from([T]), v: [1], s: ['x'] });
    await executeQuery(c, "SELECT count(v) FROM t WHERE s ~ 'x' GROUP BY 1h");
    await assert.rejects(executeQuery(c, "SELECT count(v) FROM t WHERE s ~ '(' GROUP BY 1h"), (e) => isSvcError(e) && e.code === 'QuerySemantic');
    await assert.rejects(executeQuery(c, "SELECT count(v) FROM t WHERE s ~ 'x' GROUP BY 0h"), (e) => isSvcError(e) && e.code === 'QuerySemantic');
  });

  it('resolves a clock-relative range and WHERE at every run', async () => {
    const c = new FakeCatalog(4);
    await c.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await c.insert('t', { $timestamp: BigInt64Array.from([T, T + 3600n * S]), v: [1, 2] });
    const text = (minutes: number) => `SELECT sum(v) FROM t IN RANGE(now, -${minutes}min) WHERE $timestamp < now - 1s`;
    assert.deepEqual(rowsOf((await executeQuery(c, text(30), { now: T + 60n * S })).tables[0]).map((row) => row[1]), [1]);
    assert.deepEqual(rowsOf((await executeQuery(c, text(31), { now: T + 3660n * S })).tables[0]).map((row) => row[1]), [2]);
    assert.equal((await executeQuery(c, text(32), { now: T + 3600n * S })).tables.length, 0);
  });

  it('sees a column added after the skeleton was planned', async () => {
    const c = new FakeCatalog(4);
    await c.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
    await c.insert('t', { $timestamp: BigInt64Array.from([T]), v: [1] });
    const names = async (text: string) => (await executeQuery(c, text)).tables[0].columns.map((col) => col.name);
    assert.deepEqual(await names('SELECT * FROM t LIMIT 3'), ['$timestamp', 'v']);
    await c.write([{ kind: 'addColumns', table: 't', columns: [{ name: 'w', type: 'DOUBLE' }] }]);
    assert.deepEqual(await names('SELECT * FROM t LIMIT 3'), ['$timestamp', 'v', 'w']);
    assert.deepEqual(await names('SELECT * FROM t LIMIT 4'), ['$timestamp', 'v', 'w']);
  });
});
