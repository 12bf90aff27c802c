// Checkpoint files with encoded columns read back bit-exactly: a table with a column of every
// type (special doubles with NaN payloads, -0, ±∞, subnormals; int64 extremes and 2^53 ± 1;
// alternating nulls; repeated timestamps) is checkpointed, reopened under the smallest budget so
// every batch is evicted and read back, and every value compared — with codecs on and off. With
// codecs on, columns are encoded (not all raw) and the table files are smaller; off, every column
// is raw.
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../../engine/durability/checkpoint/manifest.js';
import type { ColumnDef } from '../../engine/types.js';
import { canonical, doubleBits } from './checkpoint-fixture.js';
import { SPECIAL_DOUBLES } from './codecs/inputs.js';
import { prng, readRows, sortedByTs, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

const ROWS = 12_000;
const COLUMNS: ColumnDef[] = [
  { name: 'd', type: 'DOUBLE' }, { name: 'dn', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }, { name: 'in', type: 'INT64' },
  { name: 't', type: 'TIMESTAMP' }, { name: 's', type: 'STRING' }, { name: 'b', type: 'BLOB' }, { name: 'y', type: 'SYMBOL' },
  { name: 'f', type: 'BOOLEAN' },
];
const INTS = [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, 2n ** 53n - 1n, 0n, -1n];

function data() {
  const r = prng(27);
  const ts = BigInt64Array.from({ length: ROWS }, (_, k) => 1_700_000_000_000_000_000n + BigInt(Math.floor(k / 3)) * 1_000_000_000n);
  let walk = 50;
  const d = Float64Array.from({ length: ROWS }, (_, k) => (k % 5 === 0 ? SPECIAL_DOUBLES[k % SPECIAL_DOUBLES.length] : (walk = Math.round((walk + r() - 0.5) * 100) / 100)));
  const i = BigInt64Array.from({ length: ROWS }, (_, k) => (k % 4 === 0 ? INTS[k % INTS.length] : BigInt(k * 1000 + Math.floor(r() * 100))));
  const nullish = <T>(k: number, v: T): T | null => (k % 2 === 1 ? null : v);
  return {
    $timestamp: ts, d, i,
    dn: Array.from({ length: ROWS }, (_, k) => nullish(k, k % 7 === 0 ? -0 : Math.round(r() * 1e6) / 1e3)),
    in: Array.from({ length: ROWS }, (_, k) => nullish(k, BigInt(k) - 6000n)),
    t: Array.from({ length: ROWS }, (_, k) => (k % 3 === 0 ? null : ts[k] + BigInt(k % 1000))),
    s: Array.from({ length: ROWS }, (_, k) => (k % 11 === 0 ? null : `request ${k % 97} from host-${k % 13} took ${(r() * 100).toFixed(2)} ms é`)),
    b: Array.from({ length: ROWS }, (_, k) => (k % 6 === 0 ? null : Uint8Array.from({ length: k % 9 }, (_, j) => (k + j) & 255))),
    y: Array.from({ length: ROWS }, (_, k) => nullish(k, `sym-${k % 5}`)),
    // Long runs (constant bitmap blocks) but for a stretch of random values and nulls.
    f: Array.from({ length: ROWS }, (_, k) => (k > 9000 && k % 4 === 3 ? null : k > 9000 ? r() < 0.5 : Math.floor(k / 3000) % 2 === 0)),
  };
}

async function written(compression: boolean): Promise<{ dir: string; expected: Row[]; bits: string[] }> {
  const dir = await tempDir('svc-codecs-');
  const input = data();
  const db = await Database.open({ dataDir: dir, batchRows: 1000, sweepIntervalMs: 0, compression });
  await db.createTable('t', COLUMNS);
  await db.insert('t', input);
  const bits = doubleBits(db, 't', 1);
  await db.close();
  const rows: Row[] = Array.from({ length: ROWS }, (_, k) => Object.fromEntries([['$timestamp', input.$timestamp[k]], ...COLUMNS.map((c) => {
    const column = input[c.name as keyof typeof input] as ArrayLike<unknown>;
    return [c.name, column[k] ?? null];
  })]) as Row);
  return { dir, expected: sortedByTs(rows), bits };
}

describe('encoded checkpoint columns', () => {
  for (const compression of [true, false]) {
    it(`read back bit-exactly after every batch was evicted (compression ${compression ? 'on' : 'off'})`, async () => {
      const { dir, expected, bits } = await written(compression);
      const manifest = await readManifest(checkpointsDir(dir), (await listManifests(checkpointsDir(dir))).at(-1)!, (p) => new Error(p));
      const codecs = new Set(manifest.tables[0].batches.flatMap((b) => b.columns!.map(([codec]) => codec)));
      // The SYMBOL column y makes 5 series of 200 rows a batch: the batches are in series-major order.
      if (compression) for (const codec of ['float64', 'int64', 'series', 'boolean', 'bytes']) assert.ok(codecs.has(codec as never), `${codec} in ${[...codecs]}`);
      else assert.deepEqual([...codecs], ['raw']);
      assert.equal(manifest.tables[0].batches.every((b) => b.order !== undefined), compression);
      const db = await Database.open({ dataDir: dir, batchRows: 1000, sweepIntervalMs: 0, memoryLimit: 1024 * 1024 });
      try {
        assert.deepEqual(doubleBits(db, 't', 1), bits);
        assert.ok(bits.includes('7ff80000deadbeef') && bits.includes('8000000000000000') && bits.includes('fff8000000000000'));
        assert.deepEqual(canonical(readRows(db, 't')), canonical(expected));
        assert.ok(db.figures().memory.evictions > 0, JSON.stringify(db.figures().memory));
      } finally {
        await db.close();
      }
    });
  }

  it('reads back series-major batches written before and after a SYMBOL column was added, and late runs', async () => {
    const dir = await tempDir('svc-codecs-');
    const options = { dataDir: dir, batchRows: 512, sweepIntervalMs: 0 };
    let db = await Database.open(options);
    await db.createTable('m', [{ name: 'host', type: 'SYMBOL' }, { name: 'v', type: 'DOUBLE' }]);
    const rows = (from: number, n: number, withRack: boolean, shift = 0n) => {
      const out: Record<string, unknown[]> = { $timestamp: [], host: [], v: [], ...(withRack ? { rack: [] } : {}) };
      for (let k = from; k < from + n; k++) {
        out.$timestamp.push(1_700_000_000_000_000_000n + BigInt(Math.floor(k / 10)) * 10_000_000_000n - shift);
        out.host.push(`h${k % 10}`);
        out.v.push(Math.round(k * 1.7) / 100);
        if (withRack) out.rack!.push(k % 3 === 0 ? null : `r${k % 10 % 4}`);
      }
      return out;
    };
    await db.insert('m', rows(0, 3000, false));
    await db.checkpoint();
    await db.query('ALTER TABLE m ADD COLUMN rack SYMBOL');
    await db.insert('m', rows(3000, 3000, true));
    await db.insert('m', rows(0, 1000, true, 5n)); // late rows: a run
    const expected = readRows(db, 'm');
    await db.close();
    const manifest = await readManifest(checkpointsDir(dir), (await listManifests(checkpointsDir(dir))).at(-1)!, (p) => new Error(p));
    assert.ok(manifest.tables[0].batches.some((b) => b.order !== undefined));
    db = await Database.open({ ...options, memoryLimit: 1024 * 1024 });
    try {
      assert.deepEqual(canonical(readRows(db, 'm')), canonical(expected));
    } finally {
      await db.close();
    }
  });

  it('makes the table files smaller than raw ones', async () => {
    const sizes: number[] = [];
    for (const compression of [true, false]) {
      const { dir } = await written(compression);
      const names = (await readdir(checkpointsDir(dir))).filter((n) => n.endsWith('.cols'));
      let bytes = 0;
      for (const n of names) bytes += (await stat(join(checkpointsDir(dir), n))).size;
      sizes.push(bytes);
    }
    assert.ok(sizes[0] < sizes[1] * 0.6, `compressed ${sizes[0]} bytes, raw ${sizes[1]}`);
  });
});
