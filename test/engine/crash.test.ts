// Crash test: a child process (crash-child.ts) writes batches and blobs with durability 'fsync'
// and reports each write it starts and each one acknowledged; the test SIGKILLs it at a random
// moment, over and over on the same data directory (some rounds with a small checkpointWalBytes
// so checkpoints happen mid-run, some rounds not verified so the next child recovers a crashed
// directory itself). Verification reopens the directory and checks: every acknowledged row and
// blob is present with its values; nothing appears that was never started; a batch is all or
// nothing; within one run the batches present are a prefix of those started (the WAL has no
// holes); rows come back in timestamp order with ties in insertion order. The seed is printed
// on failure; CRASH_SEED=<n> replays it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { columnVector } from '../../engine/storage/column-vector.js';
import { Database } from '../../engine/database.js';
import { isValid } from '../../engine/types.js';
import { batchFor, blobAlias, blobFor, COLUMNS, SHARD_SIZE, TABLE } from './crash-child.js';
import type { CrashBatch } from './crash-child.js';
import { MAX_TS, MIN_TS, onLines, prng, randInt, scanOf, tempDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./crash-child.js', import.meta.url));
const ROUNDS = 24;
const ID_STRIDE = 1_000_000;

interface RoundLog {
  readonly startedBatches: number[]; // in start (= commit) order
  readonly ackedBatches: Set<number>;
  readonly startedBlobs: [id: number, version: number][];
  readonly ackedBlobs: Map<number, number>; // id → highest acknowledged version
}

/** What the directory is known to hold after the last verification. */
interface Known {
  readonly batches: Set<number>;
  readonly absentBatches: Set<number>;
  readonly blobs: Map<number, number>; // id → version present
}

/** The first child may die before its CREATE TABLE is durable. */
function hasTable(db: Database): boolean {
  return db.listAliases(TABLE).aliases.includes(TABLE);
}

async function runChild(dataDir: string, firstId: number, seed: number, walBytes: number, batchRows: number, killAt: { afterReady: boolean; ms: number }): Promise<RoundLog> {
  const log: RoundLog = { startedBatches: [], ackedBatches: new Set(), startedBlobs: [], ackedBlobs: new Map() };
  const child = spawn(process.execPath, [CHILD, dataDir, String(firstId), String(seed), String(walBytes), String(batchRows)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let failure: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  const kill = () => { child.kill('SIGKILL'); };
  if (!killAt.afterReady) timer = setTimeout(kill, killAt.ms);
  // A child that never gets ready (a hung recovery) must fail the test, not hang it.
  const watchdog = setTimeout(() => { failure ??= `the child was not ready after 20 s: ${stderr}`; kill(); }, 20_000);
  child.stderr.on('data', (d) => { stderr += d; });
  onLines(child.stdout, (line) => {
    const w = line.split(' ');
    if (line === 'ready') {
      clearTimeout(watchdog);
      if (killAt.afterReady) timer = setTimeout(kill, killAt.ms);
    } else if (w[0] === 'start' && w[1] === 'batch') log.startedBatches.push(Number(w[2]));
    else if (w[0] === 'ack' && w[1] === 'batch') log.ackedBatches.add(Number(w[2]));
    else if (w[0] === 'start' && w[1] === 'blob') log.startedBlobs.push([Number(w[2]), Number(w[3].slice(1))]);
    else if (w[0] === 'ack' && w[1] === 'blob') log.ackedBlobs.set(Number(w[2]), Number(w[3].slice(1)));
    else failure ??= `unexpected line from the child: ${line}`;
  });
  // 'close', not 'exit': the child's last ack lines may still be in the pipe when it has exited.
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  if (timer !== null) clearTimeout(timer);
  clearTimeout(watchdog);
  if (failure !== null) assert.fail(failure);
  assert.equal(signal, 'SIGKILL', `the child exited on its own (code ${code}): ${stderr}`);
  return log;
}

async function verify(db: Database, known: Known, rounds: RoundLog[]): Promise<void> {
  const batchCache = new Map<number, CrashBatch>();
  const batchOf = (id: number) => {
    let b = batchCache.get(id);
    if (b === undefined) batchCache.set(id, (b = batchFor(id)));
    return b;
  };
  const started = new Set(rounds.flatMap((r) => r.startedBatches));
  const acked = new Set(rounds.flatMap((r) => [...r.ackedBatches]));
  const seen = new Map<number, Set<number>>();
  let last: { ts: bigint; bid: number; k: number } | null = null;
  // The first child may die before its CREATE TABLE is durable; batches start only after it.
  const views = !hasTable(db) ? [] : scanOf(db, TABLE, MIN_TS, MAX_TS);
  if (views.length === 0 && !hasTable(db)) assert.equal(started.size + known.batches.size, 0, 'the table is missing');
  for (const view of views) {
    view.loadSync(view.allColumns);
    const ts = view.ts;
    const [bidV, kV, vV, sV, strV, bV] = COLUMNS.map((c, i) => columnVector(view, i + 1, c.type)) as [any, any, any, any, any, any];
    for (let r = 0; r < view.rowCount; r++) {
      const bid = Number(bidV.values[r]);
      const k = Number(kV.values[r]);
      const where = `row ${r} of a batch: bid ${bid} k ${k}`;
      assert.ok(known.batches.has(bid) || started.has(bid), `${where}: batch ${bid} was never written`);
      assert.ok(!known.absentBatches.has(bid), `${where}: batch ${bid} was absent before and came back`);
      const b = batchOf(bid);
      assert.ok(k < b.ts.length, `${where}: row beyond the batch's ${b.ts.length} rows`);
      let rows = seen.get(bid);
      if (rows === undefined) seen.set(bid, (rows = new Set()));
      assert.ok(!rows.has(k), `${where}: row appears twice`);
      rows.add(k);
      assert.equal(ts[r], b.ts[k], `${where}: $timestamp`);
      assert.equal(isValid(vV.validity, r) ? vV.values[r] : null, b.v[k], `${where}: v`);
      assert.equal(isValid(sV.validity, r) ? sV.dictionary[sV.indices[r]] : null, b.s[k], `${where}: s`);
      const str = isValid(strV.validity, r) ? Buffer.from(strV.data.subarray(strV.offsets[r], strV.offsets[r + 1])).toString() : null;
      assert.equal(str, b.str[k], `${where}: str`);
      const blob = isValid(bV.validity, r) ? new Uint8Array(bV.data.subarray(bV.offsets[r], bV.offsets[r + 1])) : null;
      assert.deepEqual(blob, b.b[k], `${where}: b`);
      // Timestamp order; ties in insertion order (batches commit in id order, rows in k order).
      if (last !== null) {
        assert.ok(last.ts <= ts[r], `${where}: out of timestamp order`);
        if (last.ts === ts[r]) assert.ok(last.bid < bid || (last.bid === bid && last.k < k), `${where}: tie not in insertion order after bid ${last.bid} k ${last.k}`);
      }
      last = { ts: ts[r], bid, k };
    }
  }
  for (const [bid, rows] of seen) assert.equal(rows.size, batchOf(bid).ts.length, `batch ${bid} is only partly present`);
  for (const bid of [...known.batches, ...acked]) assert.ok(seen.has(bid), `acknowledged batch ${bid} is missing`);
  for (const r of rounds) {
    const present = r.startedBatches.map((id) => seen.has(id) || known.batches.has(id));
    const firstMissing = present.indexOf(false);
    if (firstMissing >= 0) assert.ok(present.slice(firstMissing).every((p) => !p), `a hole in the log: batch ${r.startedBatches[firstMissing]} is missing but a later one of the same run is present`);
  }
  if (hasTable(db)) assert.equal(db.describeTable(TABLE).rowCount, [...seen.values()].reduce((s, rows) => s + rows.size, 0));

  const startedBlobs = new Map<number, Set<number>>();
  for (const r of rounds) for (const [id, v] of r.startedBlobs) {
    if (!startedBlobs.has(id)) startedBlobs.set(id, new Set());
    startedBlobs.get(id)!.add(v);
  }
  const ackedBlobs = new Map<number, number>();
  for (const r of rounds) for (const [id, v] of r.ackedBlobs) ackedBlobs.set(id, Math.max(v, ackedBlobs.get(id) ?? -1));
  const presentBlobs = new Map<number, number>();
  for (const alias of db.listAliases('b/', { limit: 1_000_000 }).aliases) {
    const id = Number(alias.slice(2));
    const content = await db.getBlob(alias);
    const candidates = [...(startedBlobs.get(id) ?? []), ...(known.blobs.has(id) ? [known.blobs.get(id)!] : [])];
    const version = candidates.find((v) => Buffer.compare(Buffer.from(blobFor(id, v)), Buffer.from(content)) === 0);
    assert.ok(version !== undefined, `blob ${alias} holds content that was never written (candidates ${candidates})`);
    assert.ok(version >= (ackedBlobs.get(id) ?? -1) && version >= (known.blobs.get(id) ?? -1), `blob ${alias} went back to version ${version}`);
    presentBlobs.set(id, version);
  }
  for (const id of [...known.blobs.keys(), ...ackedBlobs.keys()]) assert.ok(presentBlobs.has(id), `acknowledged blob ${blobAlias(id)} is missing`);

  // What is present now is what every later recovery must keep; what is absent stays absent.
  for (const id of started) if (!seen.has(id)) known.absentBatches.add(id);
  for (const id of seen.keys()) known.batches.add(id);
  known.blobs.clear();
  for (const [id, v] of presentBlobs) known.blobs.set(id, v);
}

describe('crash recovery', () => {
  it(`loses no acknowledged write over ${ROUNDS} SIGKILLs`, async (t) => {
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1e9));
    const rand = prng(seed);
    const dataDir = await tempDir('svc-crash-');
    const known: Known = { batches: new Set(), absentBatches: new Set(), blobs: new Map() };
    let unverified: RoundLog[] = [];
    let acked = 0;
    let verifications = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const walBytes = round % 3 === 1 ? randInt(rand, 8_000, 200_000) : 1 << 30;
        const batchRows = [16, 256, 4096][randInt(rand, 0, 2)];
        const killAt = rand() < 0.8 ? { afterReady: true, ms: randInt(rand, 0, 800) } : { afterReady: false, ms: randInt(rand, 0, 500) };
        const log = await runChild(dataDir, (round + 1) * ID_STRIDE, randInt(rand, 0, 2 ** 31), walBytes, batchRows, killAt);
        acked += log.ackedBatches.size + log.ackedBlobs.size;
        unverified.push(log);
        if (round === ROUNDS - 1 || rand() < 0.6) {
          const db = await Database.open({ dataDir, sweepIntervalMs: 0 });
          try {
            if (hasTable(db)) {
              assert.deepEqual(db.describeTable(TABLE).columns, COLUMNS);
              assert.equal(db.describeTable(TABLE).shardSize, SHARD_SIZE);
            }
            await verify(db, known, unverified);
          } finally {
            await db.close();
          }
          unverified = [];
          verifications++;
        }
      }
      assert.ok(acked > 0, 'the children acknowledged no writes at all');
      assert.ok(known.batches.size > 0);
    } catch (e) {
      throw new Error(`crash test failed with CRASH_SEED=${seed}: ${(e as Error).message}`, { cause: e });
    }
    assert.ok(verifications >= 1);
    t.diagnostic(`seed ${seed}: ${acked} writes acknowledged, ${known.batches.size} batches present, ${known.absentBatches.size} started but lost, ${known.blobs.size} blobs, ${verifications} verifications`);
  });
});
