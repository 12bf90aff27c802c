// int64 batch statistics (read through 32-bit halves, no BigInt per row) equal a plain BigInt
// reference: count, nulls, min/max and their rows (earliest on ties), first/last rows and the
// exact sum — over random values, nulls, ties, INT64_MIN/MAX and sums past 2^64.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { columnStats } from '../../engine/storage/batch-stats.js';
import { prng } from '../prng.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

function reference(values: BigInt64Array, nulls: Uint8Array | null): Record<string, unknown> {
  let count = 0, sum = 0n, min: bigint | null = null, max: bigint | null = null, minRow = -1, maxRow = -1, firstRow = -1, lastRow = -1;
  values.forEach((v, i) => {
    if (nulls?.[i] === 1) return;
    count++;
    sum += v;
    if (firstRow < 0) firstRow = i;
    lastRow = i;
    if (min === null || v < min) { min = v; minRow = i; }
    if (max === null || v > max) { max = v; maxRow = i; }
  });
  return { count, nullCount: values.length - count, min, max, minRow, maxRow, sum, firstRow, lastRow };
}

it('int64 statistics equal a BigInt reference', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const rand = prng(seed);
    const n = Math.floor(rand() * 300);
    const pick = (): bigint => {
      const x = rand();
      if (x < 0.1) return MIN;
      if (x < 0.2) return MAX;
      if (x < 0.4) return BigInt(Math.floor(rand() * 7) - 3); // ties, and values across zero
      return BigInt.asIntN(64, (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32)));
    };
    const values = BigInt64Array.from({ length: n }, pick);
    const nulls = rand() < 0.5 ? null : Uint8Array.from({ length: n }, () => (rand() < 0.3 ? 1 : 0));
    const ts = BigInt64Array.from({ length: n }, (_, i) => BigInt(i));
    const s = columnStats({ type: 'INT64', values, nulls }, ts);
    const { count, nullCount, min, max, minRow, maxRow, sum, firstRow, lastRow } = s;
    assert.deepEqual({ count, nullCount, min, max, minRow, maxRow, sum, firstRow, lastRow }, reference(values, nulls), `seed ${seed}`);
  }
});

it('the sum stays exact over more rows than one block of halves', () => {
  const n = (1 << 20) * 2 + 5;
  const values = new BigInt64Array(n).fill(MAX);
  const s = columnStats({ type: 'INT64', values, nulls: null }, new BigInt64Array(n));
  assert.equal(s.sum, MAX * BigInt(n));
});
