// /metrics as the Cluster page reads it (assets/src/metrics-text.ts): the server's own exposition
// parsed, sums over label sets, and rates between two readings (a restart reads as 0, not negative).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMetrics, rate, total } from '../../assets/src/metrics-text.js';
import { request } from '../server/helpers.js';
import { startDataServer } from './page-fixture.js';

describe('metrics text', () => {
  it('reads the server\'s own /metrics: rows ingested, the memory budget, requests by route', async () => {
    const server = await startDataServer();
    try {
      const before = parseMetrics((await request(server.base, 'GET', '/metrics')).text());
      await request(server.base, 'POST', '/write?precision=s', { body: 'cpu,host=x usage_user=1 1764340000\ncpu,host=y usage_user=2 1764340000' });
      const after = parseMetrics((await request(server.base, 'GET', '/metrics')).text());
      assert.equal(total(after, 'svc_rows_ingested_total')! - total(before, 'svc_rows_ingested_total')!, 2);
      assert.equal(rate(before, after, 'svc_rows_ingested_total', 0.5), 4);
      assert.ok(total(after, 'svc_memory_limit_bytes')! > 0);
      assert.ok((after.get('svc_http_requests_total') ?? []).some((s) => s.labels['route'] === '/write' && s.labels['status'] === '204'));
    } finally {
      await server.stop();
    }
  });

  it('parses labels with escapes, skips comments, and rates a counter that went back as 0', () => {
    const m = parseMetrics('# HELP x a\n# TYPE x counter\nx{a="q\\"uote",b="line\\nbreak"} 3\nx{a="2"} 4.5\ny NaN\nbad line\n');
    assert.deepEqual(m.get('x')!.map((s) => s.labels), [{ a: 'q"uote', b: 'line\nbreak' }, { a: '2' }]);
    assert.equal(total(m, 'x'), 7.5);
    assert.ok(Number.isNaN(total(m, 'y')!));
    assert.equal(total(m, 'missing'), null);
    assert.equal(rate(parseMetrics('x 10'), parseMetrics('x 4'), 'x', 1), 0);
    assert.equal(rate(parseMetrics('x 10'), parseMetrics('z 4'), 'x', 1), null);
  });
});
