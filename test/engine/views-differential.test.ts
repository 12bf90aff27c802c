// The differential test of materialized views (SPEC §15), on one node: random rounds of in-order
// and late rows, exact duplicates, nulls, DELETEs (ranges, conditions, DUPLICATE) and an ADD
// COLUMN on the source (view-workload.ts), views created before the data and over data already
// there; after each round, once the views have caught up, every view holds exactly what its SELECT
// answers over the source. Small batches make the source's rows sealed batches, late runs and
// tails at once; the database is closed and opened again in the middle (checkpoint, WAL replay).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Database } from '../../engine/database.js';
import { compare, CREATE_SOURCE, createView, resultRows, roundSteps, SOURCE, sourceQuery, viewProblems, viewQuery, VIEWS } from './view-workload.js';
import type { ViewCase } from './view-workload.js';
import { prng } from '../prng.js';
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

it('refreshes a bucket a stream keeps filling from the kept states of its batches, equal to its SELECT after every write', async () => {
  const seed = Number(process.env.VIEW_SEED ?? Math.floor(Math.random() * 1e6));
  const r = prng(seed);
  const dataDir = await tempDir('svc-views-stream-');
  const db = await Database.open({ dataDir, durability: 'none', batchRows: 32, sweepIntervalMs: 0 });
  const view: ViewCase = {
    name: 'stream_d', round: 0, bucket: '1d', keys: ['host'], where: null,
    items: ['avg(v)', 'min(v)', 'max(v)', 'count(v)', 'sum(n)', 'sample_variance(v)', 'spread(n)'],
    columns: ['avg(v)', 'min(v)', 'max(v)', 'count(v)', 'sum(n)', 'sample_variance(v)', 'spread(n)'],
  };
  try {
    await db.query('CREATE TABLE s (v DOUBLE, n INT64, host SYMBOL)');
    await db.query(`CREATE MATERIALIZED VIEW stream_d AS SELECT ${view.items.join(', ')} FROM s GROUP BY 1d, host`);
    let t = Date.UTC(2024, 0, 1);
    for (let write = 0; write < 60; write++) {
      const rows: string[] = [];
      for (let i = 0; i < 40; i++) {
        // Mostly in order; now and then a row a few hours late, and a duplicate of the one before.
        t += Math.floor(r() * 120_000);
        const at = r() < 0.05 ? t - Math.floor(r() * 4 * 3_600_000) : t;
        const row = `(${new Date(at).toISOString().replace('Z', '')}, ${r() < 0.1 ? 'NULL' : r().toFixed(5)}, ${Math.floor(r() * 1000)}, '${['a', 'b', 'c'][Math.floor(r() * 3)]}')`;
        rows.push(row);
        if (r() < 0.05) rows.push(row);
      }
      await db.query(`INSERT INTO s ($timestamp, v, n, host) VALUES ${rows.join(', ')}`);
      if (write % 15 === 14) await db.query(`DELETE FROM s IN RANGE(${new Date(t - 3_600_000).toISOString().replace('Z', '')}, +30min) WHERE n > 500`);
      await db.viewsCaughtUp();
      const problems = compare(view, resultRows(await db.query(viewQuery(view))), resultRows(await db.query(sourceQuery(view).replace(`FROM ${SOURCE}`, 'FROM s'))));
      assert.deepEqual(problems.slice(0, 8), [], `seed ${seed}, after write ${write}`);
    }
  } finally {
    await db.close();
  }
});
