// Issue 2, storage: the ingest data (BENCH_ROWS rows, `$timestamp` + 4 DOUBLE) loaded once, then
// per round an explicit checkpoint (Arrow IPC write, fsync, rename) and a reopen from it (close,
// then time Database.open). Memory per row is measured twice — after ingestion and after a reopen —
// as V8 heap + ArrayBuffer bytes after a full GC, compared with the raw 40 bytes of a row.
import { Database } from '../../engine/index.js';
import { benchRows, collectGarbage, heldBytes, makeSeries, tempDir, toBatches } from '../data.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { INGEST_COLUMNS, insertAll } from './ingest.js';

const TABLE = 'm';
const RAW_BYTES_PER_ROW = 8 * (1 + INGEST_COLUMNS.length);
const SUITE = 'storage';

const fixture: { dir: { path: string; remove: () => Promise<void> } | null; db: Database | null; before: number } = { dir: null, db: null, before: 0 };

function open(): Promise<Database> {
  return Database.open({ dataDir: fixture.dir!.path, durability: 'none', sweepIntervalMs: 0 });
}

function recordMemory(name: string, bytes: number): void {
  const perRow = bytes / benchRows();
  recordMetric(SUITE, `${name}: bytes per row`, perRow, 'B/row', `${(perRow / RAW_BYTES_PER_ROW).toFixed(3)}× the raw ${RAW_BYTES_PER_ROW} B/row`);
}

function rowCountProblems(db: Database): string[] {
  const rows = db.describeTable(TABLE).rowCount;
  return rows === benchRows() ? [] : [`table holds ${rows} rows, expected ${benchRows()}`];
}

export const storageSuite: Suite = {
  name: SUITE,
  mode: 'once',
  rounds: 3,
  async setup() {
    let batches = toBatches(makeSeries(benchRows(), INGEST_COLUMNS, 1));
    fixture.dir = await tempDir('storage');
    collectGarbage();
    const before = heldBytes();
    fixture.db = await open();
    await fixture.db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
    await insertAll(fixture.db, TABLE, batches, 8);
    collectGarbage();
    recordMemory('after ingest', heldBytes() - before);
    batches = [];
  },
  async teardown() {
    await fixture.db?.close();
    fixture.db = null;
    await fixture.dir?.remove();
    fixture.dir = null;
  },
  cases: [
    defineCase({
      name: 'checkpoint write',
      rows: benchRows,
      run: () => fixture.db!.checkpoint(),
    }),
    defineCase({
      name: 'reopen from checkpoint',
      rows: benchRows,
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
        collectGarbage();
        recordMemory('after reopen', heldBytes() - fixture.before);
        return rowCountProblems(fixture.db!);
      },
    }),
  ],
};
