// The executor's fast paths checked against the reference evaluator on data shaped to reach them
// (the differential test's tables have nulls nearly everywhere, so it rarely does): columns
// without nulls in large batches, many short GROUP BY runs (the fused sum/min/max pass, bucket
// edges searched from the previous run's length), irregular spacing (bursts and gaps that throw
// that guess off), NaN, ±Infinity and -0 (the masked WHERE sums must fall back), and WHERE
// tests on both sides of the constant.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeQuery } from '../../engine/query/index.js';
import type { ColumnDef } from '../../engine/types.js';
import { prng } from '../prng.js';
import type { Rng } from '../prng.js';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf } from './helpers.js';
import type { CmpOp, MBucket, MCond, MExpr, MItem, MQuery } from './query-model.js';
import { renderQuery } from './query-model.js';
import type { Cell, RefRow, RefTable } from './reference.js';
import { evaluate } from './reference.js';

const BASE = 1_483_228_800_000_000_000n; // 2017-01-01
const S = 1_000_000_000n;
const MIN = 60n * S;
const COLUMNS: ColumnDef[] = [{ name: 'dv', type: 'DOUBLE' }, { name: 'ev', type: 'DOUBLE' }];

type Spacing = 'regular' | 'bursts';
type Values = 'finite' | 'special';

interface Scenario { readonly spacing: Spacing; readonly values: Values; readonly rows: number; readonly batchRows: number }

const SCENARIOS: Scenario[] = [
  { spacing: 'regular', values: 'finite', rows: 6000, batchRows: 1000 },
  { spacing: 'regular', values: 'special', rows: 3000, batchRows: 700 },
  { spacing: 'bursts', values: 'finite', rows: 5000, batchRows: 1000 },
  { spacing: 'bursts', values: 'special', rows: 3000, batchRows: 64 },
];

const BUCKETS: MBucket[] = [
  { text: '1min', nanos: MIN, months: 0, isWeek: false },
  { text: '7min', nanos: 7n * MIN, months: 0, isWeek: false },
  { text: '1h', nanos: 60n * MIN, months: 0, isWeek: false },
  { text: '1w', nanos: 7n * 1440n * MIN, months: 0, isWeek: true },
  { text: '1mon', nanos: 0n, months: 1, isWeek: false },
];

const col = (name: string): MExpr => ({ k: 'col', name });
const agg = (name: string, arg: MExpr): MExpr => ({ k: 'agg', name, arg });
const items = (exprs: MExpr[]): MItem[] => exprs.map((e) => ({ k: 'item', e, alias: null }));

function timestamps(r: Rng, n: number, spacing: Spacing): bigint[] {
  const out: bigint[] = [];
  let t = BASE;
  for (let i = 0; i < n; i++) {
    if (spacing === 'regular') t += 3n * S + BigInt(Math.floor(r() * 1000)) * 1_000_000n;
    else if (r() < 0.01) t += BigInt(Math.floor(r() * 5 * 3600)) * S; // a gap of up to 5 hours
    else if (r() < 0.5) t += BigInt(Math.floor(r() * 1000)) * 1_000_000n; // a burst: ms apart
    else t += BigInt(Math.floor(r() * 120)) * S;
    out.push(t);
  }
  return out;
}

function value(r: Rng, values: Values): number {
  if (values === 'special' && r() < 0.04) return [NaN, Infinity, -Infinity, -0][Math.floor(r() * 4)];
  return Math.round(r() * 2000) / 1000 - 1;
}

async function table(r: Rng, s: Scenario): Promise<{ catalog: FakeCatalog; ref: RefTable }> {
  const catalog = new FakeCatalog(s.batchRows);
  await catalog.createTable('t', COLUMNS, { ifNotExists: false });
  const ts = timestamps(r, s.rows, s.spacing);
  const dv = ts.map(() => value(r, s.values));
  // ev has nulls in a few places only, so most batches still reach the null-free paths.
  const ev = ts.map(() => (r() < 0.001 ? null : value(r, 'finite')));
  for (let at = 0; at < s.rows; at += 997) {
    const end = Math.min(s.rows, at + 997);
    await catalog.insert('t', { $timestamp: BigInt64Array.from(ts.slice(at, end)), dv: dv.slice(at, end), ev: ev.slice(at, end) });
  }
  const rows: RefRow[] = ts.map((t, i) => ({ ts: t, values: [dv[i], ev[i]] as Cell[] }));
  return { catalog, ref: { name: 't', columns: COLUMNS, rows } };
}

function query(over: Partial<MQuery>): MQuery {
  return { tables: ['t'], items: [], ranges: [], where: null, bucket: null, keys: [], having: null, orderBy: [], limit: null, offset: null, ...over };
}

function queries(r: Rng, ref: RefTable): MQuery[] {
  const out: MQuery[] = [];
  const times = ref.rows.map((row) => row.ts);
  const cut = { from: times[Math.floor(times.length * 0.21)] + 1n, to: times[Math.floor(times.length * 0.83)] };
  const summary = items(['avg', 'min', 'max', 'count', 'sum', 'spread'].map((name) => agg(name, col('dv'))));
  for (const bucket of BUCKETS) {
    out.push(query({ items: summary, bucket }));
    out.push(query({ items: summary, bucket, ranges: [cut] }));
    out.push(query({ items: items([agg('max', col('dv')), agg('sum', col('ev'))]), bucket }));
    out.push(query({ items: summary, bucket, where: { k: 'cmp', op: '>', l: col('ev'), r: { k: 'dbl', v: 0 } } }));
  }
  const ops: CmpOp[] = ['=', '!=', '<', '<=', '>', '>='];
  for (const op of ops) {
    for (const c of [0.5, -1, 0, 0.25 + Math.round(r() * 100) / 1000]) {
      const test: MCond = { k: 'cmp', op, l: col('dv'), r: { k: 'dbl', v: c } };
      const flipped: MCond = { k: 'cmp', op, l: { k: 'dbl', v: c }, r: col('dv') };
      out.push(query({ items: items([agg('sum', col('dv')), agg('avg', col('dv')), agg('count', col('dv'))]), where: test }));
      out.push(query({ items: items([agg('sum', col('dv')), agg('count', col('ev'))]), where: flipped, ranges: [cut] }));
      out.push(query({ items: items([agg('count', col('dv'))]), where: test }));
    }
  }
  return out;
}

function same(a: Cell, b: Cell): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (a === b) return true;
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
}

describe('fast paths agree with the reference evaluator', () => {
  for (const s of SCENARIOS) {
    it(`${s.spacing} timestamps, ${s.values} values, batches of ${s.batchRows}`, async () => {
      const r = prng(s.rows + s.batchRows);
      const { catalog, ref } = await table(r, s);
      for (const q of queries(r, ref)) {
        const text = renderQuery(q);
        const actual = await executeQuery(catalog, text, { now: 0n });
        const expected = evaluate(q, new Map([['t', ref]]));
        assert.equal(actual.tables.length, expected.tables.length, text);
        if (expected.tables.length === 0) continue;
        const rows = rowsOf(actual.tables[0]);
        const want = expected.tables[0].rows;
        assert.equal(rows.length, want.length, `row count: ${text}`);
        rows.forEach((row, i) => row.forEach((cell, c) => {
          if (!same(cell, want[i][c])) assert.fail(`row ${i} cell ${c}: ${String(cell)} vs expected ${String(want[i][c])}\n  ${text}`);
        }));
      }
    });
  }
});
