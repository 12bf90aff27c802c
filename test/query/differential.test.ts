// Differential test: thousands of random queries over seeded random tables, each compared with
// the naive reference evaluator (reference.ts). Set QUERY_SEED to replay a failure; the seed and
// the query text are printed with every mismatch.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { executeQuery } from '../../engine/query/index.js';
import type { QueryResult } from '../../engine/query/index.js';
import { catalogOf, Database } from '../../engine/database.js';
import type { QueryCatalog } from '../../engine/query/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf, sameCell as same } from './helpers.js';
import type { MQuery } from './query-model.js';
import { renderQuery } from './query-model.js';
import { int, randomTable, rng } from './random-data.js';
import { randomQuery } from './random-query.js';
import type { Cell, RefResult, RefTable } from './reference.js';
import { evaluate } from './reference.js';

const ROUNDS = Number(process.env.QUERY_ROUNDS ?? 16);
const QUERIES_PER_ROUND = Number(process.env.QUERY_COUNT ?? 300);

it('random queries agree with the reference evaluator', async () => {
  const seed = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let checked = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const r = rng(seed + round);
    // Round 0 runs on a real Database; the others on the faster in-memory catalog (same Tables).
    const dir = round === 0 ? await mkdtemp(join(tmpdir(), 'svc-diff-')) : null;
    const db = dir === null ? null : await Database.open({ dataDir: dir, durability: 'none', batchRows: int(r, 2, 9), sweepIntervalMs: 0 });
    const catalog: QueryCatalog = db === null ? new FakeCatalog(int(r, 2, 9)) : catalogOf(db);
    const tables = new Map<string, RefTable>();
    for (const name of ['ta', 'tb']) tables.set(name, await randomTable(r, catalog, name));
    const times = [...tables.values()].flatMap((t) => t.rows.map((row) => row.ts));
    for (let q = 0; q < QUERIES_PER_ROUND; q++) {
      const model = randomQuery(r, [...tables.keys()], times);
      const text = renderQuery(model);
      let actual: QueryResult;
      try {
        actual = await executeQuery(catalog, text, { now: 0n });
      } catch (e) {
        assert.fail(`seed ${seed} round ${round}: ${text}\n  threw ${(e as Error).stack}`);
      }
      compare(actual, evaluate(model, tables), `seed ${seed} round ${round}: ${text}`, model);
      checked++;
    }
    if (dir !== null) {
      await db?.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  assert.ok(checked >= ROUNDS * QUERIES_PER_ROUND);
});

function compare(actual: QueryResult, expected: RefResult, where: string, model: MQuery): void {
  const show = (x: unknown): string => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v));
  const context = (): string => `${where}\n  expected ${show(expected.tables)}\n  actual   ${show(actual.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => ({ name: c.name, type: c.type })), rows: rowsOf(t) })))}`;
  assert.equal(actual.tables.length, expected.tables.length, `table count\n${context()}`);
  assert.equal(actual.scannedRowsCount, expected.scanned, `scannedRowsCount\n${context()}`);
  expected.tables.forEach((e, t) => {
    const a = actual.tables[t];
    assert.equal(a.name, e.name, `table name\n${context()}`);
    assert.deepEqual(a.columns.map((c) => c.name), e.columns.map((c) => c.name), `column names\n${context()}`);
    assert.deepEqual(a.columns.map((c) => c.type), e.columns.map((c) => c.type), `column types\n${context()}`);
    const rows = rowsOf(a);
    assert.equal(rows.length, e.rows.length, `row count\n${context()}`);
    rows.forEach((row, i) => row.forEach((cell, c) => {
      if (!same(cell, e.rows[i][c])) assert.fail(`row ${i} cell ${c}: ${show(cell)} vs expected ${show(e.rows[i][c])}\n${context()}`);
    }));
  });
  void model;
}
