// Materialized views as statements and entries (SPEC §15, docs/views.md): the SELECTs a view may
// have (each refusal a QuerySemantic at its token), SHOW and describeView, a view as an entry
// (FIND, tags), the writes refused on views and on their sources, and a WHERE on $timestamp.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import { expectCode, tempDir } from './helpers.js';

describe('materialized views: statements and entries', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ dataDir: await tempDir('svc-views-'), durability: 'none', sweepIntervalMs: 0 });
    await db.query('CREATE TABLE cpu (usage DOUBLE, n INT64, host SYMBOL)');
    await db.query("INSERT INTO cpu ($timestamp, usage, n, host) VALUES (2024-01-01T00:10, 1.5, 1, 'a'), (2024-01-01T00:20, 2.5, 2, 'b'), (2024-01-01T01:10, 4, 3, 'a')");
    await db.query('CREATE MATERIALIZED VIEW cpu_1h AS SELECT host, avg(usage), max(n) AS top FROM cpu GROUP BY 1h, host');
    await db.viewsCaughtUp();
  });
  after(async () => { await db?.close(); });

  const refusals: [string, string, RegExp][] = [
    ['a FIND', 'SELECT avg(usage) FROM FIND(type=ts) GROUP BY 1h', /reads one table/],
    ['two tables', 'SELECT avg(usage) FROM cpu, cpu_1h GROUP BY 1h', /reads one table/],
    ['no GROUP BY', 'SELECT avg(usage) FROM cpu', /GROUP BY a duration first/],
    ['a column before the duration', 'SELECT avg(usage) FROM cpu GROUP BY host, 1h', /GROUP BY a duration first/],
    ['GROUP BY $table', 'SELECT avg(usage) FROM cpu GROUP BY 1h, $table', /columns of its table only/],
    ['IN RANGE', 'SELECT avg(usage) FROM cpu IN RANGE(2024, +1d) GROUP BY 1h', /leave IN out/],
    ['HAVING', 'SELECT avg(usage) FROM cpu GROUP BY 1h HAVING avg(usage) > 1', /HAVING, FILL, ORDER BY/],
    ['FILL', 'SELECT avg(usage) FROM cpu GROUP BY 1h FILL(NULL)', /HAVING, FILL, ORDER BY/],
    ['LIMIT', 'SELECT avg(usage) FROM cpu GROUP BY 1h LIMIT 5', /HAVING, FILL, ORDER BY/],
    ['now', 'SELECT avg(usage) FROM cpu WHERE $timestamp > now - 1d GROUP BY 1h', /cannot depend on when it is computed/],
    ['*', 'SELECT * FROM cpu GROUP BY 1h', /selects aggregates, not \*/],
    ['count(*)', 'SELECT count(*) FROM cpu GROUP BY 1h', /count\(\*\) counts every column/],
    ['an expression of aggregates', 'SELECT round(avg(usage), 2) FROM cpu GROUP BY 1h', /compute 'round\(avg\(usage\),2\)' when reading the view/],
    ['a column not grouped', 'SELECT usage, avg(usage) FROM cpu GROUP BY 1h', /aggregate calls and its GROUP BY columns/],
    ['two columns of one name', 'SELECT avg(usage), max(n) AS "avg(usage)" FROM cpu GROUP BY 1h', /two columns named 'avg\(usage\)'/],
    ['a reserved name', 'SELECT avg(usage) AS $a FROM cpu GROUP BY 1h', /reserved/],
    ['an unknown column', 'SELECT avg(nope) FROM cpu GROUP BY 1h', /no column 'nope'/],
    ['a view as source', 'SELECT max(top) FROM cpu_1h GROUP BY 1d', /a view's source must be a table/],
  ];
  for (const [what, select, message] of refusals) {
    it(`refuses ${what}`, async () => {
      await assert.rejects(db.query(`CREATE MATERIALIZED VIEW v AS ${select}`), (e) => e instanceof SvcError && message.test(e.message) && (e.code === 'QuerySemantic' ? typeof e.position === 'number' : true));
      assert.equal(db.listAliases('v').aliases.includes('v'), false);
    });
  }

  it('points a refusal at its token', async () => {
    const text = 'CREATE MATERIALIZED VIEW v AS SELECT avg(usage) FROM cpu GROUP BY 1h HAVING avg(usage) > 1';
    await assert.rejects(db.query(text), (e) => e instanceof SvcError && e.code === 'QuerySemantic' && e.position === text.indexOf('avg(usage) > 1'));
  });

  it('holds the GROUP BY columns, then the aggregates named as selected; SHOW gives its SELECT and its refresh', async () => {
    const show = await db.query('SHOW cpu_1h');
    const [names, types] = show.tables[0].columns.map((c) => c.values as string[]);
    const rows = names.map((name, i) => [name, types[i]]);
    assert.deepEqual(rows, [
      ['$timestamp', 'TIMESTAMP'], ['host', 'SYMBOL'], ['avg(usage)', 'DOUBLE'], ['top', 'INT64'],
      ['$view', 'SELECT host, avg(usage), max(n) AS top FROM cpu GROUP BY 1h, host'], ['$refresh', 'up to date'],
    ]);
    const r = await db.query('SELECT host, "avg(usage)", top FROM cpu_1h');
    assert.deepEqual(r.tables[0].columns.map((c) => Array.from(c.values as ArrayLike<unknown>)), [['a', 'b', 'a'], [1.5, 2.5, 4], [1n, 2n, 3n]]);
    assert.deepEqual(db.describeView('cpu_1h'), { name: 'cpu_1h', source: 'cpu', select: 'SELECT host, avg(usage), max(n) AS top FROM cpu GROUP BY 1h, host', pendingRanges: 0, lagMs: 0 });
    await expectCode(async () => db.describeView('cpu'), 'TableNotFound', /materialized view 'cpu' does not exist/);
  });

  it('is an entry of type ts: FIND and tags find it', async () => {
    assert.deepEqual((await db.query('find(type=ts)')).aliases, ['cpu', 'cpu_1h']);
    await db.attachTag('cpu_1h', 'rollups');
    assert.deepEqual((await db.query("find(tag='rollups')")).aliases, ['cpu_1h']);
    assert.equal(db.entryType('cpu_1h'), 'ts');
  });

  it('refuses writes into a view, and the drop of a table a view reads', async () => {
    await expectCode(() => db.query("INSERT INTO cpu_1h ($timestamp, host) VALUES (1, 'x')"), 'IncompatibleType', /'cpu_1h' is a materialized view: its rows are computed from table 'cpu'; write into 'cpu' instead/);
    await expectCode(() => db.query('DELETE FROM cpu_1h IN RANGE(2024, +1y)'), 'IncompatibleType', /DELETE from 'cpu' instead/);
    await expectCode(() => db.query('ALTER TABLE cpu_1h ADD COLUMN x DOUBLE'), 'IncompatibleType', /add columns to 'cpu' instead/);
    await expectCode(() => db.insert('cpu_1h', { $timestamp: [1n] }), 'IncompatibleType', /materialized view/);
    await expectCode(() => db.query('DROP TABLE cpu'), 'InvalidArgument', /table 'cpu' is the source of materialized view 'cpu_1h': drop it first/);
    await expectCode(() => db.remove('cpu'), 'InvalidArgument', /source of materialized view/);
    await expectCode(() => db.query('DROP TABLE cpu_1h'), 'IncompatibleType', /DROP MATERIALIZED VIEW cpu_1h/);
    await expectCode(() => db.query('DROP MATERIALIZED VIEW cpu'), 'IncompatibleType', /'cpu' is not a materialized view/);
    await expectCode(() => db.query('CREATE MATERIALIZED VIEW cpu_1h AS SELECT count(n) FROM cpu GROUP BY 1d'), 'AliasAlreadyExists', /alias 'cpu_1h' already exists/);
    await db.query('CREATE MATERIALIZED VIEW IF NOT EXISTS cpu_1h AS SELECT count(n) FROM cpu GROUP BY 1d');
    assert.equal(db.describeView('cpu_1h').select, 'SELECT host, avg(usage), max(n) AS top FROM cpu GROUP BY 1h, host');
  });

  it('takes its own TTL, and drops (IF EXISTS), the source then going too', async () => {
    await db.query('CREATE TABLE other (v DOUBLE)');
    await db.query('CREATE MATERIALIZED VIEW other_d TTL 30d AS SELECT sum(v) FROM other WHERE $timestamp >= 2024-01-01T12:00 GROUP BY 1d');
    await db.query('INSERT INTO other ($timestamp, v) VALUES (2024-01-01T06:00, 1), (2024-01-01T13:00, 2), (2024-01-01T18:00, 4)');
    await db.query('ALTER TABLE other_d SET TTL 100y');
    await db.viewsCaughtUp();
    const sums = await db.query('SELECT "sum(v)" FROM other_d');
    assert.deepEqual(Array.from(sums.tables[0].columns[0].values as Float64Array), [6]);
    const show = await db.query('SHOW other_d');
    assert.ok((show.tables[0].columns[0].values as string[]).includes('$ttl'));
    await db.query('DROP MATERIALIZED VIEW other_d');
    await db.query('DROP MATERIALIZED VIEW IF EXISTS other_d');
    await expectCode(() => db.query('DROP MATERIALIZED VIEW other_d'), 'TableNotFound', /materialized view 'other_d' does not exist/);
    await db.query('DROP TABLE other');
  });
});
