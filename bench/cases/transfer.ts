// Issue 29, data in and out, beside DuckDB in the same run: BENCH_ROWS rows (`$timestamp` + 4
// DOUBLE, the ingest data) held by svc and by an in-memory DuckDB, then per round
//   - a Parquet export of every row to a file: svc's db.export streamed to disk vs DuckDB's
//     `COPY … TO (FORMAT parquet)`, both with Snappy pages (either's default) and uncompressed;
//   - a CSV export (MB/s) vs DuckDB's `COPY … TO (FORMAT csv)`;
//   - a Parquet import of the file DuckDB wrote (Snappy, DuckDB's row groups) into a new table:
//     svc's db.import vs DuckDB's `CREATE TABLE … AS SELECT * FROM read_parquet(…)`.
// Checks: each export holds every row (Parquet footer, CSV lines), each import every row.
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { Database } from '../../engine/index.js';
import type { ExportOptions } from '../../engine/index.js';
import { benchRows, makeSeries, tempDir, toBatches } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Case, Suite } from '../harness.js';
import { appendBatches, createDuckTable, openDuck } from '../peers/duckdb.js';
import type { DuckPeer } from '../peers/duckdb.js';
import { INGEST_COLUMNS, insertAll } from './ingest.js';

export const TRANSFER_SUITE = 'export/import';
export const SVC_PARQUET = 'svc Parquet export (snappy)';
export const DUCK_PARQUET = 'duckdb COPY TO parquet (snappy)';
export const SVC_PARQUET_RAW = 'svc Parquet export (uncompressed)';
export const DUCK_PARQUET_RAW = 'duckdb COPY TO parquet (uncompressed)';
export const SVC_CSV = 'svc CSV export';
export const DUCK_CSV = 'duckdb COPY TO csv';
export const SVC_IMPORT = 'svc Parquet import';
export const DUCK_IMPORT = 'duckdb read_parquet into a table';

const TABLE = 'm';
const fixture: { dir: { path: string; remove: () => Promise<void> } | null; db: Database | null; duck: DuckPeer | null; imports: number } = { dir: null, db: null, duck: null, imports: 0 };

function path(name: string): string {
  return join(fixture.dir!.path, name);
}

/** Writes an export to `file` as the disk drains (the way a download or a file sink pulls it). */
async function exportTo(file: string, options: ExportOptions, query = `SELECT * FROM ${TABLE}`): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  for await (const piece of fixture.db!.export(query, options)) {
    bytes += piece.byteLength;
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

async function parquetRows(file: string): Promise<number> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const tail = Buffer.alloc(Math.min(size, 8 * 1024 * 1024));
    await fh.read(tail, 0, tail.length, size - tail.length);
    return Number(parquetMetadata(tail.buffer.slice(tail.byteOffset, tail.byteOffset + tail.byteLength) as ArrayBuffer).num_rows);
  } finally {
    await fh.close();
  }
}

async function csvRows(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  return lines - 1;
}

function rowProblems(rows: number): string[] {
  return rows === benchRows() ? [] : [`${rows} rows, expected ${benchRows()}`];
}

function exportCase(name: string, file: string, run: () => Promise<unknown>, count: (file: string) => Promise<number>, vs: string[] = []): Case<void, unknown> {
  return defineCase({
    name,
    rows: () => benchRows(),
    vs,
    run,
    check: async () => {
      const problems = rowProblems(await count(path(file)));
      recordMetric(TRANSFER_SUITE, `${name}: file size`, (await stat(path(file))).size / benchRows(), 'file B/row');
      await rm(path(file), { force: true });
      return problems;
    },
  });
}

/** A CSV export case: `write` returns the bytes written, recorded as MB/s. */
function csvCase(name: string, file: string, write: () => Promise<number>, vs: string[] = []): Case<void, void> {
  return defineCase({
    name,
    rows: () => benchRows(),
    vs,
    run: async () => {
      const started = performance.now();
      const bytes = await write();
      recordMetric(TRANSFER_SUITE, `${name}: MB/s`, bytes / 1e6 / ((performance.now() - started) / 1000), 'MB/s');
    },
    check: async () => {
      const problems = rowProblems(await csvRows(path(file)));
      await rm(path(file), { force: true });
      return problems;
    },
  });
}

const duckCopy = (file: string, options: string) => async (): Promise<void> => {
  await fixture.duck!.connection.run(`COPY ${TABLE} TO '${path(file)}' (${options})`);
};

export const transferSuite: Suite = {
  name: TRANSFER_SUITE,
  mode: 'once',
  rounds: 3,
  async setup() {
    fixture.dir = await tempDir('transfer');
    const batches = toBatches(makeSeries(benchRows(), INGEST_COLUMNS, 29));
    fixture.db = await Database.open({ dataDir: path('db'), durability: 'none', sweepIntervalMs: 0 });
    await fixture.db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
    await insertAll(fixture.db, TABLE, batches, 8);
    fixture.duck = await openDuck();
    await createDuckTable(fixture.duck.connection, TABLE, INGEST_COLUMNS);
    await appendBatches(fixture.duck.connection, TABLE, INGEST_COLUMNS, batches, 'bulk');
    // The file both imports read: DuckDB's own Parquet (Snappy, its row groups).
    await fixture.duck.connection.run(`COPY (SELECT ts AS "$timestamp", ${INGEST_COLUMNS.join(', ')} FROM ${TABLE}) TO '${path('input.parquet')}' (FORMAT parquet)`);
  },
  async teardown() {
    await fixture.db?.close();
    fixture.duck?.close();
    await fixture.dir?.remove();
    fixture.db = null;
    fixture.duck = null;
    fixture.dir = null;
  },
  cases: [
    exportCase(SVC_PARQUET, 'svc.parquet', () => exportTo(path('svc.parquet'), { format: 'parquet' }), parquetRows, [DUCK_PARQUET]),
    exportCase(DUCK_PARQUET, 'duck.parquet', duckCopy('duck.parquet', 'FORMAT parquet, COMPRESSION snappy'), parquetRows),
    exportCase(SVC_PARQUET_RAW, 'svc-raw.parquet', () => exportTo(path('svc-raw.parquet'), { format: 'parquet', compression: 'none' }), parquetRows, [DUCK_PARQUET_RAW]),
    exportCase(DUCK_PARQUET_RAW, 'duck-raw.parquet', duckCopy('duck-raw.parquet', 'FORMAT parquet, COMPRESSION uncompressed'), parquetRows),
    csvCase(SVC_CSV, 'svc.csv', async () => exportTo(path('svc.csv'), { format: 'csv' }), [DUCK_CSV]),
    csvCase(DUCK_CSV, 'duck.csv', async () => {
      await duckCopy('duck.csv', 'FORMAT csv, HEADER')();
      return (await stat(path('duck.csv'))).size;
    }),
    defineCase({
      name: SVC_IMPORT,
      rows: () => benchRows(),
      vs: [DUCK_IMPORT],
      setup: () => `imported_${fixture.imports++}`,
      run: async (table: string) => fixture.db!.import(table, path('input.parquet'), { format: 'parquet' }),
      check: (r) => rowProblems(r.rows),
      teardown: async (table: string) => { await fixture.db!.dropTable(table); },
    }),
    defineCase({
      name: DUCK_IMPORT,
      rows: () => benchRows(),
      run: async () => {
        await fixture.duck!.connection.run(`CREATE OR REPLACE TABLE imported AS SELECT * FROM read_parquet('${path('input.parquet')}')`);
      },
      check: async () => rowProblems(Number((await fixture.duck!.connection.runAndReadAll('SELECT count(*) FROM imported')).getRows()[0][0])),
      teardown: async () => { await fixture.duck!.connection.run('DROP TABLE IF EXISTS imported'); },
    }),
  ],
};
