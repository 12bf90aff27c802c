// Help's examples on the person's own tables (assets/src/help-examples.ts): the table and columns
// picked from the catalog, and every example of the help — the engine's function registry and the
// clauses — filled in and run against a server holding only line-protocol data: each returns rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';
import { CLAUSES, WRITE_CLAUSES } from '../../assets/src/help.js';
import { fillExample, pickExampleTables } from '../../assets/src/help-examples.js';
import type { CatalogTable, ExampleData } from '../../assets/src/help-examples.js';
import { request } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';
import { pageAnswer, startDataServer } from './page-fixture.js';

/** The catalog as the page reads it: find(type=ts), then SHOW of each table. */
async function catalog(server: TestServer): Promise<CatalogTable[]> {
  const names = (await request(server.base, 'GET', `/query_find?query=${encodeURIComponent('find(type=ts)')}`)).json().results as string[];
  return Promise.all(names.map(async (name) => {
    const show = (await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(`SHOW ${name}`)}`)).json();
    return { name, columns: (show.tables[0].results as unknown[][]).map((r) => ({ name: String(r[1]), type: String(r[2]) })) };
  }));
}

describe('help examples on line-protocol data', () => {
  let server: TestServer;
  let data: ExampleData;
  before(async () => {
    // Data ending a few minutes ago, as a fresh server fed by Telegraf would hold.
    server = await startDataServer(Math.floor(Date.now() / 1000) - 3600);
    const picked = pickExampleTables(await catalog(server));
    assert.notEqual(picked, null);
    const last = (await request(server.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent(`SELECT max($timestamp) FROM ${picked!.table}`)}`)).json();
    data = { ...picked!, lastMs: Date.parse(last.tables[0].results[0][1]) };
  });
  after(async () => { await server?.stop(); });

  it('picks the table with a DOUBLE, an INT64 and a SYMBOL column, and a second for joins', () => {
    assert.deepEqual({ ...data, lastMs: 0 }, { table: 'cpu', value: 'usage_user', integer: 'usage_idle', symbol: 'host', other: { table: 'mem', value: 'used' }, lastMs: 0 });
  });

  const examples = [...CLAUSES.map((c) => c.example), ...FUNCTION_DOCS.map((f) => f.example)];
  for (const example of examples) {
    it(`returns rows: ${example}`, async () => {
      const query = fillExample(example, data);
      assert.notEqual(query, null);
      assert.doesNotMatch(query!, /\b(t|v|n|sym|u|w)\b(?![.(])/, `placeholders left: ${query}`);
      const answer = await pageAnswer(server, query!);
      assert.ok(answer.tables.reduce((n, t) => n + t.rowCount, 0) > 0, `no rows: ${query}`);
    });
  }

  it('the materialized view example, filled in, makes a view of the table that answers like its SELECT', async () => {
    const example = WRITE_CLAUSES.find((c) => c.title.startsWith('Materialized views'))!.example;
    const query = fillExample(example, data)!;
    const login = await request(server.base, 'POST', '/api/login', { body: JSON.stringify({ username: '', secret_key: '' }) });
    const token = login.json().token as string;
    const created = await request(server.base, 'POST', '/api/query', { body: JSON.stringify({ query }), headers: { Authorization: `Bearer ${token}` } });
    assert.equal(created.status, 200, created.text());
    const select = query.slice(query.indexOf(' AS SELECT ') + 4);
    for (let tries = 0; ; tries++) {
      const fromView = await pageAnswer(server, `SELECT * FROM hourly`);
      const fromSource = await pageAnswer(server, select);
      if (fromView.tables[0]?.rowCount === fromSource.tables[0]?.rowCount && fromView.tables[0]!.rowCount > 0) break;
      assert.ok(tries < 100, `the view never caught up: ${fromView.tables[0]?.rowCount} rows, its SELECT ${fromSource.tables[0]?.rowCount}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('rewrites names token by token, never inside strings or longer names', () => {
    const q = fillExample("SELECT v, vv, t.v FROM t WHERE sym = 'v t sym' GROUP BY sym", { ...data, symbol: 'host' })!;
    assert.equal(q, "SELECT usage_user, vv, cpu.usage_user FROM cpu WHERE host = 'v t sym' GROUP BY host");
  });

  it('without a SYMBOL column $table stands in; without a second table a join is not offered', () => {
    assert.equal(fillExample('SELECT sym, delta(v) FROM t GROUP BY sym', { ...data, symbol: null }), 'SELECT $table, delta(usage_user) FROM cpu GROUP BY $table');
    assert.equal(fillExample(CLAUSES.find((c) => c.title === 'ASOF JOIN')!.example, { ...data, other: null }), null);
  });

  it('no table with numbers: no pick', () => {
    assert.equal(pickExampleTables([{ name: 'logs', columns: [{ name: '$timestamp', type: 'TIMESTAMP' }, { name: 'line', type: 'STRING' }] }]), null);
  });
});
