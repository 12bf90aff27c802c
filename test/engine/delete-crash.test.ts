// SIGKILL right after (and while) DELETEs are acknowledged (SPEC §9, §14): a child process runs
// DELETEs one after the other (delete-crash-child.ts) and is killed at a random moment; reopened,
// the table holds exactly the rows no acknowledged DELETE took, and the DELETE under way when the
// kill came took all of its rows or none (one WAL record: replayed whole or not at all).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import { deleteFor, ROWS } from './delete-crash-child.js';
import { onLines, tempDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./delete-crash-child.js', import.meta.url));
const ROUNDS = Number(process.env.DELETE_CRASH_ROUNDS ?? 4);

it(`loses no acknowledged DELETE and applies none in part over ${ROUNDS} SIGKILLs`, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const seed = Math.floor(Math.random() * 1e6);
    const dir = await tempDir('svc-delete-crash-');
    try {
      const { started, acked } = await runUntilKilled(dir, seed, 5 + Math.floor(Math.random() * 25));
      const db = await Database.open({ dataDir: dir, sweepIntervalMs: 0 });
      const r = await db.query('SELECT id FROM d');
      const present = new Set(Array.from(r.tables[0]?.columns[0].values ?? [], Number));
      await db.close();
      const where = `seed ${seed}: ${acked} acknowledged, ${started} started`;
      const deletes = Array.from({ length: started }, (_, k) => deleteFor(seed, k));
      // The DELETE under way when the kill came (started, not acknowledged): all of its rows or none.
      const pending = started > acked ? deletes[started - 1] : null;
      const before = deletes.slice(0, acked);
      const alive = (id: number) => !before.some((d) => d.hits(id));
      const candidates = Array.from({ length: ROWS }, (_, id) => id).filter(alive);
      const pendingHits = pending === null ? [] : candidates.filter((id) => pending.hits(id));
      const isPendingApplied = pendingHits.length > 0 && !present.has(pendingHits[0]);
      for (const id of candidates) {
        const expected = !(isPendingApplied && pending!.hits(id));
        assert.equal(present.has(id), expected, `row ${id}: ${expected ? 'missing' : 'still there'} (${where}, the pending DELETE ${isPendingApplied ? 'applied' : 'not applied'})`);
      }
      for (const id of present) assert.ok(alive(id), `row ${id} came back after an acknowledged DELETE (${where})`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
});

/** Runs the child until `acks` DELETEs are acknowledged (plus a random moment), then SIGKILLs it. */
async function runUntilKilled(dir: string, seed: number, acks: number): Promise<{ started: number; acked: number }> {
  const child = spawn(process.execPath, [CHILD, dir, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let started = 0;
  let acked = 0;
  let stderr = '';
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stderr.on('data', (d) => { stderr += d; });
  onLines(child.stdout, (line) => {
    const [word, k] = line.split(' ');
    if (word === 'start') started = Number(k) + 1;
    else if (word === 'ack') {
      acked = Number(k) + 1;
      if (acked === acks) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 30));
    }
  });
  // 'close', not 'exit': the child's last lines may still be in the pipe when it has exited.
  const [, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(watchdog);
  assert.equal(signal, 'SIGKILL', `the child exited on its own: ${stderr}`);
  assert.ok(acked >= acks, `the child acknowledged ${acked} DELETEs before the watchdog: ${stderr}`);
  return { started, acked };
}
