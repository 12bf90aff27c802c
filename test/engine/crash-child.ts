// The writer process of the crash test (crash.test.ts), and the deterministic data both sides
// share. Run as `node crash-child.js <dataDir> <firstId> <seed> <checkpointWalBytes> <batchRows>`,
// it opens the database with durability 'fsync' and writes until it is SIGKILLed: columnar
// batches of random size and blob creates/updates, a few in flight at a time. Every write gets
// an id; its content is a pure function of that id (and the blob version), so the parent can
// check values. Before a write starts it prints `start batch <id> rows <n>` or `start blob <id>
// v<version>`, after the promise resolves `ack …` with the same words (synchronous writes to fd 1,
// so a line printed is a line the parent sees, whenever the kill comes).
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Database } from '../../engine/database.js';
import type { ColumnDef } from '../../engine/types.js';
import { prng } from '../prng.js';
export { prng };

export const TABLE = 'crash';
export const SHARD_SIZE = 1_000_000_000n;
export const COLUMNS: ColumnDef[] = [
  { name: 'bid', type: 'INT64' },
  { name: 'k', type: 'INT64' },
  { name: 'v', type: 'DOUBLE' },
  { name: 's', type: 'SYMBOL' },
  { name: 'str', type: 'STRING' },
  { name: 'b', type: 'BLOB' },
];


export interface CrashBatch {
  readonly ts: BigInt64Array;
  readonly v: (number | null)[];
  readonly s: (string | null)[];
  readonly str: (string | null)[];
  readonly b: (Uint8Array | null)[];
}

/** Rows of batch `id`, in the order they are inserted (row k has bid = id, k = k). */
export function batchFor(id: number): CrashBatch {
  const rand = prng(id * 2 + 1);
  // Mostly small batches, now and then a big one.
  const n = rand() < 0.9 ? 1 + Math.floor(rand() * 200) : 200 + Math.floor(rand() * 3000);
  // Most batches land near "now" for their id (overlapping their neighbours, so the tails see
  // out-of-order rows and ties); some are late rows of the recent past, merged into sealed
  // batches; a few go anywhere in the past, into batches of earlier runs (checkpointed ones).
  const late = rand();
  const lateSpan = late < 0.02 ? id * 1000 : late < 0.1 ? 300_000 : 0;
  const ts = new BigInt64Array(n);
  const v: (number | null)[] = [];
  const s: (string | null)[] = [];
  const str: (string | null)[] = [];
  const b: (Uint8Array | null)[] = [];
  for (let k = 0; k < n; k++) {
    const r = rand();
    ts[k] = BigInt(r < 0.1 ? id * 1000 : lateSpan > 0 ? id * 1000 - Math.floor(rand() * lateSpan) : id * 1000 + Math.floor(rand() * 10_000) - 5000);
    v.push((id + k) % 9 === 0 ? null : id * 7 + k * 0.5);
    s.push(k % 11 === 3 ? null : `sym${(id + k) % 17}`);
    str.push((id + k) % 13 === 0 ? null : `r${id}.${k}`);
    b.push(k % 5 === 0 ? Uint8Array.of(id & 255, k & 255, (id >> 8) & 255) : null);
  }
  return { ts, v, s, str, b };
}

export function blobAlias(id: number): string {
  return `b/${id}`;
}

/** Content of version `version` of blob `id`. */
export function blobFor(id: number, version: number): Uint8Array {
  const rand = prng(id * 7919 + version);
  const size = Math.floor(rand() * 5000);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

async function main(): Promise<void> {
  const [dataDir, firstIdArg, seedArg, walBytesArg, batchRowsArg] = process.argv.slice(2);
  const rand = prng(Number(seedArg));
  const db = await Database.open({
    dataDir, durability: 'fsync', checkpointWalBytes: Number(walBytesArg), batchRows: Number(batchRowsArg), sweepIntervalMs: 0,
  });
  await db.createTable(TABLE, COLUMNS, { shardSize: SHARD_SIZE, ifNotExists: true });
  say('ready');
  const maxInFlight = 1 + Math.floor(rand() * 6);
  const inFlight = new Set<Promise<void>>();
  const updatable: number[] = []; // blobs of this run that are acknowledged and idle
  const versions = new Map<number, number>();
  let id = Number(firstIdArg);
  const track = (p: Promise<void>) => {
    const tracked = p.catch((e: Error) => {
      say(`error ${e.message}`);
      process.exit(1);
    }).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  for (;;) {
    while (inFlight.size < maxInFlight) {
      const r = rand();
      if (r < 0.75) {
        const batchId = id++;
        const batch = batchFor(batchId);
        const n = batch.ts.length;
        const bid = new BigInt64Array(n).fill(BigInt(batchId));
        const k = BigInt64Array.from({ length: n }, (_, i) => BigInt(i));
        say(`start batch ${batchId} rows ${n}`);
        track(db.insert(TABLE, { $timestamp: batch.ts, bid, k, v: batch.v, s: batch.s, str: batch.str, b: batch.b }).then(() => {
          say(`ack batch ${batchId} rows ${n}`);
        }));
      } else if (r < 0.9 || updatable.length === 0) {
        const blobId = id++;
        say(`start blob ${blobId} v0`);
        track(db.createBlob(blobAlias(blobId), blobFor(blobId, 0)).then(() => {
          say(`ack blob ${blobId} v0`);
          versions.set(blobId, 0);
          updatable.push(blobId);
        }));
      } else {
        // One write at a time per alias: the order of two in-flight updates is not defined.
        const blobId = updatable.splice(Math.floor(rand() * updatable.length), 1)[0];
        const version = versions.get(blobId)! + 1;
        say(`start blob ${blobId} v${version}`);
        track(db.updateBlob(blobAlias(blobId), blobFor(blobId, version)).then(() => {
          say(`ack blob ${blobId} v${version}`);
          versions.set(blobId, version);
          updatable.push(blobId);
        }));
      }
    }
    await Promise.race(inFlight);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
