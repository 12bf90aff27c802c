// Entry-level API of the engine: listAliases (prefix, byte-wise UTF-8 order, paging), remove,
// setExpiry (ExpiryInPast, ExpiryNotSupported, InvalidArgument) and expiry itself: an expired
// entry is absent to every read, does not block a new write to its alias, and is removed (and
// logged) by sweep — manually and by the background timer. One short wait (≤ 2 s) serves all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { expectCode, nowSeconds, tempDir, untilSecond } from './helpers.js';

describe('listAliases', () => {
  let db: Database;
  const aliases = ['u/z', 'u/😀', 'u/a', 'u/\uFFFF', 'u/aa', 'u/é', 'u/Z', 'u/\uE000', 'u/a/b', 'u/a.b', 'v/other'];
  const expected = ['u/Z', 'u/a', 'u/a.b', 'u/a/b', 'u/aa', 'u/z', 'u/é', 'u/\uE000', 'u/\uFFFF', 'u/😀'];
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0 });
    for (const a of aliases.slice(0, 6)) await db.createBlob(a, a);
    await db.attachTag('u/a', 'u/Z');
    await db.createTable('u/\uE000', [{ name: 'v', type: 'DOUBLE' }]);
    for (const a of aliases.slice(8)) await db.createBlob(a, a);
  });
  after(() => db.close());

  it('the expected order is UTF-8 byte order (not UTF-16 code unit order)', () => {
    const byBytes = [...expected].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual(byBytes, expected);
    assert.notDeepEqual([...expected].sort(), expected);
  });

  it('lists every type under a prefix, byte-wise sorted', () => {
    assert.deepEqual(db.listAliases('u/'), { aliases: expected, hasMore: false });
  });

  const pages = [
    { prefix: 'u/', options: { limit: 3 }, aliases: expected.slice(0, 3), hasMore: true },
    { prefix: 'u/', options: { skip: 3, limit: 3 }, aliases: expected.slice(3, 6), hasMore: true },
    { prefix: 'u/', options: { skip: 9, limit: 3 }, aliases: expected.slice(9), hasMore: false },
    { prefix: 'u/', options: { skip: 7, limit: 3 }, aliases: expected.slice(7), hasMore: false },
    { prefix: 'u/', options: { skip: 20 }, aliases: [], hasMore: false },
    { prefix: 'u/a', options: {}, aliases: ['u/a', 'u/a.b', 'u/a/b', 'u/aa'], hasMore: false },
    { prefix: 'u/a/', options: {}, aliases: ['u/a/b'], hasMore: false },
    { prefix: 'w', options: {}, aliases: [], hasMore: false },
    { prefix: '', options: { skip: 10 }, aliases: ['v/other'], hasMore: false },
    { prefix: '', options: { limit: 10 }, aliases: expected, hasMore: true },
  ];
  for (const p of pages) {
    it(`prefix '${p.prefix}' ${JSON.stringify(p.options)}`, () => {
      assert.deepEqual(db.listAliases(p.prefix, p.options), { aliases: p.aliases, hasMore: p.hasMore });
    });
  }

  it('rejects bad paging options with InvalidArgument', async () => {
    for (const o of [{ skip: -1 }, { skip: 0.5 }, { limit: 0 }, { limit: -3 }]) await expectCode(() => db.listAliases('u/', o), 'InvalidArgument');
  });
});

describe('remove', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0 });
  });
  after(() => db.close());

  it('removes a blob, a tag and a table; the alias is then free', async () => {
    await db.createBlob('r/blob', 'x');
    await db.attachTag('r/blob', 'r/tag');
    await db.createTable('r/table', [{ name: 'v', type: 'DOUBLE' }]);
    await db.insertRows('r/table', [{ $timestamp: 1n, v: 1 }]);
    for (const alias of ['r/blob', 'r/tag', 'r/table']) {
      await db.remove(alias);
      await expectCode(() => db.entryType(alias), 'AliasNotFound');
    }
    assert.deepEqual(db.listAliases('r/').aliases, []);
    await expectCode(() => db.describeTable('r/table'), 'TableNotFound');
    await db.createTable('r/table', [{ name: 'w', type: 'INT64' }]);
    assert.equal(db.describeTable('r/table').rowCount, 0);
    await db.createBlob('r/tag', 'now a blob');
    assert.equal(db.entryType('r/tag'), 'blob');
  });

  it('fails with AliasNotFound for a missing alias', async () => {
    await expectCode(() => db.remove('r/missing'), 'AliasNotFound', /r\/missing/);
  });
});

describe('setExpiry', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0 });
    await db.createBlob('s/blob', 'x');
    await db.attachTag('s/blob', 's/tag');
    await db.createTable('s/table', [{ name: 'v', type: 'DOUBLE' }]);
  });
  after(() => db.close());

  it('sets and clears a blob\'s expiry', async () => {
    const later = nowSeconds() + 3600;
    await db.setExpiry('s/blob', later);
    assert.equal(db.describeBlob('s/blob').expiry, later);
    await db.setExpiry('s/blob', 0);
    assert.equal(db.describeBlob('s/blob').expiry, 0);
  });

  const failures = [
    { name: 'expiry in the past', alias: 's/blob', expiry: () => nowSeconds() - 10, code: 'ExpiryInPast' as const },
    { name: 'expiry of 1 (1970)', alias: 's/blob', expiry: () => 1, code: 'ExpiryInPast' as const },
    { name: 'expiry now', alias: 's/blob', expiry: () => nowSeconds(), code: 'ExpiryInPast' as const },
    { name: 'negative expiry', alias: 's/blob', expiry: () => -5, code: 'InvalidArgument' as const },
    { name: 'fractional expiry', alias: 's/blob', expiry: () => nowSeconds() + 10.5, code: 'InvalidArgument' as const },
    { name: 'NaN expiry', alias: 's/blob', expiry: () => Number.NaN, code: 'InvalidArgument' as const },
    { name: 'tag', alias: 's/tag', expiry: () => nowSeconds() + 100, code: 'ExpiryNotSupported' as const },
    { name: 'table', alias: 's/table', expiry: () => nowSeconds() + 100, code: 'ExpiryNotSupported' as const },
    { name: 'tag, even with expiry 0', alias: 's/tag', expiry: () => 0, code: 'ExpiryNotSupported' as const },
    { name: 'missing alias', alias: 's/none', expiry: () => nowSeconds() + 100, code: 'AliasNotFound' as const },
  ];
  for (const f of failures) {
    it(`${f.name} → ${f.code}, nothing changes`, async () => {
      await expectCode(() => db.setExpiry(f.alias, f.expiry()), f.code);
      assert.equal(db.describeBlob('s/blob').expiry, 0);
      assert.equal(db.entryType('s/tag'), 'tag');
      assert.equal(db.entryType('s/table'), 'ts');
    });
  }
});

describe('expiry', () => {
  let db: Database;
  let timed: Database;
  const log: string[] = [];
  const timedLog: string[] = [];
  let expiry = 0;

  before(async () => {
    db = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 0, log: (m) => log.push(m) });
    timed = await Database.open({ dataDir: await tempDir(), sweepIntervalMs: 50, log: (m) => timedLog.push(m) });
    expiry = nowSeconds() + 2;
    await db.createBlob('e/created', 'needle one', { expiry });
    await db.createBlob('e/set', 'needle two');
    await db.setExpiry('e/set', expiry);
    await db.updateBlob('e/updated', 'needle three', { expiry });
    await db.createBlob('e/kept', 'needle kept');
    await db.createBlob('e/expired-update', 'old');
    await db.setExpiry('e/expired-update', expiry);
    for (const a of ['e/created', 'e/set', 'e/kept']) await db.attachTag(a, 'e/tag');
    await db.attachTag('e/kept', 'e/created-tag-holder');
    await db.createBlob('e/as-tag', 'x', { expiry });
    await db.createBlob('e/as-table', 'x', { expiry });
    await timed.createBlob('t/gone', 'x', { expiry });
    await timed.createBlob('t/stays', 'x');
    // Before the moment passes, everything is visible.
    assert.equal(db.describeBlob('e/created').expiry, expiry);
    assert.deepEqual(db.getTagged('e/tag').aliases, ['e/created', 'e/kept', 'e/set']);
    await untilSecond(expiry);
  });
  after(async () => {
    await db.close();
    await timed.close();
  });

  it('an expired blob is absent to every read', async () => {
    for (const alias of ['e/created', 'e/set', 'e/updated']) {
      await expectCode(() => db.getBlob(alias), 'AliasNotFound');
      await expectCode(() => db.describeBlob(alias), 'AliasNotFound');
      await expectCode(() => db.entryType(alias), 'AliasNotFound');
      await expectCode(() => db.getTags(alias), 'AliasNotFound');
    }
    assert.deepEqual(db.listAliases('e/').aliases, ['e/created-tag-holder', 'e/kept', 'e/tag']);
    assert.deepEqual((await db.findBlobs('needle')).aliases, ['e/kept']);
    assert.deepEqual(db.getTagged('e/tag').aliases, ['e/kept']);
  });

  it('an expired blob cannot be written to as if it existed', async () => {
    await expectCode(() => db.attachTag('e/created', 'e/tag2'), 'AliasNotFound');
    await expectCode(() => db.detachTag('e/created', 'e/tag'), 'AliasNotFound');
    await expectCode(() => db.setExpiry('e/created', 0), 'AliasNotFound');
    await expectCode(() => db.remove('e/created'), 'AliasNotFound');
  });

  it('an expired blob does not block a new blob, tag or table under its alias', async () => {
    await db.createBlob('e/set', 'fresh');
    assert.deepEqual(db.describeBlob('e/set'), { alias: 'e/set', type: 'blob', size: 5, mime: 'text/plain; charset=utf-8', expiry: 0 });
    assert.deepEqual(db.getTags('e/set').aliases, []);
    await db.updateBlob('e/expired-update', 'new');
    assert.equal(db.describeBlob('e/expired-update').expiry, 0);
    assert.equal(Buffer.from(await db.getBlob('e/expired-update')).toString(), 'new');
    assert.equal(await db.attachTag('e/kept', 'e/as-tag'), 'changed');
    assert.equal(db.entryType('e/as-tag'), 'tag');
    assert.equal(await db.createTable('e/as-table', [{ name: 'v', type: 'DOUBLE' }]), true);
    assert.equal(db.entryType('e/as-table'), 'ts');
  });

  it('sweep removes expired entries and logs each', async () => {
    const removed = await db.sweep();
    assert.equal(removed, 2); // e/created, e/updated (the others were replaced above)
    assert.ok(log.some((m) => m.includes("'e/created'")), log.join('\n'));
    assert.ok(log.some((m) => m.includes("'e/updated'")), log.join('\n'));
    assert.equal(await db.sweep(), 0);
    assert.deepEqual(db.listAliases('e/').aliases, ['e/as-table', 'e/as-tag', 'e/created-tag-holder', 'e/expired-update', 'e/kept', 'e/set', 'e/tag']);
  });

  it('the background sweep removes expired entries on its own', async () => {
    for (let i = 0; i < 100 && !timedLog.some((m) => m.includes("'t/gone'")); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(timedLog.some((m) => m.includes("'t/gone' removed")), timedLog.join('\n'));
    assert.deepEqual(timed.listAliases('t/').aliases, ['t/stays']);
  });
});
