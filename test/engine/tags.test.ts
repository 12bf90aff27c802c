// Tag API of the engine: attach/detach with changed/unchanged results, implicit tag creation,
// IncompatibleType when the tag alias is not a tag, tags of an entry and entries of a tag with
// skip/limit paging, and how remove interacts with tags on both sides.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { expectCode, tempDir } from './helpers.js';

describe('tags', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0 });
    await db.createBlob('blob1', 'one');
    await db.createBlob('blob2', 'two');
    await db.createTable('table1', [{ name: 'v', type: 'INT64' }]);
  });
  after(() => db.close());

  it('attach creates the tag implicitly and reports changed, then unchanged', async () => {
    await expectCode(() => db.entryType('t/new'), 'AliasNotFound');
    assert.equal(await db.attachTag('blob1', 't/new'), 'changed');
    assert.equal(db.entryType('t/new'), 'tag');
    assert.equal(await db.attachTag('blob1', 't/new'), 'unchanged');
    assert.deepEqual(db.getTags('blob1').aliases, ['t/new']);
    assert.deepEqual(db.getTagged('t/new').aliases, ['blob1']);
  });

  it('tags attach to any entry type, the tag itself included', async () => {
    assert.equal(await db.attachTag('table1', 't/any'), 'changed');
    assert.equal(await db.attachTag('t/any', 't/any'), 'changed');
    assert.equal(await db.attachTag('t/new', 't/any'), 'changed');
    assert.deepEqual(db.getTagged('t/any').aliases, ['t/any', 't/new', 'table1']);
    assert.deepEqual(db.getTags('t/any').aliases, ['t/any']);
  });

  it('attach with a tag alias that is a blob or a table fails with IncompatibleType', async () => {
    await expectCode(() => db.attachTag('blob1', 'blob2'), 'IncompatibleType', /blob2.*a blob, not a tag/);
    await expectCode(() => db.attachTag('blob1', 'table1'), 'IncompatibleType', /a table, not a tag/);
    assert.deepEqual(db.getTags('blob2').aliases, []);
    assert.equal(db.entryType('blob2'), 'blob');
  });

  it('attach/detach on a missing entry fails with AliasNotFound and creates no tag', async () => {
    await expectCode(() => db.attachTag('nope', 't/ghost'), 'AliasNotFound', /nope/);
    await expectCode(() => db.entryType('t/ghost'), 'AliasNotFound');
    await expectCode(() => db.detachTag('nope', 't/new'), 'AliasNotFound');
  });

  it('rejects an invalid tag alias with InvalidArgument', async () => {
    await expectCode(() => db.attachTag('blob1', ''), 'InvalidArgument');
    await expectCode(() => db.attachTag('blob1', 'x'.repeat(1025)), 'InvalidArgument');
  });

  it('detach reports changed, then unchanged; the tag itself stays', async () => {
    await db.attachTag('blob2', 't/detach');
    assert.equal(await db.detachTag('blob2', 't/detach'), 'changed');
    assert.equal(await db.detachTag('blob2', 't/detach'), 'unchanged');
    assert.equal(db.entryType('t/detach'), 'tag');
    assert.deepEqual(db.getTagged('t/detach').aliases, []);
    assert.equal(await db.detachTag('blob2', 't/never-existed'), 'unchanged');
  });

  it('detach with a tag alias that is not a tag fails with IncompatibleType', async () => {
    await expectCode(() => db.detachTag('blob1', 'blob2'), 'IncompatibleType');
    await expectCode(() => db.detachTag('blob1', 'table1'), 'IncompatibleType');
  });

  it('getTags / getTagged: missing alias is AliasNotFound; getTagged of a non-tag is IncompatibleType', async () => {
    await expectCode(() => db.getTags('nope'), 'AliasNotFound');
    await expectCode(() => db.getTagged('nope'), 'AliasNotFound');
    await expectCode(() => db.getTagged('blob1'), 'IncompatibleType');
    await expectCode(() => db.getTagged('table1'), 'IncompatibleType');
  });

  describe('paging', () => {
    before(async () => {
      await db.createBlob('paged', 'x');
      for (const t of ['p/c', 'p/a', 'p/e', 'p/b', 'p/d']) await db.attachTag('paged', t);
      for (const a of ['e3', 'e1', 'e4', 'e2']) {
        await db.createBlob(a, a);
        await db.attachTag(a, 'p/many');
      }
    });
    const cases = [
      { options: {}, tags: ['p/a', 'p/b', 'p/c', 'p/d', 'p/e'], tagged: ['e1', 'e2', 'e3', 'e4'], tagsMore: false, taggedMore: false },
      { options: { limit: 2 }, tags: ['p/a', 'p/b'], tagged: ['e1', 'e2'], tagsMore: true, taggedMore: true },
      { options: { skip: 2, limit: 2 }, tags: ['p/c', 'p/d'], tagged: ['e3', 'e4'], tagsMore: true, taggedMore: false },
      { options: { skip: 4, limit: 2 }, tags: ['p/e'], tagged: [], tagsMore: false, taggedMore: false },
      { options: { skip: 1 }, tags: ['p/b', 'p/c', 'p/d', 'p/e'], tagged: ['e2', 'e3', 'e4'], tagsMore: false, taggedMore: false },
    ];
    for (const c of cases) {
      it(`skip=${c.options.skip ?? 0} limit=${c.options.limit ?? 'default'}`, () => {
        assert.deepEqual(db.getTags('paged', c.options), { aliases: c.tags, hasMore: c.tagsMore });
        assert.deepEqual(db.getTagged('p/many', c.options), { aliases: c.tagged, hasMore: c.taggedMore });
      });
    }
    it('rejects bad paging options with InvalidArgument', async () => {
      await expectCode(() => db.getTags('paged', { skip: -1 }), 'InvalidArgument');
      await expectCode(() => db.getTagged('p/many', { limit: 0 }), 'InvalidArgument');
    });
  });

  it('removing an entry detaches its tags (the tags stay)', async () => {
    await db.createBlob('rm/blob', 'x');
    await db.attachTag('rm/blob', 'rm/t1');
    await db.attachTag('rm/blob', 'rm/t2');
    await db.attachTag('blob1', 'rm/t1');
    await db.remove('rm/blob');
    assert.deepEqual(db.getTagged('rm/t1').aliases, ['blob1']);
    assert.deepEqual(db.getTagged('rm/t2').aliases, []);
    // A new entry under the same alias starts without tags.
    await db.createBlob('rm/blob', 'again');
    assert.deepEqual(db.getTags('rm/blob').aliases, []);
  });

  it('removing a tag detaches it everywhere; re-attaching creates a fresh tag', async () => {
    await db.attachTag('blob1', 'rm/tag');
    await db.attachTag('blob2', 'rm/tag');
    await db.attachTag('table1', 'rm/tag');
    await db.attachTag('rm/tag', 'rm/other');
    await db.remove('rm/tag');
    await expectCode(() => db.entryType('rm/tag'), 'AliasNotFound');
    for (const a of ['blob1', 'blob2', 'table1']) assert.ok(!db.getTags(a, { limit: 1000 }).aliases.includes('rm/tag'));
    assert.deepEqual(db.getTagged('rm/other').aliases, []);
    assert.equal(await db.attachTag('blob2', 'rm/tag'), 'changed');
    assert.deepEqual(db.getTagged('rm/tag').aliases, ['blob2']);
  });

  it('dropping a table detaches its tags', async () => {
    await db.createTable('rm/table', [{ name: 'v', type: 'DOUBLE' }]);
    await db.attachTag('rm/table', 'rm/ttag');
    assert.equal(await db.dropTable('rm/table'), true);
    assert.deepEqual(db.getTagged('rm/ttag').aliases, []);
  });
});
