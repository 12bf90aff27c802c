// Arrival orders of the bench series for the out-of-order cases: fully shuffled, shuffled within
// each hour (hours arrive in order, rows within an hour in any order), and 1 % of the rows
// arriving late by up to a day. Each is a permutation of the same rows, so a case fed one order
// stores exactly what the sorted case stores. Seeded: every run sees the same order.
import { sortPermutation } from '../engine/storage/sort-permutation.js';
import { prng } from '../test/prng.js';
import { DAY_NS } from './data.js';
import type { Series } from './data.js';

export type ArrivalOrder = 'sorted' | 'shuffled' | 'within-hour' | 'late-1%';

const HOUR = 3_600_000_000_000;
const DAY = Number(DAY_NS);

/** `series` with its rows in `order` (the sorted order is the series itself). */
export function arrive(series: Series, order: ArrivalOrder, seed = 7): Series {
  if (order === 'sorted') return series;
  const random = prng(seed);
  const n = series.rows;
  let perm: Uint32Array;
  if (order === 'shuffled') {
    perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) perm[i] = i;
    for (let i = n - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); const t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
  } else {
    // Arrival time per row, then rows in arrival order (a stable sort: ties keep series order).
    const arrival = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const ts = series.ts[i];
      if (order === 'within-hour') arrival[i] = ts - (ts % BigInt(HOUR)) + BigInt(Math.floor(random() * HOUR));
      else arrival[i] = random() < 0.01 ? ts + BigInt(Math.floor(random() * DAY)) : ts;
    }
    perm = sortPermutation(arrival) ?? Uint32Array.from({ length: n }, (_, i) => i);
  }
  const ts = new BigInt64Array(n);
  for (let i = 0; i < n; i++) ts[i] = series.ts[perm[i]];
  const columns: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(series.columns)) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = values[perm[i]];
    columns[name] = out;
  }
  return { rows: n, ts, columns };
}
