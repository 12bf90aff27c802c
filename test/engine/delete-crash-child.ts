// The writer process of the DELETE crash test (delete-crash.test.ts). Run as `node
// delete-crash-child.js <dataDir> <seed>`: opens the database with durability 'fsync', creates
// table `d` with ROWS rows (row i at second i, id = i, in batches some of which are checkpointed and
// some late, so DELETEs meet sealed batches, runs, tails and cold batches), prints `ready`, then
// runs DELETEs one after the other until it is SIGKILLed. Before each it prints `start <k>` and
// after it resolves `ack <k>`; DELETE k is deleteFor(seed, k), a pure function both sides share.
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import { prng } from '../prng.js';

export const ROWS = 6_000;
const S = 1_000_000_000n;
export const T0 = 1_600_000_000n * S;

/** DELETE k: a time range and a condition on v (= id; every row of the range some of the time). */
export function deleteFor(seed: number, k: number): { text: string; hits: (id: number) => boolean } {
  const r = prng(seed * 1000 + k);
  const from = Math.floor(r() * ROWS);
  const to = from + 1 + Math.floor(r() * 1500);
  // Rows of the range outside [a, b]: batches partly hit, rebuilt.
  const a = from + Math.floor(r() * (to - from));
  const b = a + Math.floor(r() * 200);
  const isAll = r() < 0.3;
  const text = `DELETE FROM d IN RANGE(${iso(from)}, ${iso(to)})${isAll ? '' : ` WHERE v < ${a} OR v > ${b}`}`;
  return { text, hits: (id) => id >= from && id < to && (isAll || id < a || id > b) };
}

function iso(second: number): string {
  return new Date(Number(T0 / 1_000_000n) + second * 1000).toISOString().replace('.000Z', '');
}

async function main(): Promise<void> {
  const [dir, seedText] = process.argv.slice(2);
  const seed = Number(seedText);
  const db = await Database.open({ dataDir: dir, durability: 'fsync', batchRows: 256, sweepIntervalMs: 0 });
  if (db.listAliases('d').aliases.length === 0) {
    await db.createTable('d', [{ name: 'id', type: 'INT64' }, { name: 'v', type: 'DOUBLE' }]);
    // In-order rows, then late ones in between: runs beside sealed batches.
    const ids = Array.from({ length: ROWS }, (_, i) => i);
    const late = ids.filter((i) => i % 7 === 3);
    const first = ids.filter((i) => i % 7 !== 3);
    for (const part of [first.slice(0, 3000), first.slice(3000), late]) {
      await db.insert('d', { $timestamp: BigInt64Array.from(part, (i) => T0 + BigInt(i) * S), id: BigInt64Array.from(part, BigInt), v: Float64Array.from(part) });
      if (part === first.slice(0, 3000) || part.length === late.length) await db.checkpoint();
    }
  }
  writeSync(1, 'ready\n');
  for (let k = 0; ; k++) {
    writeSync(1, `start ${k}\n`);
    await db.query(deleteFor(seed, k).text);
    writeSync(1, `ack ${k}\n`);
    if (k % 5 === 4) await db.checkpoint();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    writeSync(2, `${(e as Error).stack}\n`);
    process.exit(1);
  });
}
