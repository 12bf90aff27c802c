// The stable time sort behind inserts, tails and compaction: every shape of input (sorted, a few
// late rows, shuffled, clustered, the int64 extremes, many ties) against a naive stable sort.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sortPermutation } from '../../engine/storage/sort-permutation.js';
import { prng } from './helpers.js';

type Rng = () => number;
const big = (r: Rng, bits: number): bigint => BigInt(Math.floor(r() * 2 ** Math.min(bits, 52))) << BigInt(Math.max(0, bits - 52));
const SHAPES: [string, (r: Rng, i: number) => bigint][] = [
  ['few distinct values (ties everywhere)', (r) => BigInt(Math.floor(r() * 10) - 5)],
  ['a year of nanoseconds', (r) => 1_609_459_200_000_000_000n + big(r, 55)],
  ['sorted with 5 % late rows', (r, i) => BigInt(i * 10) - (r() < 0.05 ? BigInt(Math.floor(r() * 500)) : 0n)],
  ['sorted with 30 % late rows', (r, i) => BigInt(i) - (r() < 0.3 ? 1000n : 0n)],
  ['clustered: most rows within 100 ns, a few far away', (r) => (r() < 0.9 ? 5_000_000n + BigInt(Math.floor(r() * 100)) : big(r, 40))],
  ['int64 extremes and negatives', (r) => [-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 1n][Math.floor(r() * 5)]],
  ['full 64-bit range', (r) => BigInt.asIntN(64, big(r, 64) ^ big(r, 30))],
  ['shuffled within blocks of 1,000 rows (a stream shuffled within hours)', (r, i) => BigInt(Math.floor(i / 1000) * 1e9 + Math.floor(r() * 1e9))],
];

it('sorts timestamps stably whatever their order', () => {
  for (const [name, make] of SHAPES) {
    for (const n of [1, 2, 17, 300, 5000]) {
      const r = prng(n * 31 + name.length);
      const ts = new BigInt64Array(n);
      for (let i = 0; i < n; i++) ts[i] = make(r, i);
      const perm = sortPermutation(ts);
      const got = perm === null ? [...ts.keys()] : [...perm];
      const expected = [...ts.keys()].sort((a, b) => (ts[a] < ts[b] ? -1 : ts[a] > ts[b] ? 1 : a - b));
      assert.deepEqual(got, expected, `${name}, ${n} rows`);
      if (perm === null) assert.ok(ts.every((t, i) => i === 0 || ts[i - 1] <= t), `${name}: null for unsorted rows`);
      // With an array to write into (a tail merge's scratch, holding an earlier sort's order).
      const into = sortPermutation(ts, new Uint32Array(n).fill(n - 1));
      assert.deepEqual(into === null ? [...ts.keys()] : [...into], expected, `${name}, ${n} rows, into an array`);
    }
  }
});
