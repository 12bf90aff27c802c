// SIGKILL and restart under the views workload (SPEC §15, §9): a child process plays the rounds of
// view-workload.ts (views-crash-child.ts) and is killed at a random moment — during a write, a
// refresh of the views or a checkpoint. Reopened, once the views have caught up, every view the
// source has holds exactly what its SELECT answers over the source as it survived: nothing a view
// had computed is trusted beyond what its checkpoint and the replayed log say.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import { viewProblems, VIEWS } from './view-workload.js';
import { killWhen, tempDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./views-crash-child.js', import.meta.url));
const KILLS = Number(process.env.VIEWS_CRASH_KILLS ?? 3);

it(`keeps every view equal to its SELECT after ${KILLS} SIGKILLs at random moments`, async () => {
  for (let kill = 0; kill < KILLS; kill++) {
    const seed = Math.floor(Math.random() * 1e6);
    const dir = await tempDir('svc-views-crash-');
    try {
      // Killed once after a random number of rounds, then again after more: the second run starts from a replayed state.
      const first = await runUntilKilled(dir, seed, 0, 1 + Math.floor(Math.random() * 4));
      const second = await runUntilKilled(dir, seed + 1, first, 1 + Math.floor(Math.random() * 3));
      const db = await Database.open({ dataDir: dir, sweepIntervalMs: 0 });
      try {
        await db.viewsCaughtUp();
        const present = VIEWS.filter((v) => db.listAliases(v.name).aliases.includes(v.name));
        assert.ok(present.length >= 2, `seed ${seed}: only ${present.length} views were created`);
        const problems = await viewProblems((q) => db.query(q), present);
        assert.deepEqual(problems.slice(0, 10), [], `seed ${seed}, killed after ${first} rounds, then ${second} more`);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
});

/**
 * Runs the child from round `start` until it acknowledged `rounds` rounds (plus a random moment),
 * SIGKILLs it; returns the rounds acknowledged.
 */
async function runUntilKilled(dir: string, seed: number, start: number, rounds: number): Promise<number> {
  let acked = 0;
  const stderr = await killWhen(CHILD, [dir, String(seed), String(start)], (line) => line.startsWith('ack ') && ++acked === rounds, 200);
  assert.ok(acked >= rounds, `the child acknowledged ${acked} rounds before the watchdog: ${stderr}`);
  return acked;
}
