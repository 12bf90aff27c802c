// The writer process of the checkpoint crash test (checkpoints.test.ts): opens the database,
// then inserts batch after batch and takes a checkpoint after each, until it is SIGKILLed — so
// the kill usually lands inside a checkpoint. Checkpoint files are kept tiny so one checkpoint is
// many files and fsyncs. With each batch it writes blob `blob/<id>` (kept by later checkpoints in
// their files) and replaces blob `latest` (so blob files fill with dead items and get rewritten).
// Prints `ack <id>` once the writes of batch <id> resolved (synchronous writes to fd 1: a line
// printed is a line the parent sees).
// Run as `node checkpoint-crash-child.js <dataDir> <firstId>`.
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import { ioLimits } from '../../engine/durability/io-limits.js';

export const TABLE = 'ck';

/** The content of blob `blob/<id>`, and of `latest` as batch <id> left it. */
export function blobOf(id: number): Uint8Array {
  return Uint8Array.from({ length: 20 + (id % 9) * 40 }, (_, k) => (id * 31 + k) & 255);
}

/** Rows of batch `id`: ids spread over time, some late (into checkpointed batches). */
export function batchRows(id: number): { ts: bigint[]; v: number[]; s: string[] } {
  const n = 1 + (id % 7) * 5;
  const base = id % 5 === 4 ? (id * 7919) % (id * 100) : id * 100;
  const ts = Array.from({ length: n }, (_, k) => BigInt(base + k * 3));
  return { ts, v: ts.map((t, k) => id * 1000 + k), s: ts.map((_, k) => `sym${(id + k) % 23}`) };
}

async function main(dataDir: string, firstId: number): Promise<void> {
  ioLimits.checkpointFileBytes = 512;
  const db = await Database.open({ dataDir, batchRows: 16, sweepIntervalMs: 0 });
  await db.createTable(TABLE, [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }], { ifNotExists: true });
  writeSync(1, 'ready\n');
  for (let id = firstId; ; id++) {
    const b = batchRows(id);
    await db.insert(TABLE, { $timestamp: b.ts, v: b.v, s: b.s });
    await db.createBlob(`blob/${id}`, blobOf(id));
    await db.updateBlob('latest', blobOf(id));
    writeSync(1, `ack ${id}\n`);
    await db.checkpoint();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv[2], Number(process.argv[3]));
}
