// The writer process of the views crash test (views-crash.test.ts). Run as `node
// views-crash-child.js <dataDir> <seed> <first round>`: opens the database with durability 'fsync'
// and plays the rounds of the views workload (view-workload.ts) from the first round given — views
// created as they come due, a checkpoint every other round — printing `ack <k>` after each round,
// until it is SIGKILLed: in the middle of a write, a refresh of the views or a checkpoint. Run
// again after a kill, it goes on where the acknowledged rounds stopped (what the round under way
// did before the kill may be there: its view and its column are made only when missing).
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import { CREATE_SOURCE, createView, roundSteps, SOURCE, VIEWS } from './view-workload.js';

async function main(): Promise<void> {
  const [dir, seedText, startText] = process.argv.slice(2);
  const seed = Number(seedText);
  const db = await Database.open({ dataDir: dir, durability: 'fsync', batchRows: 64, sweepIntervalMs: 0 });
  if (db.listAliases(SOURCE).aliases.length === 0) await db.query(CREATE_SOURCE);
  for (let round = Number(startText); ; round++) {
    for (const v of VIEWS.filter((x) => x.round === round)) await db.query(createView(v, true));
    for (const step of roundSteps(seed, round)) {
      if (step.startsWith('ALTER') && db.describeTable(SOURCE).columns.some((c) => c.name === 'w')) continue;
      await db.query(step);
    }
    writeSync(1, `ack ${round}\n`);
    if (round % 2 === 1) await db.checkpoint();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    writeSync(2, `${(e as Error).stack}\n`);
    process.exit(1);
  });
}
