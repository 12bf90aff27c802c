// Seeded random tables for the differential test: nulls in every column, duplicate timestamps,
// rows inserted out of order in several inserts (so late rows rewrite sealed batches), small
// batches and shards (so ranges and buckets cut batches), some int64 values near the limits.
import type { ColumnDef } from '../../engine/types.js';
import type { QueryCatalog } from '../../engine/query/index.js';
import { insertBatch } from './fake-catalog.js';
import type { Cell, RefRow, RefTable } from './reference.js';

import type { Rng } from '../prng.js';

export { prng as rng } from '../prng.js';
export type { Rng };

export const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)];
export const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

export const BASE = 1_483_228_800_000_000_000n; // 2017-01-01
export const SPAN = 100n * 86_400_000_000_000n;
export const COLUMNS: readonly ColumnDef[] = [
  { name: 'dv', type: 'DOUBLE' }, { name: 'iv', type: 'INT64' }, { name: 'sv', type: 'STRING' },
  { name: 'sym', type: 'SYMBOL' }, { name: 'bv', type: 'BLOB' }, { name: 'tv', type: 'TIMESTAMP' },
];

const STRINGS = ['a', 'b', 'abc', 'xyz', 'A', '', 'ümlaut', 'ba'];
const SYMBOLS = ['x', 'y', 'z', 'ax'];
const BLOBS = [[], [0x61], [0x61, 0x62, 0x63], [0xff, 0x00], [0x7a]];

export function cell(r: Rng, type: ColumnDef['type']): Cell {
  if (r() < 0.15) return null;
  switch (type) {
    case 'DOUBLE': return r() < 0.9 ? int(r, -10, 10) / 2 : r() < 0.8 ? int(r, -30, 30) / 10 : NaN;
    case 'INT64': return r() < 0.95 ? BigInt(int(r, -20, 20)) : (r() < 0.5 ? -1n : 1n) * (2n ** 60n + BigInt(int(r, 0, 9)));
    case 'STRING': return pick(r, STRINGS);
    case 'SYMBOL': return pick(r, SYMBOLS);
    case 'BLOB': return Uint8Array.from(pick(r, BLOBS));
    case 'TIMESTAMP': return BASE + BigInt(int(r, 0, 1000)) * 1_000_000_000n;
    case 'BOOLEAN': throw new Error('the random tables have no BOOLEAN column (the reference model has no booleans)');
  }
}

export function timestamp(r: Rng, previous: readonly bigint[], shared: readonly bigint[]): bigint {
  if (previous.length > 0 && r() < 0.15) return pick(r, previous);
  if (shared.length > 0 && r() < 0.35) return pick(r, shared);
  const unit = pick(r, [1_000_000_000n, 60_000_000_000n, 3_600_000_000_000n, 86_400_000_000_000n / 7n]);
  const span = Number(SPAN / unit);
  return BASE + BigInt(int(r, 0, span)) * unit + (r() < 0.2 ? BigInt(int(r, 1, 999)) : 0n);
}

/**
 * Creates `name` in the catalog with random rows (`rows` of them, else 0 to 140); returns the
 * reference's view of it. A third of the rows take a time from `shared` (other tables' times), so
 * joins meet equal times.
 */
export async function randomTable(r: Rng, catalog: QueryCatalog, name: string, options: { shared?: readonly bigint[]; rows?: number } = {}): Promise<RefTable> {
  const shared = options.shared ?? [];
  const shardSize = pick(r, [3_600_000_000_000n, 86_400_000_000_000n, 7n * 86_400_000_000_000n]);
  await catalog.write([{ kind: 'createTable', name, columns: [...COLUMNS], shardSize }]);
  const n = options.rows ?? pick(r, [0, int(r, 1, 10), int(r, 10, 140)]);
  const all: { ts: bigint; values: Cell[] }[] = [];
  for (let i = 0; i < n; i++) all.push({ ts: timestamp(r, all.map((x) => x.ts), shared), values: COLUMNS.map((c) => cell(r, c.type)) });
  // Split into inserts; each insert keeps its own order (the storage sorts it stably).
  const inserted: RefRow[] = [];
  let at = 0;
  while (at < n) {
    const size = int(r, 1, Math.max(1, Math.ceil(n / int(r, 1, 4))));
    const chunk = all.slice(at, at + size);
    at += size;
    const batch: Record<string, unknown> = { $timestamp: BigInt64Array.from(chunk.map((x) => x.ts)) };
    COLUMNS.forEach((c, i) => { batch[c.name] = chunk.map((x) => x.values[i]); });
    await insertBatch(catalog, name, batch);
    const sorted = chunk.map((x, k) => ({ x, k })).sort((a, b) => (a.x.ts < b.x.ts ? -1 : a.x.ts > b.x.ts ? 1 : a.k - b.k));
    inserted.push(...sorted.map((s) => s.x));
  }
  const rows = inserted.map((x, k) => ({ x, k })).sort((a, b) => (a.x.ts < b.x.ts ? -1 : a.x.ts > b.x.ts ? 1 : a.k - b.k)).map((s) => s.x);
  return { name, columns: COLUMNS, rows };
}
