// Issue 8, out-of-order ingestion: the ingest case's rows (`$timestamp` + 4 DOUBLE, batches of
// 10,000, durability none, awaiting each insert) arriving fully shuffled, shuffled within each
// hour, and with 1 % of rows late by up to a day, each beside the same rows sorted and beside
// DuckDB's appender (bulk copy) fed the same arrival order. svc's time includes one scan of the
// whole table after the inserts: shards sort their rows when sealed or first read, so the scan
// makes svc pay for its sorting inside the timing. Also: the shuffled case on a tenth of the rows
// (cost must be linear in rows), and late single-row inserts into ~1 M sealed rows.
import { Database } from '../../engine/index.js';
import { benchRows, MAX_TS, MIN_TS, makeSeries, tempDir, toBatches, YEAR_NS, YEAR_START } from '../data.js';
import type { InputBatch } from '../data.js';
import { arrive } from '../data-orders.js';
import type { ArrivalOrder } from '../data-orders.js';
import { defineCase } from '../harness.js';
import type { Case, Suite } from '../harness.js';
import { appendBatches, createDuckTable, openDuck } from '../peers/duckdb.js';
import { prng } from '../../test/prng.js';
import { INGEST_COLUMNS, insertAll } from './ingest.js';

const TABLE = 'm';
const SORTED = 'svc sorted';
const LATE_SINGLE_ROWS = 20_000;
const SEALED_ROWS = 1_000_000;
export const LATE_SINGLE_NAME = `svc late single-row inserts into ${SEALED_ROWS.toLocaleString('en-US')} sealed rows`;
export const ORDER_NAMES: Record<Exclude<ArrivalOrder, 'sorted'>, string> = {
  shuffled: 'fully shuffled', 'within-hour': 'shuffled within each hour', 'late-1%': '1 % late rows over a day',
};

/** The batches of one (rows, order); only the latest is kept, so 10 M rows are held once. */
let cached: { key: string; batches: InputBatch[] } | null = null;
function batchesOf(rows: number, order: ArrivalOrder): InputBatch[] {
  const key = `${rows} ${order}`;
  if (cached?.key !== key) {
    cached = null;
    cached = { key, batches: toBatches(arrive(makeSeries(rows, INGEST_COLUMNS, 1), order)) };
  }
  return cached.batches;
}

function rowProblems(rows: number, expected: number): string[] {
  return rows === expected ? [] : [`table holds ${rows} rows, expected ${expected}`];
}

async function openSvc(): Promise<{ db: Database; remove: () => Promise<void> }> {
  const dir = await tempDir('out-of-order');
  const db = await Database.open({ dataDir: dir.path, durability: 'none', sweepIntervalMs: 0 });
  await db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
  return { db, remove: async () => { await db.close(); await dir.remove(); } };
}

function svcCase(name: string, order: ArrivalOrder, rows: () => number, vs: string[]): Case<any, any> {
  return defineCase({
    name, rows, vs,
    async setup() {
      return { batches: batchesOf(rows(), order), ...(await openSvc()) };
    },
    async run({ db, batches }) {
      await insertAll(db, TABLE, batches, 1);
      return db.scan(TABLE, MIN_TS, MAX_TS).length;
    },
    check: (_out, { db }) => rowProblems(db.describeTable(TABLE).rowCount, rows()),
    teardown: ({ remove }) => remove(),
  });
}

function duckCase(order: Exclude<ArrivalOrder, 'sorted'>): Case<any, any> {
  return defineCase({
    name: `duckdb appender, ${ORDER_NAMES[order]}`,
    rows: benchRows,
    async setup() {
      const batches = batchesOf(benchRows(), order);
      const duck = await openDuck();
      await createDuckTable(duck.connection, TABLE, INGEST_COLUMNS);
      return { duck, batches };
    },
    run: ({ duck, batches }) => appendBatches(duck.connection, TABLE, INGEST_COLUMNS, batches, 'bulk'),
    async check(_out, { duck }) {
      const n = (await duck.connection.runAndReadAll(`SELECT count(*) FROM ${TABLE}`)).getRows()[0][0];
      return rowProblems(Number(n), benchRows());
    },
    teardown: ({ duck }) => duck.close(),
  });
}

/** One row per insert, each at a random time within ~1 M sealed rows over the year. */
const lateSingleRows = defineCase({
  name: LATE_SINGLE_NAME,
  rows: LATE_SINGLE_ROWS,
  async setup() {
    const svc = await openSvc();
    await insertAll(svc.db, TABLE, toBatches(makeSeries(Math.min(SEALED_ROWS, benchRows()), INGEST_COLUMNS, 3)), 1);
    const random = prng(11);
    const late = Array.from({ length: LATE_SINGLE_ROWS }, () => ({
      $timestamp: BigInt64Array.of(YEAR_START + BigInt(Math.floor(random() * Number(YEAR_NS)))),
      ...Object.fromEntries(INGEST_COLUMNS.map((c) => [c, Float64Array.of(random())])),
    }));
    return { ...svc, late };
  },
  async run({ db, late }) {
    for (const row of late) await db.insert(TABLE, row);
  },
  check: (_out, { db }) => rowProblems(db.describeTable(TABLE).rowCount, Math.min(SEALED_ROWS, benchRows()) + LATE_SINGLE_ROWS),
  teardown: ({ remove }) => remove(),
});

const orders = Object.keys(ORDER_NAMES) as Exclude<ArrivalOrder, 'sorted'>[];
const tenth = (): number => Math.floor(benchRows() / 10);

export const outOfOrderSuite: Suite = {
  name: 'out-of-order',
  mode: 'once',
  rounds: 3,
  async teardown() {
    cached = null;
  },
  cases: [
    svcCase(SORTED, 'sorted', benchRows, []),
    ...orders.flatMap((o) => [
      svcCase(`svc ${ORDER_NAMES[o]}`, o, benchRows, [SORTED, `duckdb appender, ${ORDER_NAMES[o]}`]),
      duckCase(o),
    ]),
    svcCase('svc fully shuffled, a tenth of the rows', 'shuffled', tenth, []),
    lateSingleRows,
  ],
};
