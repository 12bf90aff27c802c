// The differential test of materialized views (SPEC §15), on one node: random rounds of in-order
// and late rows, exact duplicates, nulls, DELETEs (ranges, conditions, DUPLICATE) and an ADD
// COLUMN on the source (view-workload.ts), views created before the data and over data already
// there; after each round, once the views have caught up, every view holds exactly what its SELECT
// answers over the source. Small batches make the source's rows sealed batches, late runs and
// tails at once; the database is closed and opened again in the middle (checkpoint, WAL replay).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Database } from '../../engine/database.js';
import { CREATE_SOURCE, createView, roundSteps, viewProblems, VIEWS } from './view-workload.js';
import { tempDir } from './helpers.js';

const ROUNDS = Number(process.env.VIEW_ROUNDS ?? 8);

/** Every view against its SELECT over the source, once the views have caught up. */
async function checkViews(db: Database, round: number, seed: number): Promise<void> {
  await db.viewsCaughtUp();
  const problems = await viewProblems((q) => db.query(q), VIEWS.filter((x) => x.round <= round));
  assert.deepEqual(problems.slice(0, 10), [], `seed ${seed}, after round ${round}`);
}

it(`keeps every view equal to its SELECT over ${ROUNDS} random rounds, across a restart`, async () => {
  const seed = Number(process.env.VIEW_SEED ?? Math.floor(Math.random() * 1e6));
  const dataDir = await tempDir('svc-views-');
  const options = { dataDir, durability: 'os' as const, batchRows: 64, sweepIntervalMs: 0 };
  let db = await Database.open(options);
  try {
    await db.query(CREATE_SOURCE);
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of VIEWS.filter((x) => x.round === round)) await db.query(createView(v));
      for (const step of roundSteps(seed, round)) await db.query(step);
      await checkViews(db, round, seed);
      if (round === Math.floor(ROUNDS / 2)) {
        // Half the rows in a checkpoint, then more written, then reopened: views from the checkpoint, marks from replay.
        await db.checkpoint();
        for (const step of roundSteps(seed + 1, round)) await db.query(step);
        await db.close();
        db = await Database.open(options);
        await checkViews(db, round, seed);
      }
    }
    const rows = await db.query(`SELECT count($timestamp) FROM ${VIEWS[0].name}`);
    assert.ok(Number(rows.tables[0].columns[0].values[0]) > 100, `seed ${seed}: the first view has few rows`);
  } finally {
    await db.close();
  }
});
