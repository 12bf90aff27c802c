// Reopen-after-close for every kind of state: blobs (content, MIME, expiry), tags (both
// directions), removals, and tables with rows of every column type including nulls, late rows
// and SYMBOL dictionaries that grow. Each scenario is replayed through a model (the expected
// state) and recovered four ways — from the checkpoint of a clean close, from the WAL alone (a
// crash copy, no checkpoint ever), from an explicit checkpoint plus the WAL after it, and with
// automatic checkpoints (small checkpointWalBytes) — then written to again and reopened once more
// (with another batchRows) so recovery composes. A last test checks that expiry survives restart.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import type { OpenOptions } from '../../engine/database.js';
import type { ColumnDef } from '../../engine/types.js';
import { ALL_TYPES, bytes, checkStats, copyAside, expectCode, nowSeconds, prng, randInt, readRows, sortedByTs, tempDir, untilSecond } from './helpers.js';
import type { Row, Value } from './helpers.js';

type ModelEntry =
  | { type: 'blob'; data: Uint8Array; mime: string; expiry: number }
  | { type: 'tag' }
  | { type: 'ts'; columns: ColumnDef[]; shardSize: bigint; rows: Row[] };

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Applies each operation to the database and to a plain model of what it must then hold. */
class Model {
  readonly entries = new Map<string, ModelEntry>();
  readonly tags = new Map<string, Set<string>>();

  async blob(db: Database, alias: string, content: Uint8Array | string, mime: string, expiry = 0): Promise<void> {
    await db.createBlob(alias, content, { expiry });
    this.entries.set(alias, { type: 'blob', data: new Uint8Array(Buffer.from(content)), mime, expiry });
  }

  async update(db: Database, alias: string, content: Uint8Array | string, mime: string): Promise<void> {
    await db.updateBlob(alias, content);
    const old = this.entries.get(alias);
    this.entries.set(alias, { type: 'blob', data: new Uint8Array(Buffer.from(content)), mime, expiry: old?.type === 'blob' ? old.expiry : 0 });
  }

  async expiry(db: Database, alias: string, expiry: number): Promise<void> {
    await db.setExpiry(alias, expiry);
    (this.entries.get(alias) as { expiry: number }).expiry = expiry;
  }

  async remove(db: Database, alias: string): Promise<void> {
    await db.remove(alias);
    this.entries.delete(alias);
    this.tags.delete(alias);
    for (const set of this.tags.values()) set.delete(alias);
  }

  async attach(db: Database, alias: string, tag: string): Promise<void> {
    assert.equal(await db.attachTag(alias, tag), 'changed');
    if (!this.entries.has(tag)) this.entries.set(tag, { type: 'tag' });
    if (!this.tags.has(alias)) this.tags.set(alias, new Set());
    this.tags.get(alias)!.add(tag);
  }

  async detach(db: Database, alias: string, tag: string): Promise<void> {
    assert.equal(await db.detachTag(alias, tag), 'changed');
    this.tags.get(alias)!.delete(tag);
  }

  async table(db: Database, name: string, columns: ColumnDef[], shardSize = 86_400_000_000_000n): Promise<void> {
    await db.createTable(name, columns, { shardSize });
    this.entries.set(name, { type: 'ts', columns, shardSize, rows: [] });
  }

  async insert(db: Database, name: string, partial: Row[], columnar: boolean): Promise<void> {
    const t = this.entries.get(name) as ModelEntry & { type: 'ts' };
    const rows = partial.map((p) => {
      const row: Row = { $timestamp: p.$timestamp };
      for (const c of t.columns) row[c.name] = p[c.name] ?? null;
      return row;
    });
    if (columnar) {
      const batch: Record<string, unknown> = { $timestamp: BigInt64Array.from(rows.map((r) => r.$timestamp as bigint)) };
      for (const c of t.columns) batch[c.name] = rows.map((r) => r[c.name]);
      await db.insert(name, batch);
    } else {
      await db.insertRows(name, partial);
    }
    t.rows.push(...rows);
  }

  /** Asserts that `db` holds exactly the model's state. */
  async check(db: Database): Promise<void> {
    assert.deepEqual(db.listAliases('', { limit: 100_000 }).aliases, [...this.entries.keys()].sort(byBytes));
    for (const [alias, e] of this.entries) {
      assert.equal(db.entryType(alias), e.type, alias);
      assert.deepEqual(db.getTags(alias, { limit: 1000 }).aliases, [...(this.tags.get(alias) ?? [])].sort(byBytes), `tags of ${alias}`);
      if (e.type === 'blob') {
        assert.deepEqual(await db.getBlob(alias), e.data, `content of ${alias}`);
        assert.deepEqual(db.describeBlob(alias), { alias, type: 'blob', size: e.data.length, mime: e.mime, expiry: e.expiry });
      } else if (e.type === 'tag') {
        const tagged = [...this.tags].filter(([, set]) => set.has(alias)).map(([a]) => a).sort(byBytes);
        assert.deepEqual(db.getTagged(alias, { limit: 1000 }).aliases, tagged, `entries tagged ${alias}`);
      } else {
        assert.deepEqual(db.describeTable(alias), { name: alias, columns: e.columns, shardSize: e.shardSize, rowCount: e.rows.length, ttl: null });
        assert.deepEqual(readRows(db, alias), sortedByTs(e.rows), `rows of ${alias}`);
        checkStats(db, alias);
      }
    }
  }
}

interface Scenario {
  readonly name: string;
  /** Writes before the (optional) explicit checkpoint, after it, and after the first reopen. */
  readonly phases: readonly [(db: Database, m: Model) => Promise<void>, (db: Database, m: Model) => Promise<void>, (db: Database, m: Model) => Promise<void>];
}

const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0);
const TEXT = 'text/plain; charset=utf-8';
const OCTET = 'application/octet-stream';

function randomBytes(seed: number, n: number): Uint8Array {
  const rand = prng(seed);
  return Uint8Array.from({ length: n }, () => randInt(rand, 0, 255));
}

/** Deterministic rows of every type with nulls sprinkled in; `symbols` is the SYMBOL alphabet. */
function rows(seed: number, n: number, tsFrom: number, tsTo: number, symbols: string[]): Row[] {
  const rand = prng(seed);
  const special: Value[] = [Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE, 1e300];
  const extreme: bigint[] = [2n ** 63n - 1n, -(2n ** 63n), 0n, -1n];
  return Array.from({ length: n }, () => {
    const nul = () => rand() < 0.2;
    return {
      $timestamp: BigInt(randInt(rand, tsFrom, tsTo)),
      d: nul() ? null : rand() < 0.1 ? special[randInt(rand, 0, special.length - 1)] : randInt(rand, -1e6, 1e6) / 8,
      i: nul() ? null : rand() < 0.1 ? extreme[randInt(rand, 0, extreme.length - 1)] : BigInt(randInt(rand, -1e9, 1e9)),
      t: nul() ? null : BigInt(randInt(rand, 0, 2 ** 52)) * 1000n,
      s: nul() ? null : rand() < 0.1 ? '' : `str ${randInt(rand, 0, 1e6)} é€😀`,
      b: nul() ? null : randomBytes(randInt(rand, 0, 1e6), randInt(rand, 0, 20)),
      y: nul() ? null : symbols[randInt(rand, 0, symbols.length - 1)],
    };
  });
}

const scenarios: Scenario[] = [
  {
    name: 'blobs',
    phases: [
      async (db, m) => {
        await m.blob(db, 'b/text', 'hello world', TEXT);
        await m.blob(db, 'b/png', PNG, 'image/png');
        await m.blob(db, 'b/bin', randomBytes(1, 1000), OCTET);
        await m.blob(db, 'b/empty', new Uint8Array(0), OCTET);
        await m.blob(db, 'b/gone', 'to be removed', TEXT);
      },
      async (db, m) => {
        await m.update(db, 'b/png', '{"replaced": true}', 'application/json');
        await m.remove(db, 'b/gone');
        await m.blob(db, 'b/big.csv', randomBytes(2, 200_000), 'text/csv');
        await m.update(db, 'b/new-by-update', 'upserted', TEXT);
      },
      async (db, m) => {
        await m.blob(db, 'b/gone', 'back again', TEXT);
        await m.update(db, 'b/text', '', OCTET);
        await m.remove(db, 'b/bin');
      },
    ],
  },
  {
    name: 'tags',
    phases: [
      async (db, m) => {
        await m.blob(db, 'x', 'x', TEXT);
        await m.blob(db, 'y', 'y', TEXT);
        await m.table(db, 'tbl', [{ name: 'v', type: 'DOUBLE' }]);
        await m.attach(db, 'x', 't1');
        await m.attach(db, 'x', 't2');
        await m.attach(db, 'y', 't1');
        await m.attach(db, 'tbl', 't1');
        await m.attach(db, 't1', 't1');
        await m.attach(db, 't2', 't1');
      },
      async (db, m) => {
        await m.detach(db, 'x', 't2');
        await m.remove(db, 'y');
        await m.attach(db, 'x', 't3');
        await m.attach(db, 't3', 't4');
        await m.remove(db, 't2');
      },
      async (db, m) => {
        await m.attach(db, 'x', 't2');
        await m.remove(db, 't1');
        await m.attach(db, 'tbl', 't3');
      },
    ],
  },
  {
    name: 'expiry',
    phases: [
      async (db, m) => {
        const far = nowSeconds() + 100_000;
        await m.blob(db, 'e/a', 'a', TEXT, far);
        await m.blob(db, 'e/b', 'b', TEXT, far + 1);
        await m.blob(db, 'e/c', 'c', TEXT);
      },
      async (db, m) => {
        await m.expiry(db, 'e/b', 0);
        await m.expiry(db, 'e/c', nowSeconds() + 50_000);
        await m.update(db, 'e/a', 'a2', TEXT);
      },
      async (db, m) => {
        await m.expiry(db, 'e/a', nowSeconds() + 200_000);
        await m.expiry(db, 'e/c', 0);
      },
    ],
  },
  {
    name: 'tables',
    phases: [
      async (db, m) => {
        await m.table(db, 'tb/all', ALL_TYPES);
        await m.insert(db, 'tb/all', rows(10, 30, 0, 1000, ['a', 'b']), true);
        await m.insert(db, 'tb/all', rows(11, 7, 500, 2000, ['b', 'c']), false);
        await m.table(db, 'tb/shards', ALL_TYPES, 1_000_000_000n); // the smallest shard size: 1s
        await m.insert(db, 'tb/shards', rows(12, 40, -5e9, 5e9, ['p', 'q', 'r']), true);
        await m.table(db, 'tb/drop', [{ name: 'v', type: 'INT64' }]);
        await m.insert(db, 'tb/drop', [{ $timestamp: 1n, v: 1n }], true);
        await m.table(db, 'tb/plain', [{ name: 'd', type: 'DOUBLE' }, { name: 'i', type: 'INT64' }]); // no SYMBOL column
        await m.insert(db, 'tb/plain', [{ $timestamp: 5n, d: 0.5, i: 5n }, { $timestamp: 3n, d: null, i: 3n }], true);
      },
      async (db, m) => {
        await m.insert(db, 'tb/all', rows(20, 25, -100, 3000, ['c', 'd']), true); // late rows and new symbols
        await m.insert(db, 'tb/shards', rows(21, 15, -1e10, 1e10, ['s', 'p']), false);
        await m.remove(db, 'tb/drop');
        await m.table(db, 'tb/empty', [{ name: 'v', type: 'SYMBOL' }]);
        await m.table(db, 'tb/drop', [{ name: 'w', type: 'STRING' }]);
        await m.insert(db, 'tb/drop', [{ $timestamp: 2n, w: 'recreated' }], true);
      },
      async (db, m) => {
        // After recovery: late rows merge into restored batches; old and new symbols mix.
        await m.insert(db, 'tb/all', rows(30, 20, -200, 4000, ['a', 'e']), true);
        await m.insert(db, 'tb/shards', rows(31, 20, -2e10, 2e10, ['t', 'q']), false);
        await m.insert(db, 'tb/empty', [{ $timestamp: 5n, v: 'first' }], false);
        // Only newer rows: restored batches stay as loaded next to a new one built here.
        await m.insert(db, 'tb/plain', [{ $timestamp: 9n, d: 9, i: null }, { $timestamp: 10n, d: 10, i: 10n }], true);
        await db.checkpoint(); // restored batches and new ones in one checkpoint
      },
    ],
  },
];

interface Mode {
  readonly name: string;
  readonly options: Partial<OpenOptions>;
  readonly checkpointBetween: boolean;
  /** Recover from a copy taken while open (a crash) instead of after a clean close. */
  readonly crash: boolean;
}

const modes: Mode[] = [
  { name: 'clean close (checkpoint)', options: {}, checkpointBetween: false, crash: false },
  { name: 'crash, WAL only', options: {}, checkpointBetween: false, crash: true },
  { name: 'crash, checkpoint + WAL', options: {}, checkpointBetween: true, crash: true },
  { name: 'automatic checkpoints, clean close', options: { checkpointWalBytes: 2_000 }, checkpointBetween: false, crash: false },
];

async function checkpointNames(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'checkpoints'))).filter((n) => /^\d{12}\.manifest$/.test(n));
}

describe('reopen', () => {
  for (const scenario of scenarios) {
    describe(scenario.name, () => {
      for (const mode of modes) {
        it(mode.name, async () => {
          const model = new Model();
          const dataDir = await tempDir();
          const db = await Database.open({ dataDir, batchRows: 4, sweepIntervalMs: 0, ...mode.options });
          await scenario.phases[0](db, model);
          if (mode.checkpointBetween) await db.checkpoint();
          await scenario.phases[1](db, model);
          await model.check(db);
          let recoverFrom = dataDir;
          if (mode.crash) {
            recoverFrom = await copyAside(dataDir);
            assert.equal((await checkpointNames(recoverFrom)).length, mode.checkpointBetween ? 1 : 0);
          } else if (mode.options.checkpointWalBytes !== undefined && scenario.name === 'tables') {
            // The first automatic checkpoint runs in the background: give it time to land.
            for (let i = 0; i < 250 && (await checkpointNames(dataDir)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
            assert.ok((await checkpointNames(dataDir)).length >= 1, 'an automatic checkpoint was taken');
          }
          await db.close();

          const recovered = await Database.open({ dataDir: recoverFrom, batchRows: 4, sweepIntervalMs: 0, ...mode.options });
          await model.check(recovered);
          await scenario.phases[2](recovered, model);
          await model.check(recovered);
          await recovered.close();

          const again = await Database.open({ dataDir: recoverFrom, batchRows: 7, sweepIntervalMs: 0 });
          await model.check(again);
          await again.close();
        });
      }
    });
  }

  it('expiry survives restart, and an expired entry stays absent after one', async () => {
    const dataDir = await tempDir();
    const log: string[] = [];
    const open = () => Database.open({ dataDir, sweepIntervalMs: 0, log: (m) => log.push(m) });
    let db = await open();
    const soon = nowSeconds() + 2;
    await db.createBlob('soon', 'x', { expiry: soon });
    await db.attachTag('soon', 'tag');
    await db.createBlob('crash-soon', 'y');
    await db.setExpiry('crash-soon', soon);
    const crashed = await copyAside(dataDir);
    await db.close();

    db = await open();
    assert.equal(db.describeBlob('soon').expiry, soon);
    await db.close();
    const fromWal = await Database.open({ dataDir: crashed, sweepIntervalMs: 0 });
    assert.equal(fromWal.describeBlob('crash-soon').expiry, soon);
    assert.equal(fromWal.describeBlob('soon').expiry, soon);

    await untilSecond(soon);
    await expectCode(() => fromWal.getBlob('crash-soon'), 'AliasNotFound');
    await fromWal.close();
    db = await open();
    await expectCode(() => db.getBlob('soon'), 'AliasNotFound');
    assert.deepEqual(db.getTagged('tag').aliases, []);
    assert.deepEqual(db.listAliases('').aliases, ['tag']);
    assert.equal(await db.sweep(), 2);
    assert.ok(log.some((m) => m.includes("expired entry 'soon' removed")));
    assert.ok(log.some((m) => m.includes("expired entry 'crash-soon' removed")));
    await db.close();
    db = await open();
    assert.equal(await db.sweep(), 0);
    assert.deepEqual(db.listAliases('').aliases, ['tag']);
    await db.close();
  });
});
