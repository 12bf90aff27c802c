// Issue 2, ingestion: BENCH_ROWS rows of `$timestamp` + 4 DOUBLE columns inserted in batches of
// 10,000 into a fresh data directory per run, for each durability mode, with strictly sequential
// awaits and pipelined (a window of 8 inserts in flight: how group commit is meant to be used).
// Default engine options otherwise (automatic checkpoints included). Peer: the same batches through
// DuckDB's appender (in-memory, chunked appendDataChunk). Each run's row count is checked.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
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
const WIDE_WINDOW = 64;
const DUCK_BULK = 'duckdb appender (bulk copy)';
const DUCK_SET_ITEM = 'duckdb appender (setItem)';
const DISK = 'disk: writev + fdatasync of the same bytes';
const DISK_PER_BATCH = 'disk: write + fdatasync per batch';

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
    vs: durability === 'none' ? [DUCK_BULK, DUCK_SET_ITEM] : [DUCK_BULK, DUCK_SET_ITEM, window === 1 ? DISK_PER_BATCH : DISK],
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

/**
 * The disk's own pace for a durable log of this data: the batches' raw column bytes written with
 * one writev and then one fdatasync per `window` batches, in lockstep, with nothing else to do.
 * The ratio says how svc's fsync ingestion (which also builds batches, stats and checksums, but
 * overlaps writes with fdatasyncs) compares with the bare disk. With a window of 1 it is the pace
 * of a writer that awaits each batch: one fdatasync per batch.
 */
function diskCase(window: number): Case<any, any> {
  return defineCase({
    name: window === 1 ? DISK_PER_BATCH : DISK,
    rows: benchRows,
    async setup() {
      const dir = await tempDir('ingest-disk');
      return { dir, fh: await open(join(dir.path, 'log'), 'a') };
    },
    async run({ fh }) {
      for (let at = 0; at < batches.length; at += window) {
        const chunks = batches.slice(at, at + window).flatMap((b) => Object.values(b).map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)));
        await fh.writev(chunks);
        await fh.datasync();
      }
    },
    async teardown({ dir, fh }) {
      await fh.close();
      await dir.remove();
    },
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
    // Many concurrent writers (a busy server): larger fsync groups, the disk's best case.
    svcCase('fsync', WIDE_WINDOW),
    duckCase('bulk'),
    duckCase('setItem'),
    diskCase(WINDOW),
    diskCase(1),
  ],
};
