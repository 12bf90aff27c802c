// Blob checkpoints (the web bridge's data): BENCH_BLOBS blobs of 64 KiB in a fresh database, then
// per round a full checkpoint (every blob written) and, after 1 % of the blobs were added and
// 1 % replaced, an incremental one: blob files are kept while their blobs live, so it writes the
// 2 % that changed, not the whole set. Like the table storage suite, a database is filled again
// only when a checkpoint already holds its blobs.
//   BENCH_BLOBS=2000   blobs in the database (2,000 × 64 KiB = 125 MiB)
import { prng } from '../../test/prng.js';
import { Database } from '../../engine/index.js';
import { tempDir } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';

export const BLOB_SUITE = 'storage: blobs';
export const BLOB_FULL = 'blob checkpoint (full)';
export const BLOB_INCREMENTAL = 'blob checkpoint after 1 % new and 1 % replaced blobs';

const BLOBS = Number(process.env.BENCH_BLOBS ?? 2000);
const BLOB_BYTES = 64 * 1024;

const fixture: {
  dir: { path: string; remove: () => Promise<void> } | null;
  db: Database | null;
  /** Blobs created so far (the next alias number). */
  next: number;
  /** A checkpoint already holds the blobs: a full checkpoint needs a fresh database. */
  isCheckpointed: boolean;
} = { dir: null, db: null, next: 0, isCheckpointed: false };
const random = prng(5);

function blobBytes(): Uint8Array {
  const b = new Uint8Array(BLOB_BYTES);
  for (let i = 0; i < b.length; i += 4096) b[i] = Math.floor(random() * 256);
  return b;
}

/** A fresh database holding BLOBS blobs and no checkpoint. */
async function fill(): Promise<void> {
  await fixture.db?.close();
  await fixture.dir?.remove();
  fixture.dir = await tempDir('blob-storage');
  fixture.db = await Database.open({ dataDir: fixture.dir.path, durability: 'none', sweepIntervalMs: 0 });
  for (fixture.next = 0; fixture.next < BLOBS; fixture.next++) await fixture.db.createBlob(`blob/${fixture.next}`, blobBytes());
  fixture.isCheckpointed = false;
}

async function checkpoint(): Promise<void> {
  await fixture.db!.checkpoint();
  fixture.isCheckpointed = true;
}

export const blobStorageSuite: Suite = {
  name: BLOB_SUITE,
  mode: 'once',
  rounds: 3,
  async setup() {
    await fill();
  },
  async teardown() {
    await fixture.db?.close();
    fixture.db = null;
    await fixture.dir?.remove();
    fixture.dir = null;
  },
  cases: [
    defineCase({
      name: BLOB_FULL,
      rows: () => BLOBS,
      setup: async () => { if (fixture.isCheckpointed) await fill(); },
      run: checkpoint,
    }),
    defineCase({
      name: BLOB_INCREMENTAL,
      rows: () => Math.floor(BLOBS / 50),
      vs: [BLOB_FULL],
      async setup() {
        const db = fixture.db!;
        if (!fixture.isCheckpointed) await checkpoint();
        for (let k = 0; k < BLOBS / 100; k++) {
          await db.createBlob(`blob/${fixture.next++}`, blobBytes());
          await db.updateBlob(`blob/${Math.floor(random() * BLOBS)}`, blobBytes());
        }
      },
      run: () => fixture.db!.checkpoint(),
      check: () => {
        const count = fixture.db!.listAliases('blob/', { limit: 1_000_000 }).aliases.length;
        return count === fixture.next ? [] : [`${count} blobs, expected ${fixture.next}`];
      },
    }),
  ],
};
