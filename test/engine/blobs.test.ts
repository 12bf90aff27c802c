// Blob API of the engine: create (AliasAlreadyExists), update (upsert, IncompatibleType on
// non-blobs), read, describe (size, MIME detection, expiry), alias validation, findBlobs paging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { bytes, expectCode, tempDir } from './helpers.js';

const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0);
const BINARY = bytes(0, 1, 2, 3, 255, 254);

describe('blobs', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0 });
    await db.createTable('a.table', [{ name: 'v', type: 'DOUBLE' }]);
    await db.attachTag('a.table', 'a.tag');
  });
  after(() => db.close());

  it('creates, reads and describes a blob', async () => {
    await db.createBlob('b/one', bytes(1, 2, 3));
    assert.deepEqual(await db.getBlob('b/one'), bytes(1, 2, 3));
    assert.equal(db.entryType('b/one'), 'blob');
    const d = db.describeBlob('b/one');
    assert.deepEqual(d, { alias: 'b/one', type: 'blob', size: 3, mime: 'application/octet-stream', expiry: 0 });
  });

  it('stores strings as UTF-8', async () => {
    await db.createBlob('b/utf8', 'héllo €');
    assert.deepEqual(await db.getBlob('b/utf8'), new Uint8Array(Buffer.from('héllo €', 'utf8')));
    assert.equal(db.describeBlob('b/utf8').size, Buffer.byteLength('héllo €'));
  });

  it('copies the caller\'s bytes: later changes to the input do not leak in', async () => {
    const input = bytes(9, 9, 9);
    await db.createBlob('b/copy', input);
    input[0] = 0;
    assert.deepEqual(await db.getBlob('b/copy'), bytes(9, 9, 9));
    const buffer = Buffer.from([4, 5, 6]);
    await db.createBlob('b/copy-buffer', buffer);
    await db.updateBlob('b/copy-buffer2', buffer);
    buffer[0] = 0;
    assert.deepEqual(await db.getBlob('b/copy-buffer'), bytes(4, 5, 6));
    assert.deepEqual(await db.getBlob('b/copy-buffer2'), bytes(4, 5, 6));
  });

  it('fails with AliasAlreadyExists when the alias is in use, whatever its type', async () => {
    await db.createBlob('b/dup', 'first');
    for (const alias of ['b/dup', 'a.table', 'a.tag']) {
      await expectCode(() => db.createBlob(alias, 'second'), 'AliasAlreadyExists', new RegExp(alias.replace('.', '\\.')));
    }
    assert.equal(Buffer.from(await db.getBlob('b/dup')).toString(), 'first');
    assert.equal(db.entryType('a.table'), 'ts');
    assert.equal(db.entryType('a.tag'), 'tag');
  });

  it('update replaces the content, or creates the blob when absent (upsert)', async () => {
    await db.updateBlob('b/upsert', 'created');
    assert.equal(Buffer.from(await db.getBlob('b/upsert')).toString(), 'created');
    await db.updateBlob('b/upsert', '{"now":"json"}');
    assert.equal(Buffer.from(await db.getBlob('b/upsert')).toString(), '{"now":"json"}');
    assert.equal(db.describeBlob('b/upsert').mime, 'application/json');
  });

  it('update keeps the expiry unless a new one is given', async () => {
    const later = Math.floor(Date.now() / 1000) + 3600;
    await db.createBlob('b/exp', 'x', { expiry: later });
    await db.updateBlob('b/exp', 'y');
    assert.equal(db.describeBlob('b/exp').expiry, later);
    await db.updateBlob('b/exp', 'z', { expiry: 0 });
    assert.equal(db.describeBlob('b/exp').expiry, 0);
    await expectCode(() => db.updateBlob('b/exp', 'w', { expiry: 1 }), 'ExpiryInPast');
    assert.equal(Buffer.from(await db.getBlob('b/exp')).toString(), 'z');
  });

  it('update of a tag or a table fails with IncompatibleType and changes nothing', async () => {
    await expectCode(() => db.updateBlob('a.tag', 'x'), 'IncompatibleType', /a tag/);
    await expectCode(() => db.updateBlob('a.table', 'x'), 'IncompatibleType', /a table/);
    assert.equal(db.entryType('a.tag'), 'tag');
    assert.equal(db.entryType('a.table'), 'ts');
  });

  it('read/describe of a missing alias is AliasNotFound, of a non-blob IncompatibleType', async () => {
    await expectCode(() => db.getBlob('missing'), 'AliasNotFound', /missing/);
    await expectCode(() => db.describeBlob('missing'), 'AliasNotFound');
    await expectCode(() => db.entryType('missing'), 'AliasNotFound');
    await expectCode(() => db.getBlob('a.tag'), 'IncompatibleType');
    await expectCode(() => db.describeBlob('a.table'), 'IncompatibleType');
  });

  describe('MIME detection', () => {
    const cases: { name: string; alias: string; content: Uint8Array | string; mime: string }[] = [
      { name: 'PNG magic bytes', alias: 'mime/pic', content: PNG, mime: 'image/png' },
      { name: 'magic beats a wrong extension', alias: 'mime/pic.txt', content: PNG, mime: 'image/png' },
      { name: 'JSON object', alias: 'mime/j1', content: '{"a": [1, 2, {"b": null}]}', mime: 'application/json' },
      { name: 'JSON array with whitespace', alias: 'mime/j2', content: '  [1, 2, 3]\n', mime: 'application/json' },
      { name: 'plain text', alias: 'mime/t', content: 'just some words\nand a line', mime: 'text/plain; charset=utf-8' },
      { name: 'text that only looks like JSON', alias: 'mime/t2', content: '{not json', mime: 'text/plain; charset=utf-8' },
      { name: 'HTML', alias: 'mime/h', content: '<!DOCTYPE html><html><body></body></html>', mime: 'text/html' },
      { name: 'empty content', alias: 'mime/empty', content: new Uint8Array(0), mime: 'application/octet-stream' },
      { name: 'empty content ignores the extension', alias: 'mime/empty.png', content: '', mime: 'application/octet-stream' },
      { name: 'binary without extension', alias: 'mime/bin', content: BINARY, mime: 'application/octet-stream' },
      { name: 'binary falls back to the extension', alias: 'mime/data.csv', content: BINARY, mime: 'text/csv' },
      { name: 'extension is case-insensitive', alias: 'mime/IMG.PNG', content: BINARY, mime: 'image/png' },
      { name: 'unknown extension', alias: 'mime/x.zzz', content: BINARY, mime: 'application/octet-stream' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        await db.createBlob(c.alias, c.content);
        const d = db.describeBlob(c.alias);
        assert.equal(d.mime, c.mime);
        assert.equal(d.size, typeof c.content === 'string' ? Buffer.byteLength(c.content) : c.content.length);
      });
    }
  });

  describe('alias and content validation (InvalidArgument)', () => {
    const cases: { name: string; alias: unknown; content?: unknown }[] = [
      { name: 'empty alias', alias: '' },
      { name: 'alias over 1,024 UTF-8 bytes', alias: 'é'.repeat(513) },
      { name: 'non-string alias', alias: 42 },
      { name: 'content neither bytes nor string', alias: 'v/ok', content: 12 },
      { name: 'content as a plain array', alias: 'v/ok', content: [1, 2] },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        await expectCode(() => db.createBlob(c.alias as string, (c.content ?? 'x') as string), 'InvalidArgument');
        await expectCode(() => db.updateBlob(c.alias as string, (c.content ?? 'x') as string), 'InvalidArgument');
      });
    }
    it('accepts an alias of exactly 1,024 bytes with / and .', async () => {
      const alias = `a/b.c${'x'.repeat(1019)}`;
      assert.equal(Buffer.byteLength(alias), 1024);
      await db.createBlob(alias, 'ok');
      assert.equal(db.describeBlob(alias).size, 2);
    });
    it('rejects an expiry that is not an integer >= 0', async () => {
      for (const expiry of [-1, 1.5, Number.NaN]) await expectCode(() => db.createBlob('v/exp', 'x', { expiry }), 'InvalidArgument');
      await expectCode(() => db.createBlob('v/exp', 'x', { expiry: 1000 }), 'ExpiryInPast');
      await expectCode(() => db.getBlob('v/exp'), 'AliasNotFound');
    });
  });

  describe('findBlobs', () => {
    before(async () => {
      for (let i = 0; i < 7; i++) await db.createBlob(`find/${i}`, `prefix-${i % 2 === 0 ? 'needle' : 'hay'}-${i}`);
      await db.createBlob('find/bin', bytes(0, 0xff, 0x00, 0x10, 7));
    });

    it('finds blobs containing a string, in alias order', async () => {
      assert.deepEqual(await db.findBlobs('needle'), { aliases: ['find/0', 'find/2', 'find/4', 'find/6'], hasMore: false });
    });
    it('pages with skip/limit and reports hasMore', async () => {
      assert.deepEqual(await db.findBlobs('needle', { limit: 3 }), { aliases: ['find/0', 'find/2', 'find/4'], hasMore: true });
      assert.deepEqual(await db.findBlobs('needle', { skip: 3, limit: 3 }), { aliases: ['find/6'], hasMore: false });
      assert.deepEqual(await db.findBlobs('needle', { skip: 2, limit: 2 }), { aliases: ['find/4', 'find/6'], hasMore: false });
      assert.deepEqual(await db.findBlobs('needle', { skip: 10 }), { aliases: [], hasMore: false });
    });
    it('matches raw byte sequences, including zero bytes', async () => {
      assert.deepEqual((await db.findBlobs(bytes(0xff, 0x00, 0x10))).aliases, ['find/bin']);
      assert.deepEqual((await db.findBlobs(bytes(0x10, 0xff))).aliases, []);
    });
    it('never returns tags or tables, and finds nothing for an absent sequence', async () => {
      assert.deepEqual((await db.findBlobs('a.tag')).aliases, []);
      assert.deepEqual((await db.findBlobs('no such bytes anywhere')).aliases, []);
    });
    it('rejects bad paging options with InvalidArgument', async () => {
      for (const o of [{ skip: -1 }, { limit: 0 }, { limit: 1.5 }, { skip: Number.NaN }]) {
        await expectCode(() => db.findBlobs('needle', o), 'InvalidArgument');
      }
    });
  });
});
