// A real Database (no WAL, tiny batches so every query crosses shards, sealed batches and tails)
// loaded with the example data of the table-driven tests.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import type { Cell } from './helpers.js';
import { tablesOf } from './helpers.js';

export const S = 1_000_000_000n;
export const T1 = 1_483_228_800n * S; // 2017-01-01T00:00Z, a Sunday
export const T0 = T1 - S / 2n; // 2016-12-31T23:59:59.5Z
export const T2 = T1 + 3600n * S;
export const T3 = T1 + 12n * 3600n * S;
export const T4 = T1 + 86_400n * S; // 2017-01-02, a Monday (row 4 and row 5 share it)
export const T6 = T1 + (8n * 86_400n + 10n * 3600n) * S; // 2017-01-09T10:00
export const T7 = 1_485_907_200n * S; // 2017-02-01

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** stocks.apple rows by number: [ts, open, close, volume, sym, note, raw]. */
export const APPLE = [
  [T0, 1, 1.5, 100n, 'x', 'late', enc('ab')],
  [T1, 10, 11, 1000n, 'aapl', 'first', enc('abc')],
  [T2, 11, 12, 2000n, 'aapl', null, null],
  [T3, 12, 10, 1500n, 'x', 'noon', enc('xyz')],
  [T4, 10, 13, null, 'aapl', 'next', enc('q')],
  [T4, null, 14, 500n, null, null, null],
  [T6, 9, 9, 10n, 'x', 'week2', enc('')],
  [T7, 20, 21, 4000n, 'aapl', 'feb', enc('f')],
] as const;

export async function openExampleDb(): Promise<{ db: Database; close: () => Promise<void>; reopen: () => Promise<Database> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-query-'));
  let db = await Database.open({ dataDir: dir, durability: 'none', batchRows: 2, sweepIntervalMs: 0 });
  await db.createTable('stocks.apple', [
    { name: 'open', type: 'DOUBLE' }, { name: 'close', type: 'DOUBLE' }, { name: 'volume', type: 'INT64' },
    { name: 'sym', type: 'SYMBOL' }, { name: 'note', type: 'STRING' }, { name: 'raw', type: 'BLOB' },
  ]);
  // Out of order over two inserts; row 4 is inserted before row 5 (same timestamp).
  for (const part of [[3, 1, 7, 0, 4], [2, 6, 5]]) {
    const rows = part.map((i) => APPLE[i]);
    await db.insert('stocks.apple', {
      $timestamp: rows.map((r) => r[0]), open: rows.map((r) => r[1]), close: rows.map((r) => r[2]),
      volume: rows.map((r) => r[3]), sym: rows.map((r) => r[4]), note: rows.map((r) => r[5]), raw: rows.map((r) => r[6]),
    });
  }
  await db.createTable('stocks.msft', [{ name: 'close', type: 'DOUBLE' }]);
  await db.insert('stocks.msft', { $timestamp: [T1, T7], close: [60, 62] });
  await db.createTable('big', [{ name: 'v', type: 'INT64' }]);
  await db.insert('big', { $timestamp: [T1, T2, T3, T4], v: [2n ** 62n, 2n ** 62n - 1n, -(2n ** 62n), 2n ** 53n + 1n] });
  await db.createBlob('readme', 'hello');
  for (const alias of ['readme', 'stocks.apple', 'stocks.msft']) await db.attachTag(alias, 'nasdaq');
  return {
    db,
    close: async () => { await db.close(); await rm(dir, { recursive: true, force: true }); },
    /** Closes (checkpointing to Arrow IPC files) and opens the directory again. */
    reopen: async () => {
      await db.close();
      db = await Database.open({ dataDir: dir, durability: 'none', batchRows: 2, sweepIntervalMs: 0 });
      return db;
    },
  };
}

/** A query over the example data and the result tables it must give. */
export interface ExampleQuery {
  readonly query: string;
  readonly tables: Record<string, Cell[][]>;
  readonly scanned?: number;
  /** Column names after `$timestamp` (when the case checks them). */
  readonly columns?: readonly string[];
  /** Column types, `$timestamp` first (when the case checks them). */
  readonly types?: readonly string[];
}

/** One test per query, each run on the example data. */
export function describeExampleQueries(title: string, cases: readonly ExampleQuery[]): void {
  describe(title, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => ({ db, close } = await openExampleDb()));
    after(async () => close());

    for (const c of cases) {
      it(c.query, async () => {
        const result = await db.query(c.query);
        assert.deepStrictEqual(tablesOf(result), c.tables);
        if (c.scanned !== undefined) assert.equal(result.scannedRowsCount, c.scanned);
        if (c.columns !== undefined) assert.deepEqual(result.tables[0].columns.map((col) => col.name), ['$timestamp', ...c.columns]);
        if (c.types !== undefined) assert.deepEqual(result.tables[0].columns.map((col) => col.type), c.types);
      });
    }
  });
}
