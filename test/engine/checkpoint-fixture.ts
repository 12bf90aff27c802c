// A small data directory written by the checkpoint format of manifest version 5 (uncompressed
// Arrow IPC files), kept in test/fixtures/checkpoint-v5 so that every later format is tested
// against data an earlier svc wrote: it must open, answer the same, and be rewritten in the new
// format by the next checkpoint (checkpoint-fixture.test.ts).
//
// What it holds: a table with a column of every type (special doubles with a NaN payload, -0,
// ±∞, subnormals; int64 extremes; nulls in every column), batches of 8 rows over two shards, a
// column added after some batches were written, late rows kept as runs (compaction stopped), a
// SYMBOL dictionary that grew between the two checkpoints (the first one's file is kept by the
// second), a second table with a tag, a blob with an expiry and tags — and a WAL tail after
// the second checkpoint (rows, a blob, a tag) that open must replay.
//
// Regenerate (only with the code of the format it is named after: commit 7a59dac, which added it):
//   npm run build && node dist/test/engine/checkpoint-fixture.js
// which writes the directory (without LOCK) and `answers.json`, what that code answered.
// Written again by this script under f56f27c (the last svc released before format 6), the
// directory and the answers came out byte for byte the same: it is what the previous release writes.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database, catalogOf } from '../../engine/database.js';
import { prng } from '../prng.js';
import { isValid } from '../../engine/types.js';
import { readRows, scanOf, sortedByTs } from './helpers.js';
import type { Row } from './helpers.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../../../test/fixtures/checkpoint-v5/', import.meta.url));
export const BATCH_ROWS = 8;
const DAY = 86_400_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;

/** Doubles whose bits must survive: a NaN with a payload, -0, ±∞, the smallest subnormals, 2^53 ± 1. */
const NAN_PAYLOAD = new Float64Array(new BigUint64Array([0x7ff8_0000_dead_beefn]).buffer)[0];
const SPECIAL_DOUBLES = [NAN_PAYLOAD, -0, Infinity, -Infinity, 5e-324, -5e-324, 2.2250738585072014e-308, 2 ** 53 + 2, 2 ** 53 - 1, 0.1, 1e308];
const SPECIAL_INTS = [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, 2n ** 53n - 1n, -1n, 0n];

/** Rows of the main table, phase by phase (`late` rows are older than sealed ones). */
function sensorRows(phase: 'first' | 'late' | 'tail', from: number, count: number, seed: number, withExtra: boolean): Row[] {
  const rand = prng(seed);
  const rows: Row[] = [];
  for (let k = 0; k < count; k++) {
    const i = from + k;
    const ts = phase === 'late' ? T0 + BigInt(i) * 1_000_000_000n - 7n * 3_600_000_000_000n : T0 + BigInt(i) * 3_600_000_000_000n;
    const isNull = (p: number) => rand() < p;
    const row: Row = {
      $timestamp: ts,
      v: isNull(0.15) ? null : i < SPECIAL_DOUBLES.length ? SPECIAL_DOUBLES[i] : Math.round(rand() * 10_000) / 100,
      n: isNull(0.15) ? null : i < SPECIAL_INTS.length ? SPECIAL_INTS[i] : BigInt(Math.floor(rand() * 1e6)) - 500_000n,
      at: isNull(0.2) ? null : ts + BigInt(Math.floor(rand() * 1e9)),
      s: isNull(0.2) ? null : `s-${phase}-${i}-${'é'.repeat(i % 3)}`,
      b: isNull(0.3) ? null : Uint8Array.from({ length: i % 5 }, (_, j) => (i * 7 + j) & 255),
      sym: isNull(0.1) ? null : `${phase === 'first' ? 'dev' : 'node'}-${Math.floor(rand() * (phase === 'first' ? 4 : 9))}`,
      ok: isNull(0.2) ? null : rand() < 0.5,
    };
    if (withExtra) {
      row.extra = isNull(0.3) ? null : i * 0.25;
      row.site = isNull(0.3) ? null : `site-${i % 3}`;
    }
    rows.push(row);
  }
  return rows;
}

const SENSOR_COLUMNS = [
  { name: 'v', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }, { name: 'at', type: 'TIMESTAMP' }, { name: 's', type: 'STRING' },
  { name: 'b', type: 'BLOB' }, { name: 'sym', type: 'SYMBOL' }, { name: 'ok', type: 'BOOLEAN' },
] as const;

/** Every insert of the fixture, in order, with what happened between them. */
export const FIXTURE = {
  first: sensorRows('first', 0, 44, 1, false),
  late: sensorRows('late', 0, 11, 2, true),
  more: sensorRows('first', 44, 13, 3, true),
  tail: sensorRows('tail', 57, 5, 4, true),
  other: Array.from({ length: 20 }, (_, i) => ({ $timestamp: T0 + BigInt(i) * DAY / 10n, k: BigInt(i * i) })),
  blob: new TextEncoder().encode('{"fixture":"checkpoint-v5","n":1}'),
  tailBlob: Uint8Array.from({ length: 300 }, (_, i) => (i * 31) & 255),
};

/** Writes the fixture's data directory at `dir` (must be empty); leaves the WAL tail unreplayed in it. */
export async function writeFixture(dir: string): Promise<void> {
  const db = await Database.open({ dataDir: dir, batchRows: BATCH_ROWS, sweepIntervalMs: 0 });
  await db.createTable('fx.sensors', [...SENSOR_COLUMNS]);
  await db.createTable('fx.other', [{ name: 'k', type: 'INT64' }]);
  await db.attachTag('fx.other', 'fleet');
  await db.insertRows('fx.sensors', FIXTURE.first);
  await db.insertRows('fx.other', FIXTURE.other);
  await db.createBlob('fx/blob', FIXTURE.blob, { expiry: 4_000_000_000 });
  await db.attachTag('fx/blob', 'fx');
  await db.checkpoint();
  // Late rows stay runs beside the sealed batches: compaction would merge them.
  catalogOf(db).table('fx.sensors')!.stopCompaction();
  await db.query('ALTER TABLE fx.sensors ADD COLUMN extra DOUBLE, site SYMBOL');
  await db.insertRows('fx.sensors', FIXTURE.late);
  await db.insertRows('fx.sensors', FIXTURE.more);
  await db.checkpoint();
  // The WAL tail: logged (fsynced) after the last checkpoint, replayed on open.
  await db.insertRows('fx.sensors', FIXTURE.tail);
  await db.createBlob('fx/tail-blob', FIXTURE.tailBlob);
  await db.attachTag('fx.sensors', 'fx');
  const copy = await mkdtemp(join(tmpdir(), 'svc-fixture-'));
  await cp(dir, copy, { recursive: true });
  await db.close();
  await rm(dir, { recursive: true, force: true });
  await cp(copy, dir, { recursive: true });
  await rm(copy, { recursive: true, force: true });
  await rm(join(dir, 'LOCK'), { force: true });
}

/**
 * A value as a JSON-safe string: bigints with `n`, doubles by their bits (-0 apart from 0), bytes
 * in hex. A NaN is only 'NaN' here: V8 may drop a NaN's payload once it is a JS number, so NaN
 * payloads are compared through the stored bits (doubleBits), never through numbers.
 */
function canonical(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : `f:${Buffer.from(new Float64Array([v]).buffer).toString('hex')}`;
  if (v instanceof Uint8Array) return `x:${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return v.map(canonical);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>, canonical);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canonical(x)]));
  throw new Error(`no canonical form for ${String(v)}`);
}

const QUERIES = [
  'SELECT count(v), sum(v), min(v), max(v), first(v), last(v) FROM fx.sensors',
  'SELECT count(n), sum(n), min(n), max(n), min(at), max(at) FROM fx.sensors GROUP BY 1d',
  'SELECT count(*), avg(extra) FROM fx.sensors WHERE sym = \'dev-1\' OR site = \'site-2\'',
  'SELECT $timestamp, v, s, sym, ok FROM fx.sensors WHERE ok = true',
  'SELECT sum(k) FROM find(tag=\'fleet\')',
];

/**
 * What a database answers about the fixture: every entry, every table's rows (doubles by their
 * bits, so a NaN payload or -0 that changed shows), a double column's raw bits as stored, and
 * some queries (statistics-answered and scanning ones).
 */
export async function fixtureAnswers(db: Database): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const alias of db.listAliases('').aliases) {
    const type = db.entryType(alias);
    const tags = db.getTags(alias).aliases;
    if (type === 'blob') out[alias] = { ...db.describeBlob(alias), data: await db.getBlob(alias), tags };
    else if (type === 'ts') {
      // The fields format 5 had: a table written then has no TTL.
      const { name, columns, shardSize, rowCount } = db.describeTable(alias);
      out[alias] = { name, columns, shardSize, rowCount, rows: readRows(db, alias), tags };
    }
    else out[alias] = { type, tagged: db.getTagged(alias).aliases };
  }
  const queries: Record<string, unknown> = {};
  for (const q of QUERIES) queries[q] = (await db.query(q)).tables.map((t) => ({ ...t }));
  return { ...canonical({ entries: out, queries }) as object, bits: { v: doubleBits(db, 'fx.sensors', 1), extra: doubleBits(db, 'fx.sensors', 8) } };
}

/** The bits of every non-null value of DOUBLE column `index` of `table`, in scan order, read from the column's array. */
export function doubleBits(db: Database, table: string, index: number): string[] {
  const out: string[] = [];
  for (const view of scanOf(db, table)) {
    view.loadSync([index]);
    try {
      const data = view.column(index);
      const values = data.values as Float64Array;
      const bits = new BigUint64Array(values.buffer, values.byteOffset, view.rowCount);
      for (let r = 0; r < view.rowCount; r++) if (isValid(data.nullCount > 0 ? data.nullBitmap ?? null : null, r)) out.push(bits[r].toString(16));
    } finally {
      view.unpin([index]);
    }
  }
  return out;
}

/** The rows a read of fx.sensors must give: every insert, by timestamp (ties in insertion order), later columns null before them. */
export function expectedSensorRows(): Row[] {
  return sortedByTs([...FIXTURE.first, ...FIXTURE.late, ...FIXTURE.more, ...FIXTURE.tail].map((r) => ({ extra: null, site: null, ...r })));
}

export { canonical };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await rm(FIXTURE_DIR, { recursive: true, force: true });
  await writeFixture(FIXTURE_DIR);
  const copy = await mkdtemp(join(tmpdir(), 'svc-fixture-answers-'));
  await cp(FIXTURE_DIR, copy, { recursive: true });
  const opened = await Database.open({ dataDir: copy, batchRows: BATCH_ROWS, sweepIntervalMs: 0 });
  const answers = await fixtureAnswers(opened);
  await opened.close();
  await rm(copy, { recursive: true, force: true });
  await writeFile(join(FIXTURE_DIR, '..', 'checkpoint-v5-answers.json'), `${JSON.stringify(answers, null, 1)}\n`);
  console.log(`wrote ${FIXTURE_DIR} and its answers`);
}
