// DELETE against a reference model on random data (SPEC §6): random tables (nulls, duplicate
// times and duplicate rows, late rows in runs, tiny batches), random DELETEs (one to three ranges,
// calendar filters, WHERE conditions of the SELECT differential test, DUPLICATE over column
// lists, FIND sources), some while the batches are evicted to disk under the memory budget. Each
// row carries a unique `id`, so the reference names exactly which rows go: the reference
// evaluator's `SELECT id … IN … WHERE …` (the same semantics a SELECT is checked against), and for
// DUPLICATE the first row of each set of equal rows in time order, ties in insertion order. After
// each DELETE every table must read back as the model, and the count answered must match; at the
// end a crash image (WAL after the last checkpoint) must recover to the same rows. Set
// DELETE_SEED to replay a failure.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import type { ColumnDef } from '../../engine/types.js';
import { copyAside, tempDir } from '../engine/helpers.js';
import { rm } from 'node:fs/promises';
import { rowsOf, sameCell } from './helpers.js';
import type { MCalendar, MCond, MQuery } from './query-model.js';
import { condText, timeOfDayText, timeText } from './query-model.js';
import { BASE, cell, int, pick, rng, timestamp } from './random-data.js';
import type { Rng } from './random-data.js';
import { calendar, rowCondition } from './random-query.js';
import type { Cell, RefRow, RefTable } from './reference.js';
import { evaluate } from './reference.js';

const ROUNDS = Number(process.env.DELETE_ROUNDS ?? 10);
const DELETES_PER_ROUND = Number(process.env.DELETE_COUNT ?? 25);

const COLUMNS: readonly ColumnDef[] = [
  { name: 'id', type: 'INT64' }, { name: 'dv', type: 'DOUBLE' }, { name: 'iv', type: 'INT64' }, { name: 'sv', type: 'STRING' },
  { name: 'sym', type: 'SYMBOL' }, { name: 'bv', type: 'BLOB' }, { name: 'tv', type: 'TIMESTAMP' },
];
const H = 3_600_000_000_000n;
const SPAN = 20n * 24n * H;

/** The model of one table: its rows in read order (time, then insertion: ids grow with it). */
interface Model {
  rows: RefRow[];
}

it('random DELETEs remove exactly the rows the reference picks, hot or evicted, and recover after a crash', async () => {
  const seed = Number(process.env.DELETE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let checked = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const r = rng(seed + round);
    const dir = await tempDir('svc-delete-');
    const db = await Database.open({ dataDir: dir, durability: 'os', batchRows: int(r, 2, 9), sweepIntervalMs: 0, memoryLimit: 1 << 20 });
    const catalog = catalogOf(db);
    const models = new Map<string, Model>();
    let nextId = 0;
    const insert = async (name: string, n: number): Promise<void> => {
      const model = models.get(name)!;
      const times = model.rows.map((x) => x.ts);
      const rows: RefRow[] = [];
      for (let i = 0; i < n; i++) {
        // Some rows repeat another row's values (DUPLICATE has work), all at a known time.
        const values = rows.length > 0 && r() < 0.2 ? [BigInt(nextId), ...pick(r, rows).values.slice(1)] : COLUMNS.map((c, k) => (k === 0 ? BigInt(nextId) : cell(r, c.type)));
        const ts = rows.length > 0 && r() < 0.15 ? pick(r, rows).ts : timestamp(r, times, []);
        rows.push({ ts: BASE + (ts - BASE) % SPAN, values });
        nextId++;
      }
      const batch: Record<string, unknown> = { $timestamp: BigInt64Array.from(rows.map((x) => x.ts)) };
      COLUMNS.forEach((c, k) => { batch[c.name] = rows.map((x) => x.values[k]); });
      await db.insert(name, batch as never);
      model.rows = [...model.rows, ...rows].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : Number((a.values[0] as bigint) - (b.values[0] as bigint))));
    };
    for (const name of ['ta', 'tb', 'tc']) {
      await db.createTable(name, COLUMNS, { shardSize: pick(r, [H, 24n * H, 7n * 24n * H]), tags: name === 'tc' ? [] : ['g'] });
      models.set(name, { rows: [] });
      for (let k = int(r, 1, 4); k > 0; k--) await insert(name, int(r, 0, 60));
    }
    for (let step = 0; step < DELETES_PER_ROUND; step++) {
      if (r() < 0.3) await insert(pick(r, [...models.keys()]), int(r, 1, 30));
      if (r() < 0.25) {
        // Every batch to disk, then out of memory: the DELETE reads them back.
        await db.checkpoint();
        const budget = catalog.table('ta')!.context.budget;
        budget.makeRoom(budget.limit);
      }
      const times = [...models.values()].flatMap((m) => m.rows.map((x) => x.ts));
      const statement = randomDelete(r, times);
      const result = await db.query(statement.text, { now: 0n });
      const answered = new Map(result.tables.map((t) => [t.name, Number(t.columns[0].values[0])]));
      for (const name of statement.tables) {
        const model = models.get(name)!;
        const gone = removedIds(statement, { name, columns: COLUMNS, rows: model.rows });
        const where = `seed ${seed} round ${round} step ${step}: ${statement.text} on ${name}`;
        assert.equal(answered.get(name), gone.size, `rows removed\n${where}`);
        model.rows = model.rows.filter((x) => !gone.has(x.values[0] as bigint));
      }
      for (const [name, model] of models) await assertRows(db, name, model, `seed ${seed} round ${round} step ${step} after ${statement.text}`);
      checked++;
    }
    // A crash now: the DELETEs since the last checkpoint are replayed from the WAL.
    const copy = await copyAside(dir);
    await db.close();
    const recovered = await Database.open({ dataDir: copy, durability: 'none', sweepIntervalMs: 0 });
    for (const [name, model] of models) await assertRows(recovered, name, model, `seed ${seed} round ${round} after recovery`);
    await recovered.close();
    await rm(dir, { recursive: true, force: true });
    await rm(copy, { recursive: true, force: true });
  }
  assert.ok(checked >= ROUNDS * DELETES_PER_ROUND);
});

interface RandomDelete {
  readonly text: string;
  /** The tables it names, as FROM resolves them. */
  readonly tables: readonly string[];
  readonly ranges: readonly { from: bigint; to: bigint }[];
  readonly calendar: MCalendar | null;
  readonly where: MCond | null;
  /** DUPLICATE's columns (null: no DUPLICATE). */
  readonly duplicate: readonly string[] | null;
}

function randomDelete(r: Rng, times: readonly bigint[]): RandomDelete {
  const [from, tables] = pick(r, [['ta', ['ta']], ['tb', ['tb']], ['ta, tc', ['ta', 'tc']], ["FIND(tag='g')", ['ta', 'tb']]] as const);
  const bound = (t: bigint): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) : t);
  const ranges = Array.from({ length: int(r, 1, 3) }, () => {
    const a = bound(BASE - H + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n))) * 1_000_000_000n);
    const b = bound(a + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n) * pick(r, [0.02, 0.3, 1.2]))) * 1_000_000_000n);
    return b >= a ? { from: a, to: b } : { from: b, to: a };
  });
  const cal = r() < 0.25 ? calendar(r, times) : null;
  const kind = r();
  const where = kind < 0.55 ? rowCondition(r, 2, times) : null;
  const duplicate = kind >= 0.55 && kind < 0.85 ? ['$timestamp', ...pick(r, [['dv'], ['dv', 'sym'], ['sv', 'bv', 'iv'], ['dv', 'iv', 'sv', 'sym', 'bv', 'tv'], []])] : null;
  let text = `DELETE FROM ${from} IN ${ranges.length === 1 ? range(ranges[0]) : `[${ranges.map(range).join(', ')}]`}`;
  if (cal !== null) {
    if (cal.months !== null) text += ` WITH MONTHS IN (${cal.months[0]}, ${cal.months[1]})`;
    if (cal.days !== null) text += ` WITH DAYS IN (${cal.days[0]}, ${cal.days[1]})`;
    if (cal.times !== null) text += ` WITH TIME IN (${timeOfDayText(cal.times[0])}, ${timeOfDayText(cal.times[1])})`;
  }
  if (where !== null) text += ` WHERE ${condText(where)}`;
  if (duplicate !== null) text += ` WHERE DUPLICATE(${duplicate.join(', ')})`;
  return { text, tables, ranges, calendar: cal, where, duplicate };
}

const range = (x: { from: bigint; to: bigint }): string => `RANGE(${timeText(x.from)}, ${timeText(x.to)})`;

/** The ids of the rows of `table` the DELETE removes, by the reference. */
function removedIds(d: RandomDelete, table: RefTable): Set<bigint> {
  const query: MQuery = {
    tables: [table.name], items: [{ k: 'item', e: { k: 'col', name: 'id' }, alias: null }], ranges: d.ranges, calendar: d.calendar,
    where: d.where, bucket: null, keys: [], having: null, orderBy: [], limit: null, offset: null,
  };
  const picked = evaluate(query, new Map([[table.name, table]])).tables[0]?.rows ?? [];
  const ids = new Set(picked.map((row) => row[1] as bigint));
  if (d.duplicate === null) return ids;
  // DUPLICATE: among the rows in the ranges, every row equal to an earlier one on the columns.
  const at = d.duplicate.filter((c) => c !== '$timestamp').map((c) => COLUMNS.findIndex((x) => x.name === c));
  const seen = new Set<string>();
  const gone = new Set<bigint>();
  for (const row of table.rows) {
    if (!ids.has(row.values[0] as bigint)) continue;
    const key = [row.ts, ...at.map((k) => keyOf(row.values[k]))].join('|');
    if (seen.has(key)) gone.add(row.values[0] as bigint);
    else seen.add(key);
  }
  return gone;
}

/** Equal for values DUPLICATE calls equal: NaN with NaN, 0 with -0, bytes by content, nulls together. */
function keyOf(v: Cell): string {
  if (v === null) return '\u0000null';
  if (v instanceof Uint8Array) return `b${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : `n${v === 0 ? 0 : v}`;
  return `${typeof v}${v}`;
}

async function assertRows(db: Database, name: string, model: Model, where: string): Promise<void> {
  const result = await db.query(`SELECT * FROM ${name}`, { now: 0n });
  const actual = result.tables.length === 0 ? [] : rowsOf(result.tables[0]);
  const show = (x: unknown): string => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v));
  assert.equal(actual.length, model.rows.length, `${name}: row count\n${where}\n  ids expected ${show(model.rows.map((x) => x.values[0]))}\n  actual ${show(actual.map((x) => x[2]))}`);
  model.rows.forEach((row, i) => {
    const expected = [row.ts, row.ts, ...row.values];
    actual[i].forEach((c, k) => {
      if (!sameCell(c, expected[k])) assert.fail(`${name} row ${i} cell ${k}: ${show(c)} vs ${show(expected[k])}\n${where}`);
    });
  });
}
