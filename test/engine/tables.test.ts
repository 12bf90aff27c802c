// Table API of the engine: create (column validation, AliasAlreadyExists, ifNotExists), drop,
// describe, columnar insert (all types, nulls, out-of-order and duplicate timestamps, late rows
// merged into sealed batches), insertRows, the scan contract and per-batch statistics, and the
// error codes ColumnNotFound / InvalidArgument / TableNotFound / IncompatibleType. Rows are read
// back through scan() + columnVector and compared with a simple oracle (stable sort by time).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { DAY_NS } from '../../engine/storage/table.js';
import type { ColumnDef } from '../../engine/types.js';
import { ALL_TYPES, bytes, checkStats, copyAside, expectCode, prng, randInt, readBatches, readRows, sortedByTs, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

/** One time unit of the random-insert test: 16 of them make the smallest shard (1 s). */
const TICK = 62_500_000n;

const NULL_ROW = { d: null, i: null, t: null, s: null, b: null, y: null };

describe('tables', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0, batchRows: 4 });
    await db.createBlob('a.blob', 'x');
    await db.attachTag('a.blob', 'a.tag');
  });
  after(() => db.close());

  describe('create, describe, drop', () => {
    it('creates a table with every column type and describes it', async () => {
      assert.equal(await db.createTable('c/all', ALL_TYPES), true);
      assert.equal(db.entryType('c/all'), 'ts');
      assert.deepEqual(db.describeTable('c/all'), { name: 'c/all', columns: ALL_TYPES, shardSize: DAY_NS, rowCount: 0, ttl: null });
      assert.deepEqual(readRows(db, 'c/all'), []);
    });

    it('keeps a custom shard size', async () => {
      await db.createTable('c/shard', [{ name: 'v', type: 'DOUBLE' }], { shardSize: 3_600_000_000_000n });
      assert.equal(db.describeTable('c/shard').shardSize, 3_600_000_000_000n);
    });

    const bad: { name: string; columns: unknown; shardSize?: unknown; alias?: string }[] = [
      { name: 'no columns', columns: [] },
      { name: 'columns not an array', columns: 'd DOUBLE' },
      { name: 'a null column', columns: [null] },
      { name: 'empty column name', columns: [{ name: '', type: 'DOUBLE' }] },
      { name: 'missing column name', columns: [{ type: 'DOUBLE' }] },
      { name: 'column named $timestamp', columns: [{ name: '$timestamp', type: 'TIMESTAMP' }] },
      { name: 'unknown type', columns: [{ name: 'v', type: 'FLOAT' }] },
      { name: 'lower-case type', columns: [{ name: 'v', type: 'double' }] },
      { name: 'duplicate column', columns: [{ name: 'v', type: 'DOUBLE' }, { name: 'v', type: 'INT64' }] },
      { name: 'zero shard size', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 0n },
      { name: 'negative shard size', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: -5n },
      { name: 'shard size as a number', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 1000 },
      { name: 'shard size of 1ns', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 1n },
      { name: 'shard size just under 1s', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 999_999_999n },
      { name: 'empty table name', columns: [{ name: 'v', type: 'DOUBLE' }], alias: '' },
      { name: 'table name over 1,024 bytes', columns: [{ name: 'v', type: 'DOUBLE' }], alias: 'n'.repeat(1025) },
    ];
    for (const c of bad) {
      it(`${c.name} → InvalidArgument, nothing created`, async () => {
        const alias = c.alias ?? 'c/bad';
        const options = c.shardSize === undefined ? {} : { shardSize: c.shardSize as bigint };
        await expectCode(() => db.createTable(alias, c.columns as ColumnDef[], options), 'InvalidArgument');
        if (alias !== '') await expectCode(() => db.entryType(alias), 'AliasNotFound');
      });
    }

    it('a used alias → AliasAlreadyExists; ifNotExists only forgives an existing table', async () => {
      await db.createTable('c/dup', [{ name: 'v', type: 'DOUBLE' }]);
      await db.insertRows('c/dup', [{ $timestamp: 1n, v: 1 }]);
      await expectCode(() => db.createTable('c/dup', [{ name: 'w', type: 'INT64' }]), 'AliasAlreadyExists', /c\/dup/);
      assert.equal(await db.createTable('c/dup', [{ name: 'w', type: 'INT64' }], { ifNotExists: true }), false);
      assert.deepEqual(db.describeTable('c/dup').columns, [{ name: 'v', type: 'DOUBLE' }]);
      assert.equal(db.describeTable('c/dup').rowCount, 1);
      for (const alias of ['a.blob', 'a.tag']) {
        await expectCode(() => db.createTable(alias, [{ name: 'v', type: 'DOUBLE' }]), 'AliasAlreadyExists');
        await expectCode(() => db.createTable(alias, [{ name: 'v', type: 'DOUBLE' }], { ifNotExists: true }), 'AliasAlreadyExists');
      }
    });

    it('drops a table with its rows; ifExists forgives a missing one', async () => {
      await db.createTable('c/drop', [{ name: 'v', type: 'DOUBLE' }]);
      await db.insertRows('c/drop', [{ $timestamp: 5n, v: 1 }]);
      assert.equal(await db.dropTable('c/drop'), true);
      await expectCode(() => db.describeTable('c/drop'), 'TableNotFound');
      await expectCode(() => db.dropTable('c/drop'), 'TableNotFound', /c\/drop/);
      assert.equal(await db.dropTable('c/drop', true), false);
      await db.createTable('c/drop', [{ name: 'v', type: 'DOUBLE' }]);
      assert.deepEqual(readRows(db, 'c/drop'), []);
    });

    it('table operations on a blob or tag → IncompatibleType; on a missing alias → TableNotFound', async () => {
      const ops: [string, (alias: string) => unknown][] = [
        ['dropTable', (a) => db.dropTable(a)],
        ['dropTable ifExists', (a) => db.dropTable(a, true)],
        ['describeTable', (a) => db.describeTable(a)],
        ['insert', (a) => db.insert(a, { $timestamp: [1n] })],
        ['insertRows', (a) => db.insertRows(a, [{ $timestamp: 1n }])],
      ];
      for (const [name, op] of ops) {
        await expectCode(() => op('a.blob'), 'IncompatibleType', undefined).catch((e) => { throw new Error(`${name}: ${e}`); });
        await expectCode(() => op('a.tag'), 'IncompatibleType');
        if (name !== 'dropTable ifExists') await expectCode(() => op('c/missing'), 'TableNotFound', /c\/missing/);
      }
      assert.equal(db.entryType('a.blob'), 'blob');
    });
  });

  describe('insert', () => {
    it('stores every type with nulls given as null entries; absent columns are null', async () => {
      await db.createTable('i/all', ALL_TYPES);
      await db.insert('i/all', {
        $timestamp: new BigInt64Array([10n, 20n, 30n]),
        d: [1.5, null, Number.NaN],
        i: [1n, null, -3],
        t: [null, 5n, new Date(1000)],
        s: ['a', null, ''],
        b: [bytes(1, 2), null, new Uint8Array(0)],
        y: ['x', 'y', null],
      });
      await db.insert('i/all', { $timestamp: [40n, 50], d: new Float64Array([4, 5]) });
      assert.deepEqual(readRows(db, 'i/all'), [
        { $timestamp: 10n, d: 1.5, i: 1n, t: null, s: 'a', b: bytes(1, 2), y: 'x' },
        { $timestamp: 20n, d: null, i: null, t: 5n, s: null, b: null, y: 'y' },
        { $timestamp: 30n, d: Number.NaN, i: -3n, t: 1_000_000_000n, s: '', b: new Uint8Array(0), y: null },
        { $timestamp: 40n, ...NULL_ROW, d: 4 },
        { $timestamp: 50n, ...NULL_ROW, d: 5 },
      ]);
      assert.equal(db.describeTable('i/all').rowCount, 5);
      checkStats(db, 'i/all');
    });

    it('the caller may reuse its arrays as soon as insert returns, before it settles: memory and WAL keep the inserted values', async () => {
      // The engine keeps no reference to typed arrays it was given: the tail copies them and the
      // WAL writes them before insert() returns its promise.
      const dataDir = await tempDir();
      const own = await Database.open({ dataDir, durability: 'fsync', sweepIntervalMs: 0, batchRows: 3 });
      await own.createTable('i/copy', [{ name: 'v', type: 'DOUBLE' }, { name: 'n', type: 'INT64' }, { name: 'b', type: 'BLOB' }, { name: 's', type: 'STRING' }]);
      const ts = new BigInt64Array([1n, 2n]);
      const v = new Float64Array([1, 2]);
      const n = new BigInt64Array([5n, 6n]);
      const blob = Buffer.from([7, 7]);
      const strings = ['p', 'q'];
      const inserted = own.insert('i/copy', { $timestamp: ts, v, n, b: [blob, new Uint8Array([8])], s: strings });
      ts[0] = 99n;
      v[0] = 99;
      n[0] = 99n;
      blob[0] = 99;
      strings[0] = 'changed';
      await inserted;
      const expected = [
        { $timestamp: 1n, v: 1, n: 5n, b: bytes(7, 7), s: 'p' },
        { $timestamp: 2n, v: 2, n: 6n, b: bytes(8), s: 'q' },
      ];
      assert.deepEqual(readRows(own, 'i/copy'), expected);
      const crashed = await copyAside(dataDir);
      await own.close();
      const recovered = await Database.open({ dataDir: crashed, sweepIntervalMs: 0 });
      assert.deepEqual(readRows(recovered, 'i/copy'), expected);
      await recovered.close();
    });

    it('an empty batch is a no-op', async () => {
      await db.createTable('i/empty', [{ name: 'v', type: 'DOUBLE' }]);
      await db.insert('i/empty', { $timestamp: new BigInt64Array(0), v: new Float64Array(0) });
      await db.insertRows('i/empty', []);
      assert.equal(db.describeTable('i/empty').rowCount, 0);
    });

    it('returns out-of-order and duplicate timestamps sorted, ties in insertion order', async () => {
      await db.createTable('i/order', [{ name: 'id', type: 'INT64' }, { name: 'y', type: 'SYMBOL' }]);
      const expected: Row[] = [];
      const batches = [[5n, 3n, 5n, 1n, 3n], [3n, 5n, 0n], [5n], [1n, 1n, 9n, 2n]];
      let id = 0;
      for (const ts of batches) {
        const ids = ts.map(() => BigInt(id++));
        const syms = ts.map((t) => `s${t}`);
        await db.insert('i/order', { $timestamp: ts, id: ids, y: syms });
        ts.forEach((t, k) => expected.push({ $timestamp: t, id: ids[k], y: syms[k] }));
        assert.deepEqual(readRows(db, 'i/order'), sortedByTs(expected));
      }
      assert.deepEqual(readRows(db, 'i/order').map((r) => r.id), [7n, 3n, 9n, 10n, 12n, 1n, 4n, 5n, 0n, 2n, 6n, 8n, 11n]);
      checkStats(db, 'i/order');
    });

    it('merges late rows into sealed batches (batchRows = 4) and keeps batches sorted and apart', async () => {
      await db.createTable('i/late', [{ name: 'id', type: 'INT64' }, { name: 's', type: 'STRING' }]);
      const expected: Row[] = [];
      let id = 0;
      const put = async (ts: bigint[]) => {
        const ids = ts.map(() => BigInt(id++));
        await db.insert('i/late', { $timestamp: ts, id: ids, s: ids.map((x) => (x % 3n === 0n ? null : `v${x}`)) });
        ts.forEach((t, k) => expected.push({ $timestamp: t, id: ids[k], s: ids[k] % 3n === 0n ? null : `v${ids[k]}` }));
        const batches = readBatches(db, 'i/late');
        for (const b of batches) assert.ok(b.rows.length <= 4, `batch of ${b.rows.length} rows`);
        assert.deepEqual(batches.flatMap((b) => b.rows), sortedByTs(expected));
      };
      await put([10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n]); // two sealed batches + a tail row
      assert.ok(readBatches(db, 'i/late').length >= 3);
      await put([15n, 15n]); // late: into the first sealed batch
      await put([40n, 80n, 5n]); // ties with sealed rows: after them
      await put([95n, 85n, 100n, 1n]); // a mix of late and tail rows
      await put([90n, 90n, 90n, 90n, 90n]); // duplicates of the newest sealed timestamp
      assert.equal(db.describeTable('i/late').rowCount, expected.length);
      checkStats(db, 'i/late');
    });

    it('random inserts across shards agree with a stable-sort oracle (seeded)', async () => {
      const seed = Date.now() % 100_000;
      const rand = prng(seed);
      await db.createTable('i/random', [{ name: 'id', type: 'INT64' }, { name: 'v', type: 'DOUBLE' }, { name: 'y', type: 'SYMBOL' }], { shardSize: 16n * TICK });
      const expected: Row[] = [];
      let id = 0;
      try {
        for (let round = 0; round < 60; round++) {
          const n = randInt(rand, 1, 9);
          const rows: Row[] = [];
          for (let k = 0; k < n; k++) {
            const v = rand() < 0.2 ? null : randInt(rand, -50, 50) / 4;
            const y = rand() < 0.2 ? null : `sym${randInt(rand, 0, 5)}`;
            rows.push({ $timestamp: BigInt(randInt(rand, -20, 80)) * TICK, id: BigInt(id++), v, y });
          }
          if (rand() < 0.5) await db.insertRows('i/random', rows);
          else await db.insert('i/random', { $timestamp: rows.map((r) => r.$timestamp), id: rows.map((r) => r.id), v: rows.map((r) => r.v), y: rows.map((r) => r.y) });
          expected.push(...rows);
          if (round % 10 === 9) assert.deepEqual(readRows(db, 'i/random'), sortedByTs(expected));
        }
        assert.deepEqual(readRows(db, 'i/random'), sortedByTs(expected));
        for (const b of readBatches(db, 'i/random')) assert.ok(b.rows.length <= 4);
        checkStats(db, 'i/random');
        // A range scan returns every batch overlapping [from, to), so its rows include the range.
        for (const [from, to] of [[-20n, 0n], [3n, 17n], [16n, 32n], [70n, 200n], [5n, 5n]].map(([f, t]) => [f * TICK, t * TICK])) {
          const inRange = (r: Row) => (r.$timestamp as bigint) >= from && (r.$timestamp as bigint) < to;
          const got = readBatches(db, 'i/random', from, to);
          for (const b of got) assert.ok(b.view.maxTs >= from && b.view.minTs < to);
          assert.deepEqual(got.flatMap((b) => b.rows).filter(inRange), sortedByTs(expected).filter(inRange));
        }
      } catch (e) {
        throw new Error(`random inserts failed with seed ${seed}: ${(e as Error).message}`, { cause: e });
      }
    });
  });

  describe('insertRows', () => {
    before(() => db.createTable('r/rows', ALL_TYPES));

    it('inserts row objects; Date timestamps become ns; missing and undefined values are null', async () => {
      await db.insertRows('r/rows', [
        { $timestamp: new Date(2000), d: 1, s: 'one', y: 'a' },
        { $timestamp: 1_000n, i: 7n, b: bytes(3), t: undefined },
        { $timestamp: 1_500, d: null, y: 'b' },
      ]);
      assert.deepEqual(readRows(db, 'r/rows'), [
        { $timestamp: 1_000n, ...NULL_ROW, i: 7n, b: bytes(3) },
        { $timestamp: 1_500n, ...NULL_ROW, y: 'b' },
        { $timestamp: 2_000_000_000n, ...NULL_ROW, d: 1, s: 'one', y: 'a' },
      ]);
    });

    it('an unknown column → ColumnNotFound, nothing inserted', async () => {
      const before = db.describeTable('r/rows').rowCount;
      await expectCode(() => db.insertRows('r/rows', [{ $timestamp: 1n, d: 1 }, { $timestamp: 2n, nope: 1 }]), 'ColumnNotFound', /nope/);
      assert.equal(db.describeTable('r/rows').rowCount, before);
    });

    it('a bad value → InvalidArgument, nothing inserted', async () => {
      const before = db.describeTable('r/rows').rowCount;
      await expectCode(() => db.insertRows('r/rows', [{ $timestamp: 1n, d: 1 }, { $timestamp: 2n, d: 'x' }]), 'InvalidArgument');
      await expectCode(() => db.insertRows('r/rows', [{ d: 1 }]), 'InvalidArgument');
      assert.equal(db.describeTable('r/rows').rowCount, before);
    });
  });

  describe('insert validation', () => {
    before(() => db.createTable('v/t', ALL_TYPES));

    const bad: { name: string; batch: unknown; code?: 'ColumnNotFound' }[] = [
      { name: 'batch is null', batch: null },
      { name: 'batch is a string', batch: 'rows' },
      { name: 'no $timestamp', batch: { d: [1] } },
      { name: '$timestamp with a null', batch: { $timestamp: [1n, null] } },
      { name: '$timestamp not an array', batch: { $timestamp: 5n } },
      { name: '$timestamp as a Float64Array of fractions', batch: { $timestamp: new Float64Array([1.5]) } },
      { name: '$timestamp out of int64 range', batch: { $timestamp: [2n ** 63n] } },
      { name: 'column length differs from $timestamp', batch: { $timestamp: [1n, 2n], d: [1] } },
      { name: 'typed column length differs', batch: { $timestamp: [1n], i: new BigInt64Array(2) } },
      { name: 'string in a DOUBLE column', batch: { $timestamp: [1n], d: ['1'] } },
      { name: 'fraction in an INT64 column', batch: { $timestamp: [1n], i: [1.5] } },
      { name: 'unsafe integer in an INT64 column', batch: { $timestamp: [1n], i: [2 ** 60] } },
      { name: 'bigint beyond int64 in an INT64 column', batch: { $timestamp: [1n], i: [-(2n ** 63n) - 1n] } },
      { name: 'string in a TIMESTAMP column', batch: { $timestamp: [1n], t: ['2024-01-01'] } },
      { name: 'number in a STRING column', batch: { $timestamp: [1n], s: [1] } },
      { name: 'number in a SYMBOL column', batch: { $timestamp: [1n], y: [1] } },
      { name: 'string in a BLOB column', batch: { $timestamp: [1n], b: ['bytes'] } },
      { name: 'column not an array', batch: { $timestamp: [1n], d: 1 } },
      { name: 'column as a DataView', batch: { $timestamp: [1n], d: new DataView(new ArrayBuffer(8)) } },
      { name: 'unknown column', batch: { $timestamp: [1n], nope: [1] }, code: 'ColumnNotFound' },
    ];
    for (const c of bad) {
      it(`${c.name} → ${c.code ?? 'InvalidArgument'}, nothing inserted`, async () => {
        await expectCode(() => db.insert('v/t', c.batch as never), c.code ?? 'InvalidArgument');
        assert.equal(db.describeTable('v/t').rowCount, 0);
      });
    }

    it('accepts the documented input forms', async () => {
      await db.insert('v/t', {
        $timestamp: [1, 2n], d: [1n, 2], i: new BigInt64Array([3n, 4n]), t: [new Date(0), 7], s: ['a', undefined], y: new Array(2).fill('z'),
      });
      assert.deepEqual(readRows(db, 'v/t'), [
        { $timestamp: 1n, ...NULL_ROW, d: 1, i: 3n, t: 0n, s: 'a', y: 'z' },
        { $timestamp: 2n, ...NULL_ROW, d: 2, i: 4n, t: 7n, y: 'z' },
      ]);
    });
  });
});
