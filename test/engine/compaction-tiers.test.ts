// Size-tiered compaction (storage/compaction-policy.ts): which job late runs get — into `main`
// when cheap, large enough, or forced; small runs of about one size merged with each other; else
// nothing yet — and, on a real table, that a trickle of late rows into a big shard leaves its
// sealed batches alone while the runs stay few, reads the same rows meanwhile, and ends fully
// merged once the shard is quiet.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogOf, Database } from '../../engine/database.js';
import { chooseJob, MAX_SMALL_RUNS, MIN_SMALL_RUNS } from '../../engine/storage/compaction-policy.js';
import { Compactor } from '../../engine/storage/compactor.js';
import type { JobChoice } from '../../engine/storage/compaction-policy.js';
import type { SealedBatch } from '../../engine/storage/sealed-batch.js';
import { prng, readRows, sortedByTs, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

const runsOf = (...sizes: number[]): SealedBatch[] => sizes.map((rowCount) => ({ rowCount }) as SealedBatch);
const times = (n: number, size: number): number[] => Array.from({ length: n }, () => size);

describe('compaction policy', () => {
  const B = 100;
  const CASES: [string, SealedBatch[], number, boolean, JobChoice][] = [
    ['no runs', [], 10_000, false, null],
    ['a small part of main: merged in at once', runsOf(1), 2 * B, false, { kind: 'main' }],
    ['runs an eighth of the rows they overlap', runsOf(600, 650), 10_000, false, { kind: 'main' }],
    ['a reader needs order', runsOf(1), 10_000, true, { kind: 'main' }],
    ['one small run beside a big main waits', runsOf(1), 10_000, false, null],
    ['large runs wait until an eighth', runsOf(80, 90, 70), 10_000, false, null],
    ['too few small runs wait', runsOf(...times(MIN_SMALL_RUNS - 1, 3)), 10_000, false, null],
    ['the newest small runs of one size merge', runsOf(60, 20, ...times(MIN_SMALL_RUNS, 3)), 10_000, false, { kind: 'runs', from: 2 }],
    ['a merged run waits for runs of its own size', runsOf(24, ...times(MIN_SMALL_RUNS - 1, 3)), 10_000, false, null],
    ['sizes apart wait', runsOf(40, ...times(MIN_SMALL_RUNS - 1, 3)), 10_000, false, null],
    ['until there are too many', runsOf(90, 40, ...times(MAX_SMALL_RUNS - 1, 3)), 10_000, false, { kind: 'runs', from: 1 }],
  ];
  for (const [name, runs, mainRows, isForced, expected] of CASES) {
    it(name, () => assert.deepEqual(chooseJob(runs, mainRows, B, isForced), expected));
  }
});

describe('size-tiered compaction on a table', () => {
  it('keeps a big shard sealed while late rows trickle in, then merges them once it is quiet', async () => {
    // Runs wait while the shard takes late rows however slowly the machine runs this test.
    const { idleMs, maxIdleMs } = Compactor;
    Compactor.idleMs = Compactor.maxIdleMs = 3_600_000;
    try {
      await trickle(idleMs);
    } finally {
      Compactor.idleMs = idleMs;
      Compactor.maxIdleMs = maxIdleMs;
    }
  });
});

/** Late rows into a big day shard, then quiet (`quietMs`: the compactor's wait once quiet). */
async function trickle(quietMs: number): Promise<void> {
  const DAY = 86_400_000_000_000n;
  const BASE = 1_600_041_600_000_000_000n; // a day boundary
  const r = prng(21);
  const db = await Database.open({ dataDir: await tempDir(), durability: 'none', batchRows: 16, sweepIntervalMs: 0 });
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }], { shardSize: DAY });
  const table = catalogOf(db).table('t')!;
  const inserted: Row[] = [];
  const insert = async (rows: Row[]): Promise<void> => { inserted.push(...rows); await db.insertRows('t', rows); };
  // Day 0: 2,000 sorted rows (125 sealed batches); then day 1 starts, which seals day 0.
  await insert(Array.from({ length: 2000 }, (_, k) => ({ $timestamp: BASE + BigInt(k) * 40_000_000_000n, v: k })));
  await insert([{ $timestamp: BASE + DAY, v: -1 }]);
  const sealed = new Set(table.allBatches().filter((v) => v.maxTs < BASE + DAY));
  assert.equal(sealed.size, 125);
  // Each round: a row for day 1 and two late rows for day 0 (unsorted), then unsorted rows of
  // day 1 only, which leave day 0 behind and seal its two-row tail into a run.
  let at = BASE + DAY + 1n;
  const lateRow = async (k: number): Promise<void> => {
    const second = (s: number): bigint => BASE + BigInt(s) * 1_000_000_000n;
    await insert([{ $timestamp: at, v: k }, { $timestamp: second(70_000 + Math.floor(r() * 9_000)), v: 10_000 + k }, { $timestamp: second(Math.floor(r() * 9_000)), v: 20_000 + k }]);
    await insert([{ $timestamp: at + 2_000_000_000n, v: k }, { $timestamp: at + 1_000_000_000n, v: k }]);
    at += 3_000_000_000n;
  };
  for (let k = 0; k < 100; k++) {
    await lateRow(k);
    await new Promise((resolve) => setImmediate(resolve));
    const day0 = table.allBatches().filter((v) => v.minTs < BASE + DAY);
    assert.ok(day0.length <= sealed.size + MAX_SMALL_RUNS + 2, `round ${k}: ${day0.length - sealed.size} runs wait`);
  }
  // 200 late rows: under an eighth of the 2,000 they overlap, so `main` was never rewritten;
  // the 100 two-row runs were merged with each other instead.
  assert.ok([...sealed].every((v) => table.allBatches().includes(v)), 'the sealed batches were rewritten');
  assert.ok(table.hasRuns);
  const count = await db.query('SELECT count(v), sum(v) FROM t');
  assert.ok(count.kind === 'rows');
  assert.deepEqual([count.tables[0].columns[0].values[0], count.tables[0].columns[1].values[0]],
    [BigInt(inserted.length), inserted.reduce((s, x) => s + (x.v as number), 0)]);
  // Quiet after one more late row: the compactor merges the runs into `main` on its own.
  Compactor.idleMs = quietMs;
  await lateRow(100);
  while (table.isCompacting) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(!table.hasRuns, 'runs left after the shard went quiet');
  assert.deepEqual(readRows(db, 't'), sortedByTs(inserted));
  await db.close();
}
