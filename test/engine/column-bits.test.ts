// 64-bit values keep every bit through the paths that move them as float64s (column-values.ts
// bits64): an INT64 column whose values are NaN bit patterns, and doubles with NaN payloads, are
// inserted in each arrival order (one row at a time, sorted, fully shuffled over many shards so
// the scatter runs, shuffled within a shard so the sort permutes them) and read back bit-exact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { columnVector } from '../../engine/storage/column-vector.js';
import { MAX_TS, MIN_TS, prng, scanOf, tempDir } from './helpers.js';

const DAY = 86_400_000_000_000n;
const BASE = 1_600_000_000_000_000_000n;
/** Bit patterns a float64 could mistreat: quiet and signalling NaNs of both signs, payloads, -0, ±Infinity. */
const SPECIAL = [0x7ff0000000000001n, 0x7ff8000000000000n, 0x7fffffffffffffffn, -1n, -0x8000000000000000n, 0x7ff4000000000123n, -0x7ffffffffffffn, 0x7ff0000000000000n, -0x10000000000000n];

function makeRows(n: number, seed: number): { ts: BigInt64Array; i: BigInt64Array; d: Float64Array } {
  const r = prng(seed);
  const ts = new BigInt64Array(n);
  const i = new BigInt64Array(n);
  for (let k = 0; k < n; k++) {
    ts[k] = BASE + BigInt(Math.floor(r() * 40)) * DAY + BigInt(Math.floor(r() * 86_400)) * 1_000_000_000n + BigInt(k);
    i[k] = k < SPECIAL.length * 8 ? SPECIAL[k % SPECIAL.length] + BigInt(k >> 4) : BigInt.asIntN(64, (0x7ffn << 52n) | BigInt(Math.floor(r() * 2 ** 52)));
  }
  // The same bit patterns seen as doubles: NaNs with payloads.
  const d = new Float64Array(i.slice().buffer);
  return { ts, i, d };
}

const ORDERS: [string, (n: number, r: () => number) => Uint32Array][] = [
  ['sorted', (n) => Uint32Array.from({ length: n }, (_, k) => k)],
  ['fully shuffled', (n, r) => shuffle(Uint32Array.from({ length: n }, (_, k) => k), r)],
];

function shuffle(a: Uint32Array, r: () => number): Uint32Array {
  for (let k = a.length - 1; k > 0; k--) { const j = Math.floor(r() * (k + 1)); const t = a[k]; a[k] = a[j]; a[j] = t; }
  return a;
}

describe('64-bit values moved as float64 bits', () => {
  for (const [name, order] of ORDERS) {
    for (const batch of [1, 7, 5000]) {
      it(`${name}, inserts of ${batch} rows: every bit comes back`, async () => {
        const n = 6000;
        const rows = makeRows(n, 3);
        // Sorted by time, the expected order (timestamps are unique).
        const byTime = Uint32Array.from({ length: n }, (_, k) => k).sort((a, b) => (rows.ts[a] < rows.ts[b] ? -1 : 1));
        const perm = order(n, prng(5));
        const db = await Database.open({ dataDir: await tempDir(), durability: 'none', batchRows: 1024, sweepIntervalMs: 0 });
        try {
          await db.createTable('t', [{ name: 'i', type: 'INT64' }, { name: 'd', type: 'DOUBLE' }]);
          for (let at = 0; at < n; at += batch) {
            const p = perm.subarray(at, Math.min(n, at + batch));
            await db.insert('t', {
              $timestamp: BigInt64Array.from(p, (k) => rows.ts[k]),
              i: BigInt64Array.from(p, (k) => rows.i[k]),
              d: Float64Array.from(p, (k) => rows.d[k]),
            });
          }
          const gotI: bigint[] = [];
          const gotD: bigint[] = [];
          for (const view of scanOf(db, 't', MIN_TS, MAX_TS)) {
            view.loadSync(view.allColumns);
            const i = (columnVector(view, 1, 'INT64') as { values: BigInt64Array }).values;
            const d = (columnVector(view, 2, 'DOUBLE') as { values: Float64Array }).values;
            gotI.push(...i.subarray(0, view.rowCount));
            gotD.push(...new BigInt64Array(d.buffer, d.byteOffset, view.rowCount));
          }
          assert.deepEqual(gotI, Array.from(byTime, (k) => rows.i[k]));
          assert.deepEqual(gotD, Array.from(byTime, (k) => rows.i[k]));
        } finally {
          await db.close();
        }
      });
    }
  }
});
