// Issue 8, out-of-order ingestion: the ingest case's rows (`$timestamp` + 4 DOUBLE, batches of
// 10,000, durability none, awaiting each insert) arriving fully shuffled, shuffled within each
// hour, and with 1 % of rows late by up to a day, each beside the same rows sorted and beside
// DuckDB's appender (bulk copy) fed the same arrival order. svc's time includes one scan of the
// whole table after the inserts: shards sort their rows when sealed or first read, so the scan
// makes svc pay for its sorting inside the timing. Also: the shuffled case on a tenth of the rows
// (cost must be linear in rows), and late single-row inserts into ~1 M sealed rows. And a GROUP BY
// day aggregate right after 1 % late rows, runs pending: read as stored (order-free aggregates do
// not merge runs), beside the read that merges them first (what every read did before) and beside
// the same query once compaction is done. And late rows trickling into one big shard (inserts of
// 1,000 at random times over it), timed until compaction has caught up: the cost of merging runs
// into the shard's sealed batches (compaction-policy.ts).
import { catalogOf } from '../../engine/database.js';
import { Database } from '../../engine/index.js';
import { benchRows, MAX_TS, MIN_TS, makeSeries, tempDir, toBatches, YEAR_NS, YEAR_START } from '../data.js';
import type { InputBatch } from '../data.js';
import { arrive } from '../data-orders.js';
import type { ArrivalOrder } from '../data-orders.js';
import { defineCase } from '../harness.js';
import type { Case, Suite } from '../harness.js';
import { appendBatches, createDuckTable, openDuck } from '../peers/duckdb.js';
import { scanTable } from '../peers/hand.js';
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

async function openSvc(shardSize?: bigint): Promise<{ db: Database; remove: () => Promise<void> }> {
  const dir = await tempDir('out-of-order');
  const db = await Database.open({ dataDir: dir.path, durability: 'none', sweepIntervalMs: 0 });
  await db.createTable(TABLE, INGEST_COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })), { shardSize });
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
      return scanTable(db, TABLE).length;
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

const AFTER_LATE_ROWS = 1_000_000;
const LATE_PER_INSERT = 100;
const DAY_QUERY = `SELECT avg(a), min(b), max(c), count(d) FROM ${TABLE} GROUP BY day`;
export const AFTER_LATE_NAMES = {
  pending: 'svc GROUP BY day after 1 % late rows over the year, runs pending',
  merged: 'svc GROUP BY day after 1 % late rows over the year, merging the runs first',
  compacted: 'svc GROUP BY day after 1 % late rows over the year, compacted',
} as const;
const afterLateRows = (): number => Math.min(benchRows(), AFTER_LATE_ROWS);

/** 1 % of `rows` as late rows at random times over the year, LATE_PER_INSERT per insert. */
function lateBatches(rows: number): InputBatch[] {
  const random = prng(13);
  const out: InputBatch[] = [];
  for (let left = Math.floor(rows / 100); left > 0; left -= LATE_PER_INSERT) {
    const n = Math.min(LATE_PER_INSERT, left);
    out.push({
      $timestamp: BigInt64Array.from({ length: n }, () => YEAR_START + BigInt(Math.floor(random() * Number(YEAR_NS)))),
      ...Object.fromEntries(INGEST_COLUMNS.map((c) => [c, Float64Array.from({ length: n }, () => random())])),
    });
  }
  return out;
}

/**
 * The day query over sealed sorted rows plus 1 % late rows spread over the year (setup, untimed):
 * every day shard then holds late runs or a tail overlapping its sealed rows. `pending` queries at
 * once (order-free aggregates read the runs as stored); `merged` makes the read merge them first
 * (an ordered scan: what every read did before); `compacted` queries once they are merged.
 */
function afterLateCase(kind: keyof typeof AFTER_LATE_NAMES): Case<any, any> {
  return defineCase({
    name: AFTER_LATE_NAMES[kind],
    rows: afterLateRows,
    vs: kind === 'pending' ? [AFTER_LATE_NAMES.merged, AFTER_LATE_NAMES.compacted] : [],
    async setup() {
      const svc = await openSvc();
      await insertAll(svc.db, TABLE, batchesOf(afterLateRows(), 'sorted'), 1);
      for (const b of lateBatches(afterLateRows())) await svc.db.insert(TABLE, b);
      if (kind === 'compacted') scanTable(svc.db, TABLE);
      return svc;
    },
    async run({ db }) {
      if (kind === 'merged') scanTable(db, TABLE);
      return db.query(DAY_QUERY);
    },
    check(out) {
      if (out.kind !== 'rows' || out.tables.length !== 1) return ['expected one result table'];
      let n = 0;
      for (const c of out.tables[0].columns[3].values as BigInt64Array) n += Number(c);
      return rowProblems(n, afterLateRows() + Math.floor(afterLateRows() / 100));
    },
    teardown: ({ remove }) => remove(),
  });
}

const BIG_SHARD_ROWS = 4_000_000;
const TRICKLE_ROWS = 400_000;
const TRICKLE_PER_INSERT = 1_000;
export const TRICKLE_NAME = `svc ${TRICKLE_ROWS.toLocaleString('en-US')} late rows in inserts of ${TRICKLE_PER_INSERT.toLocaleString('en-US')} into one shard of ${BIG_SHARD_ROWS.toLocaleString('en-US')} rows, until compacted`;

/** Late rows into one shard holding the year's rows, each insert followed by a turn of the event loop. */
const trickleIntoBigShard = defineCase({
  name: TRICKLE_NAME,
  rows: TRICKLE_ROWS,
  async setup() {
    const svc = await openSvc(2n * YEAR_NS);
    const rows = Math.min(benchRows(), BIG_SHARD_ROWS);
    await insertAll(svc.db, TABLE, toBatches(makeSeries(rows, INGEST_COLUMNS, 5)), 1);
    const random = prng(17);
    const late: InputBatch[] = [];
    for (let k = 0; k < TRICKLE_ROWS; k += TRICKLE_PER_INSERT) {
      late.push({
        $timestamp: BigInt64Array.from({ length: TRICKLE_PER_INSERT }, () => YEAR_START + BigInt(Math.floor(random() * Number(YEAR_NS)))),
        ...Object.fromEntries(INGEST_COLUMNS.map((c) => [c, Float64Array.from({ length: TRICKLE_PER_INSERT }, () => random())])),
      });
    }
    return { ...svc, late, rows };
  },
  async run({ db, late }) {
    const table = catalogOf(db).table(TABLE)!;
    for (const b of late) {
      await db.insert(TABLE, b);
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (table.isCompacting) await new Promise((resolve) => setTimeout(resolve, 1));
  },
  check: (_out, { db, rows }) => rowProblems(db.describeTable(TABLE).rowCount, rows + TRICKLE_ROWS),
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
    afterLateCase('pending'),
    afterLateCase('merged'),
    afterLateCase('compacted'),
    trickleIntoBigShard,
  ],
};
