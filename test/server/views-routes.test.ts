// Materialized views over HTTP (SPEC §15): created and dropped through POST /api/query, read like
// tables through every query route, refused as a write target by the ingest protocols and the
// bridge's query methods, and their lag in readiness and /metrics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

describe('materialized views over HTTP', () => {
  let t: TestServer;
  let auth: Record<string, string>;
  const query = (text: string) => request(t.base, 'POST', '/api/query', { body: JSON.stringify({ query: text }), headers: auth });
  before(async () => {
    t = await startTestServer();
    auth = { Authorization: `Bearer ${await login(t.base)}` };
    assert.equal((await request(t.base, 'POST', '/write?precision=s', { body: 'cpu,host=a usage=1.5 1704067200\ncpu,host=b usage=2.5 1704067260\ncpu,host=a usage=3.5 1704070800', headers: auth })).status, 204);
  });
  after(async () => { await t?.stop(); });

  it('is created through /api/query and read through /api/query and /query_exp like a table', async () => {
    const created = await query('CREATE MATERIALIZED VIEW cpu_1h AS SELECT avg(usage), count(usage) AS n FROM cpu GROUP BY 1h, host');
    assert.equal(created.status, 200, created.text());
    assert.equal(created.text(), '{"tables":[]}');
    for (let tries = 0; ; tries++) {
      const rows = await query('SELECT host, "avg(usage)", n FROM cpu_1h');
      if (rows.json().tables.length > 0) {
        assert.deepEqual(rows.json().tables[0].columns.map((c: { name: string; data: unknown[] }) => [c.name, c.data]), [['host', ['a', 'b', 'a']], ['avg(usage)', [1.5, 2.5, 3.5]], ['n', [1, 1, 1]]]);
        break;
      }
      assert.ok(tries < 100, 'the view never filled');
      await new Promise((r) => setTimeout(r, 20));
    }
    const exp = await request(t.base, 'GET', `/query_exp?date_format=js&query=${encodeURIComponent('SELECT sum(n) FROM cpu_1h GROUP BY 1d')}`);
    assert.deepEqual(exp.json().tables[0].results, [['2024-01-01T00:00:00.000Z', 3]]);
    const find = await request(t.base, 'GET', `/query_find?query=${encodeURIComponent('find(type=ts)')}`);
    assert.deepEqual(find.json().results, ['cpu', 'cpu_1h']);
  });

  it('is no write target: line protocol into it and the bridge creating one are refused', async () => {
    const lp = await request(t.base, 'POST', '/write', { body: 'cpu_1h,host=a usage=1 1', headers: auth });
    assert.ok(lp.status >= 400 && lp.status < 500, `${lp.status} ${lp.text()}`);
    assert.match(lp.text(), /materialized view/);
    const bridge = await request(t.base, 'GET', `/query_exp?query=${encodeURIComponent('CREATE MATERIALIZED VIEW v AS SELECT count(usage) FROM cpu GROUP BY 1d')}`);
    assertError(bridge, 400, 'ReadOnlyQuery');
    assertError(await query('DROP TABLE cpu'), 400, 'InvalidArgument');
  });

  it('says how far behind it is in readiness and /metrics', async () => {
    const ready = (await request(t.base, 'GET', '/api/status/readiness')).json();
    assert.deepEqual(ready.views.views.map((v: { name: string }) => v.name), ['cpu_1h']);
    assert.ok(ready.views.refreshes >= 1);
    const metrics = (await request(t.base, 'GET', '/metrics')).text();
    for (const name of ['svc_view_lag_seconds{view="cpu_1h"} 0', 'svc_view_pending_ranges{view="cpu_1h"} 0', 'svc_view_refreshes_total', 'svc_view_refresh_lag_seconds{quantile="0.99"}']) {
      assert.ok(metrics.includes(name), `no ${name} in /metrics`);
    }
  });

  it('is dropped through /api/query, and then its source can be', async () => {
    assert.equal((await query('DROP MATERIALIZED VIEW cpu_1h')).status, 200);
    assert.equal((await query('DROP TABLE cpu')).status, 200);
  });
});
