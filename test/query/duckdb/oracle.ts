// DuckDB as the oracle of the differential tests of the language's newer features (ASOF JOIN,
// calendar filters, FILL, sequence and scalar functions): the random tables of random-data.ts
// are loaded into an in-memory DuckDB as `ts BIGINT` (nanoseconds) plus a `seq` column (each
// row's place in time order, ties in insertion order), so window functions can ORDER BY seq and
// ASOF joins can break ties the way svc does. The SQL of each test states svc's semantics where
// the two engines differ (ln(0), sign(NaN), ÷ 0); DuckDB does the rest of the work.
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { QueryResult } from '../../../engine/query/index.js';
import { FakeCatalog } from '../fake-catalog.js';
import { rowsOf, sameCell } from '../helpers.js';
import type { Cell } from '../helpers.js';
import { randomTable } from '../random-data.js';
import type { Rng } from '../random-data.js';
import type { RefTable } from '../reference.js';

export interface Oracle {
  readonly connection: DuckDBConnection;
  close(): void;
}

export async function openOracle(): Promise<Oracle> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  return { connection, close: () => { connection.closeSync(); instance.closeSync(); } };
}

const SQL_TYPES: Readonly<Record<string, string>> = {
  DOUBLE: 'DOUBLE', INT64: 'BIGINT', STRING: 'VARCHAR', SYMBOL: 'VARCHAR', BLOB: 'BLOB', TIMESTAMP: 'BIGINT',
};

function literal(v: Cell): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isNaN(v) ? "'nan'::DOUBLE" : Number.isFinite(v) ? String(v) : `'${v > 0 ? 'inf' : '-inf'}'::DOUBLE`;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  return `'${[...v].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}'::BLOB`;
}

/** Creates `table` in DuckDB with the rows of the reference table (ts, seq, then its columns). */
export async function loadTable(oracle: Oracle, table: RefTable): Promise<void> {
  const columns = table.columns.map((c) => `"${c.name}" ${SQL_TYPES[c.type]}`).join(', ');
  await oracle.connection.run(`CREATE OR REPLACE TABLE "${table.name}" (ts BIGINT, seq INTEGER, ${columns})`);
  if (table.rows.length === 0) return;
  const values = table.rows.map((row, seq) => `(${[row.ts, BigInt(seq), ...row.values].map(literal).join(', ')})`);
  await oracle.connection.run(`INSERT INTO "${table.name}" VALUES ${values.join(', ')}`);
}

/** A HUGEINT expression (DuckDB's sum of BIGINT) wrapped into int64, as svc's int64 sums wrap. */
/** Random tables `ta` and `tb` in a catalog of random batch size, each also loaded into the oracle. */
export async function loadRandomTables(oracle: Oracle, r: Rng): Promise<{ catalog: FakeCatalog; tables: RefTable[] }> {
  const catalog = new FakeCatalog(1 + Math.floor(r() * 8));
  const tables: RefTable[] = [];
  for (const name of ['ta', 'tb']) {
    const table = await randomTable(r, catalog, name);
    tables.push(table);
    await loadTable(oracle, table);
  }
  return { catalog, tables };
}

export const wrapInt64 = (h: string): string =>
  `((((${h}) + 9223372036854775808) % 18446744073709551616 + 18446744073709551616) % 18446744073709551616 - 9223372036854775808)::BIGINT`;

/** DuckDB's rows of `sql` as cells (BIGINT as bigint, BLOB as bytes, HUGEINT wrapped to int64 is the SQL's job). */
export async function oracleRows(oracle: Oracle, sql: string): Promise<Cell[][]> {
  let reader;
  try {
    reader = await oracle.connection.runAndReadAll(sql);
  } catch (e) {
    throw new Error(`DuckDB refused the oracle SQL: ${(e as Error).message}\n  ${sql}`);
  }
  return reader.getRows().map((row) => row.map(toCell));
}

function toCell(v: unknown): Cell {
  if (v === null || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  const bytes = (v as { bytes?: Uint8Array }).bytes;
  if (bytes !== undefined) return new Uint8Array(bytes);
  throw new Error(`unexpected DuckDB value ${String(v)}`);
}

const show = (x: unknown): string => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : Number.isNaN(v) ? 'NaN' : v));

/**
 * Asserts svc's one result table (or none) holds `expected` rows ([time, ...values]); `where`
 * names the case (the seed and both query texts) in the failure.
 */
export function assertSameRows(actual: QueryResult, expected: readonly Cell[][], where: string): void {
  const rows = actual.tables.length === 0 ? [] : rowsOf(actual.tables[0]);
  assert.ok(actual.tables.length <= 1, `${where}\n  several result tables`);
  const context = (): string => `${where}\n  expected ${show(expected)}\n  actual   ${show(rows)}`;
  // Messages are built only on a mismatch: a JSON of every row per check would be quadratic.
  if (rows.length !== expected.length) assert.fail(`row count ${rows.length}, expected ${expected.length}\n${context()}`);
  rows.forEach((row, i) => {
    if (row.length !== expected[i].length) assert.fail(`row ${i} has ${row.length} cells, expected ${expected[i].length}\n${context()}`);
    row.forEach((cell, c) => {
      if (!sameCell(cell, expected[i][c])) assert.fail(`row ${i} cell ${c}: ${show(cell)} vs expected ${show(expected[i][c])}\n${context()}`);
    });
  });
}
