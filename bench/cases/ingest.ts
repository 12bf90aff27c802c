// Issue 2, ingestion: BENCH_ROWS rows of `$timestamp` + 4 DOUBLE columns inserted in batches of
// 10,000 into a fresh data directory per run, for each durability mode, with strictly sequential
// awaits and pipelined (a window of 8 inserts in flight: how group commit is meant to be used).
// Default engine options otherwise (automatic checkpoints included). Peer: the same batches through
// DuckDB's appender (in-memory, chunked appendDataChunk). Each run's row count is checked.
import { Database } from '../../engine/index.js';
import type { Durability } from '../../engine/index.js';
import { benchRows, makeSeries, tempDir, toBatches } from '../data.js';
import type { InputBatch } from '../data.js';
import { defineCase } from '../harness.js';
import type { Case, Suite } from '../harness.js';
import { appendBatches, createDuckTable, openDuck } from '../peers/duckdb.js';
import type { AppendMethod } from '../peers/duckdb.js';

export const INGEST_COLUMNS = ['a', 'b', 'c', 'd'] as const;
const TABLE = 'm';
const WINDOW = 8;
const DUCK_BULK = 'duckdb appender (bulk copy)';
const DUCK_SET_ITEM = 'duckdb appender (setItem)';

let batches: InputBatch[] = [];

/** Inserts every batch, awaiting each (window 1) or keeping up to `window` in flight. */
export async function insertAll(db: Database, table: string, all: readonly InputBatch[], window: number): Promise<void> {
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < all.length; i++) {
    const slot = i % window;
    if (i >= window) await inFlight[slot];
    inFlight[slot] = db.insert(table, all[i]);
  }
  await Promise.all(inFlight);
}

function svcCase(durability: Durability, window: number): Case<any, any> {
  return defineCase({
    name: `svc ${durability} ${window === 1 ? 'sequential' : `pipelined ×${window}`}`,
    rows: benchRows,
    vs: [DUCK_BULK, DUCK_SET_ITEM],
    async setup() {
      const dir = await tempDir(`ingest-${durability}`);
      const db = await Database.open({ dataDir: dir.path, durability, sweepIntervalMs: 0 });
      await db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
      return { dir, db };
    },
    run: ({ db }) => insertAll(db, TABLE, batches, window),
    check: (_out, { db }) => rowCountProblems(db.describeTable(TABLE).rowCount),
    async teardown({ dir, db }) {
      await db.close();
      await dir.remove();
    },
  });
}

function duckCase(method: AppendMethod): Case<any, any> {
  return defineCase({
    name: method === 'bulk' ? DUCK_BULK : DUCK_SET_ITEM,
    rows: benchRows,
    async setup() {
      const duck = await openDuck();
      await createDuckTable(duck.connection, TABLE, INGEST_COLUMNS);
      return duck;
    },
    run: (duck) => appendBatches(duck.connection, TABLE, INGEST_COLUMNS, batches, method),
    async check(_out, duck) {
      const rows = (await duck.connection.runAndReadAll(`SELECT count(*) FROM ${TABLE}`)).getRows()[0][0];
      return rowCountProblems(Number(rows));
    },
    teardown: (duck) => duck.close(),
  });
}

function rowCountProblems(rows: number): string[] {
  return rows === benchRows() ? [] : [`table holds ${rows} rows, expected ${benchRows()}`];
}

export const ingestSuite: Suite = {
  name: 'ingest',
  mode: 'once',
  rounds: 3,
  async setup() {
    batches = toBatches(makeSeries(benchRows(), INGEST_COLUMNS, 1));
  },
  async teardown() {
    batches = [];
  },
  cases: [
    ...(['fsync', 'os', 'none'] as const).flatMap((d) => [svcCase(d, 1), svcCase(d, WINDOW)]),
    duckCase('bulk'),
    duckCase('setItem'),
  ],
};
