// The chart's data (assets/src/chart-data.ts) from real answers: a series per group (GROUP BY
// host over 50 hosts: 50 series, not one line through all of them), nulls as gaps and never NaN
// (delta, FILL before the data), the cap and its rule, and series whose times differ joined on one
// x axis exactly (union) or on a grid that keeps each step's low and high.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chartData, DEFAULT_CHART_OPTIONS } from '../../assets/src/chart-data.js';
import type { ChartData, YValues } from '../../assets/src/chart-data.js';
import { selectShape, withGroupColumns } from '../../assets/src/query-text.js';
import type { TestServer } from '../server/helpers.js';
import { HOSTS, iso, MINUTES, pageAnswer, START_S, startDataServer, usage } from './page-fixture.js';

let server: TestServer;
before(async () => { server = await startDataServer(); });
after(async () => { await server?.stop(); });

/** The chart of a query as the console builds it (GROUP BY columns selected and used as keys). */
async function chartOf(text: string, options = {}): Promise<ChartData | null> {
  const { query } = withGroupColumns(text);
  const keyColumns = new Set(selectShape(text)?.groupColumns.map((c) => c.name));
  return chartData((await pageAnswer(server, query)).tables, { ...DEFAULT_CHART_OPTIONS, keyColumns, ...options });
}

const values = (y: YValues): (number | null | undefined)[] => Array.from({ length: y.length }, (_, i) => y[i]);
const hasNaN = (c: ChartData): boolean => c.data.some((y) => values(y).some((v) => typeof v === 'number' && Number.isNaN(v)));

describe('chart data', () => {
  it('GROUP BY 5min, host over 50 hosts: 50 series of 12 points on one x axis, labelled by host', async () => {
    const c = (await chartOf(`SELECT avg(usage_user) FROM cpu IN RANGE(${iso(START_S)}, +1h) GROUP BY 5min, host`))!;
    assert.equal(c.series.length, HOSTS);
    assert.equal(c.total, HOSTS);
    assert.equal(c.alignment, 'shared');
    assert.equal(c.data[0].length, 12);
    assert.deepEqual(c.series.slice(0, 2).map((s) => s.label), ['host=h00', 'host=h01']);
    // Each series holds its own host's averages (h07: 7 + the sine's mean over each bucket).
    const h07 = values(c.data[8]!);
    const expected = Array.from({ length: 12 }, (_, b) => { let s = 0; for (let m = 5 * b; m < 5 * b + 5; m++) s += usage(7, m); return s / 5; });
    h07.forEach((v, i) => assert.ok(Math.abs((v as number) - expected[i]!) < 1e-9, `bucket ${i}: ${v} vs ${expected[i]}`));
  });

  it('SELECT * over a tagged table: a series per numeric column per (host, region)', async () => {
    const c = (await chartOf('SELECT * FROM cpu'))!;
    assert.equal(c.total, 2 * HOSTS);
    assert.equal(c.series[0]!.label, 'usage_user · host=h00 region=r0');
    assert.equal(c.series[1]!.label, 'usage_idle · host=h00 region=r0');
    assert.equal(c.data[0].length, MINUTES);
  });

  it('delta(v): the first value is a gap (null), the rest are numbers; nothing is NaN', async () => {
    const c = (await chartOf("SELECT delta(usage_user) FROM cpu WHERE host = 'h03'"))!;
    const y = values(c.data[1]!);
    assert.equal(y.length, MINUTES);
    assert.equal(y[0], null);
    assert.ok(y.slice(1).every((v) => typeof v === 'number' && Number.isFinite(v)));
    assert.ok(!hasNaN(c));
  });

  it('a FILL over a range starting before the data: leading nulls, then the data', async () => {
    const c = (await chartOf(`SELECT avg(usage_user) FROM cpu IN RANGE(${iso(START_S - 3600)}, +2h) GROUP BY 10min FILL(LINEAR)`))!;
    const y = values(c.data[1]!);
    assert.equal(y.length, 12);
    assert.deepEqual(y.slice(0, 6), [null, null, null, null, null, null]);
    assert.ok(y.slice(6).every((v) => typeof v === 'number'));
    assert.ok(!hasNaN(c));
  });

  it('a GROUP BY over an INT64 column splits by its values too', async () => {
    const c = (await chartOf('SELECT avg(usage_user) FROM cpu GROUP BY 30min, usage_idle'))!;
    assert.equal(c.series.length, HOSTS);
    assert.equal(c.series[0]!.label, 'usage_idle=50');
  });

  it('past the cap: the series with the highest maximum, and the total', async () => {
    const c = (await chartOf('SELECT avg(usage_user) FROM cpu GROUP BY 30min, host', { maxSeries: 10 }))!;
    assert.equal(c.total, HOSTS);
    assert.deepEqual(c.series.map((s) => s.label), Array.from({ length: 10 }, (_, i) => `host=h${40 + i}`));
  });

  it('two tables with different times: one x axis of both times, holes where a series has no point', async () => {
    const c = (await chartOf(`SELECT * FROM cpu, mem WHERE host = 'h00'`))!;
    assert.deepEqual(c.series.map((s) => s.label), ['cpu: usage_user · host=h00 region=r0', 'cpu: usage_idle · host=h00 region=r0', 'mem: used · host=h00', 'mem: free · host=h00']);
    assert.equal(c.alignment, 'union');
    const x = c.data[0];
    assert.equal(x.length, 2 * MINUTES);
    for (let i = 1; i < x.length; i++) assert.ok(x[i]! > x[i - 1]!);
    // A cpu series has a value at each whole minute and nothing (undefined) at the half minutes of mem.
    const cpu = values(c.data[1]!);
    assert.equal(typeof cpu[0], 'number');
    assert.equal(cpu[1], undefined);
  });

  it('past the union budget: a grid holding each step\'s low and high', async () => {
    const c = (await chartOf(`SELECT * FROM cpu, mem WHERE host = 'h00'`, { maxUnionCells: 10, gridPoints: 6 }))!;
    assert.equal(c.alignment, 'grid');
    const used = values(c.data[c.series.findIndex((s) => s.label.startsWith('mem: used')) + 1]!).filter((v): v is number => typeof v === 'number');
    assert.equal(Math.min(...used), 1000);
    assert.equal(Math.max(...used), 1000 + (MINUTES - 1) * 10.5);
  });

  it('rows in another order (ORDER BY) are drawn in time order', async () => {
    const c = (await chartOf("SELECT usage_user FROM cpu WHERE host = 'h01' ORDER BY usage_user DESC"))!;
    const x = c.data[0];
    for (let i = 1; i < x.length; i++) assert.ok(x[i]! >= x[i - 1]!);
    assert.equal(values(c.data[1]!)[0], usage(1, 0));
  });

  it('nothing to draw: no time, or no number', async () => {
    assert.equal(await chartOf('SELECT count(usage_user) FROM cpu'), null);
    assert.equal(await chartOf('SHOW cpu'), null);
  });
});
