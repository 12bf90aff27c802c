// Issues 2 and 8, storage: the ingest data (BENCH_ROWS rows, `$timestamp` + 4 DOUBLE) loaded
// into a fresh database, then per round: a full checkpoint (every batch written: Arrow IPC, fsync,
// rename), 1 % new rows appended and an incremental checkpoint (only the batches not written
// before), and a reopen from it (close, then time Database.open). Memory per row is measured
// twice — after ingestion and after a reopen that then reads every batch back (open itself reads
// none) — as V8 heap + ArrayBuffer bytes after a full GC, compared with the raw 40 bytes of a row.
import { rm } from 'node:fs/promises';
import { Database } from '../../engine/index.js';
import { benchRows, collectGarbage, heldBytes, makeSeries, tempDir, toBatches, YEAR_NS, YEAR_START } from '../data.js';
import type { InputBatch } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { INGEST_COLUMNS, insertAll } from './ingest.js';
import { scanTable } from '../peers/hand.js';

const TABLE = 'm';
const RAW_BYTES_PER_ROW = 8 * (1 + INGEST_COLUMNS.length);
const SUITE = 'storage';
const FULL = 'checkpoint write (full)';

const fixture: {
  dir: { path: string; remove: () => Promise<void> } | null;
  db: Database | null;
  before: number;
  /** Rows the table holds now, and whether a checkpoint already holds its batches. */
  rows: number;
  isCheckpointed: boolean;
  /** Appended rounds of 1 % new rows so far. */
  appended: number;
} = { dir: null, db: null, before: 0, rows: 0, isCheckpointed: false, appended: 0 };

function open(): Promise<Database> {
  return Database.open({ dataDir: fixture.dir!.path, durability: 'none', sweepIntervalMs: 0 });
}

function recordMemory(name: string, bytes: number): void {
  const perRow = bytes / benchRows();
  recordMetric(SUITE, `${name}: bytes per row`, perRow, 'B/row', `${(perRow / RAW_BYTES_PER_ROW).toFixed(3)}× the raw ${RAW_BYTES_PER_ROW} B/row`);
}

function rowCountProblems(db: Database): string[] {
  const rows = db.describeTable(TABLE).rowCount;
  return rows === fixture.rows ? [] : [`table holds ${rows} rows, expected ${fixture.rows}`];
}

/** A fresh database holding the ingest data and no checkpoint. */
async function ingest(): Promise<void> {
  await fixture.db?.close();
  fixture.db = null;
  if (fixture.dir !== null) await rm(fixture.dir.path, { recursive: true, force: true });
  let batches: InputBatch[] = toBatches(makeSeries(benchRows(), INGEST_COLUMNS, 1));
  fixture.db = await open();
  await fixture.db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
  await insertAll(fixture.db, TABLE, batches, 8);
  batches = [];
  fixture.rows = benchRows();
  fixture.isCheckpointed = false;
  fixture.appended = 0;
}

export const storageSuite: Suite = {
  name: SUITE,
  mode: 'once',
  rounds: 3,
  async setup() {
    fixture.dir = await tempDir('storage');
    collectGarbage();
    const before = heldBytes();
    await ingest();
    collectGarbage();
    recordMemory('after ingest', heldBytes() - before);
  },
  async teardown() {
    await fixture.db?.close();
    fixture.db = null;
    await fixture.dir?.remove();
    fixture.dir = null;
  },
  cases: [
    defineCase({
      name: FULL,
      rows: benchRows,
      async setup() {
        if (fixture.isCheckpointed) await ingest();
        collectGarbage();
      },
      async run() {
        await fixture.db!.checkpoint();
        fixture.isCheckpointed = true;
      },
    }),
    defineCase({
      name: 'checkpoint after 1 % new data',
      rows: () => Math.floor(benchRows() / 100),
      vs: [FULL],
      async setup() {
        if (!fixture.isCheckpointed) await fixture.db!.checkpoint();
        // The series goes on at the same rate: 1 % more rows over the next 1 % of its time span
        // (3.65 days after a year), the usual shape of a time series' new data.
        const series = makeSeries(Math.floor(benchRows() / 100), INGEST_COLUMNS, 2 + fixture.appended);
        const start = YEAR_START + YEAR_NS + (BigInt(fixture.appended) * YEAR_NS) / 100n;
        fixture.appended += 1;
        for (let i = 0; i < series.rows; i++) series.ts[i] = start + (series.ts[i] - YEAR_START) / 100n;
        await insertAll(fixture.db!, TABLE, toBatches(series), 8);
        fixture.rows += series.rows;
        collectGarbage();
      },
      run: () => fixture.db!.checkpoint(),
      check: () => rowCountProblems(fixture.db!),
    }),
    defineCase({
      name: 'reopen from checkpoint',
      rows: () => fixture.rows,
      async setup() {
        await fixture.db?.close();
        fixture.db = null;
        collectGarbage();
        fixture.before = heldBytes();
      },
      async run() {
        fixture.db = await open();
      },
      check() {
        // Open reads no column data (docs/memory.md): every batch is read back first, so the
        // figure is what the whole table takes in memory again.
        scanTable(fixture.db!, TABLE);
        collectGarbage();
        recordMemory('after reopen and reading every batch back', heldBytes() - fixture.before);
        return rowCountProblems(fixture.db!);
      },
    }),
  ],
};
