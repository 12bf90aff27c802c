// Differential test of out-of-order ingestion: random queries (random-query.ts: every aggregate,
// raw rows, ranges, buckets, WHERE, ORDER BY, LIMIT) over the same rows inserted sorted and
// inserted shuffled or late, in random batch sizes with duplicated timestamps, must agree: read
// at once (runs merged by the read), after background compaction, and after close → open. The
// reference evaluator checks the sorted database too. Set QUERY_SEED to replay a failure.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import { executeQuery } from '../../engine/query/index.js';
import type { QueryResult } from '../../engine/query/index.js';
import { rowsOf } from './helpers.js';
import { renderQuery } from './query-model.js';
import { BASE, COLUMNS, int, pick, rng } from './random-data.js';
import type { Rng } from './random-data.js';
import { randomQuery } from './random-query.js';
import type { Cell, RefRow, RefTable } from './reference.js';
import { evaluate } from './reference.js';

const QUERIES = Number(process.env.QUERY_COUNT ?? 120);
const TABLES = ['ta', 'tb'];
const BLOBS = [[], [0x61], [0x61, 0x62, 0x63], [0xff, 0x00]];

function cell(r: Rng, type: string): Cell {
  if (r() < 0.15) return null;
  switch (type) {
    case 'DOUBLE': return int(r, -20, 20) / 2;
    case 'INT64': return BigInt(int(r, -20, 20));
    case 'STRING': return pick(r, ['a', 'b', 'abc', '', 'xyz']);
    case 'SYMBOL': return pick(r, ['x', 'y', 'z', 'ax']);
    case 'BLOB': return Uint8Array.from(pick(r, BLOBS));
    default: return BASE + BigInt(int(r, 0, 1000)) * 1_000_000_000n;
  }
}

/** Rows in insertion order: over 100 days, a tenth of them repeating an earlier timestamp. */
function randomRows(r: Rng, n: number): RefRow[] {
  const rows: RefRow[] = [];
  for (let k = 0; k < n; k++) {
    const ts = k > 0 && r() < 0.1 ? pick(r, rows).ts : BASE + BigInt(int(r, 0, 100 * 86_400)) * 1_000_000_000n + BigInt(int(r, 0, 2));
    rows.push({ ts, values: COLUMNS.map((c) => cell(r, c.type)) });
  }
  return rows;
}

const sortedRows = (rows: RefRow[]): RefRow[] => rows.map((x, k) => ({ x, k }))
  .sort((a, b) => (a.x.ts < b.x.ts ? -1 : a.x.ts > b.x.ts ? 1 : a.k - b.k)).map((s) => s.x);

async function load(db: Database, name: string, batches: RefRow[][]): Promise<void> {
  await db.createTable(name, [...COLUMNS], { shardSize: 86_400_000_000_000n });
  for (const chunk of batches) {
    const batch: Record<string, unknown> = { $timestamp: BigInt64Array.from(chunk.map((x) => x.ts)) };
    COLUMNS.forEach((c, i) => { batch[c.name] = chunk.map((x) => x.values[i]); });
    await db.insert(name, batch);
  }
}

/** Insert orders: fully shuffled in random sizes, or sorted with late rows one at a time. */
function insertOrder(r: Rng, rows: RefRow[], isLate: boolean): RefRow[][] {
  const out: RefRow[][] = [];
  const sizes = (list: RefRow[], most: number): void => {
    for (let at = 0; at < list.length;) { const n = int(r, 1, most); out.push(list.slice(at, at + n)); at += n; }
  };
  if (!isLate) sizes(rows, 200);
  else {
    const late = new Set(rows.filter(() => r() < 0.05));
    sizes(sortedRows(rows.filter((x) => !late.has(x))), 400);
    for (const x of late) out.push([x]);
  }
  return out;
}

it('shuffled and late rows answer every query as the same rows inserted sorted', async () => {
  const seed = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  for (let round = 0; round < 2; round++) {
    const r = rng(seed + round);
    const batchRows = pick(r, [4, 32, 256]);
    const dirs = [await mkdtemp(join(tmpdir(), 'svc-late-')), await mkdtemp(join(tmpdir(), 'svc-late-'))];
    const open = (dir: string) => Database.open({ dataDir: dir, durability: 'none', batchRows, sweepIntervalMs: 0 });
    const sorted = await open(dirs[0]);
    let shuffled = await open(dirs[1]);
    const tables = new Map<string, RefTable>();
    for (const [t, name] of TABLES.entries()) {
      const batches = insertOrder(r, randomRows(r, int(r, 500, 1500)), t === 1);
      const rows = sortedRows(batches.flat());
      tables.set(name, { name, columns: COLUMNS, rows });
      await load(sorted, name, [rows]);
      await load(shuffled, name, batches);
    }
    const times = [...tables.values()].flatMap((t) => t.rows.map((x) => x.ts));
    const check = async (phase: string): Promise<void> => {
      for (let q = 0; q < QUERIES; q++) {
        const model = randomQuery(r, TABLES, times);
        const text = renderQuery(model);
        const where = `seed ${seed} round ${round} ${phase}: ${text}`;
        const expected = await executeQuery(catalogOf(sorted), text, { now: 0n });
        compare(await executeQuery(catalogOf(shuffled), text, { now: 0n }), expected, where);
        // The sorted side is itself right: spot-check it against the reference evaluator.
        if (q % 4 === 0) compareRows(expected, evaluate(model, tables).tables.map((t) => t.rows), `reference vs sorted\n${where}`);
      }
    };
    await check('read while runs are pending');
    await shuffled.close();
    shuffled = await open(dirs[1]);
    await check('after reopen');
    while (TABLES.some((t) => catalogOf(shuffled).table(t)!.isCompacting)) await new Promise((resolve) => setImmediate(resolve));
    await check('after background compaction');
    await sorted.close();
    await shuffled.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
});

function compare(actual: QueryResult, expected: QueryResult, where: string): void {
  assert.equal(actual.kind, expected.kind, where);
  if (actual.kind !== 'rows' || expected.kind !== 'rows') return;
  assert.equal(actual.scannedRowsCount, expected.scannedRowsCount, `scannedRowsCount\n${where}`);
  assert.equal(actual.tables.length, expected.tables.length, `table count\n${where}`);
  compareRows(actual, expected.tables.map(rowsOf), where);
}

function compareRows(actual: QueryResult, expected: Cell[][][], where: string): void {
  assert.ok(actual.kind === 'rows');
  assert.equal(actual.tables.length, expected.length, `table count\n${where}`);
  expected.forEach((b, t) => {
    const a = rowsOf(actual.tables[t]);
    assert.equal(a.length, b.length, `row count of table ${t}\n${where}`);
    a.forEach((row, i) => row.forEach((cell, c) => {
      if (!same(cell, b[i][c])) assert.fail(`table ${t} row ${i} cell ${c}: ${String(cell)} vs ${String(b[i][c])}\n${where}`);
    }));
  });
}

/** Exact, except doubles: sums in another order may differ in the last bits. */
function same(a: Cell, b: Cell): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b;
}
