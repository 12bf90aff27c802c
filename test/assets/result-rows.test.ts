// The page's reading of answers (assets/src/result.ts) and the rows it shows and downloads
// (assets/src/result-rows.ts): Arrow and JSON read alike, one time column for SELECT *, nulls
// known, exact text beside shown text, times in either clock, sorting with nulls last, and CSV
// that holds exactly the table's cells.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatTime, offsetText, parseWallTime, wallTimeText } from '../../assets/src/clock.js';
import { ResultRows } from '../../assets/src/result-rows.js';
import type { TestServer } from '../server/helpers.js';
import { iso, pageAnswer, START_S, startDataServer } from './page-fixture.js';

let server: TestServer;
before(async () => { server = await startDataServer(); });
after(async () => { await server?.stop(); });

/** Rows of a query, every cell's exact text (all rows). */
function cells(rows: ResultRows, kind: 'exact' | 'text' = 'exact'): string[][] {
  return Array.from({ length: rows.rowCount }, (_, r) => rows.columns.map((_c, c) => rows[kind](r, c)));
}

/** A minimal CSV reader (quoted fields, doubled quotes, CRLF). */
function readCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\r' && text[i + 1] === '\n') { row.push(field); out.push(row); row = []; field = ''; i++; }
    else field += ch;
  }
  return out;
}

describe('reading answers', () => {
  it('SELECT *: `$timestamp` once (query_exp\'s leading row time is the same), tags and fields', async () => {
    for (const format of ['arrow', 'json'] as const) {
      const t = (await pageAnswer(server, "SELECT * FROM cpu WHERE host = 'h01' LIMIT 2", format)).tables[0]!;
      assert.deepEqual(t.columns.map((c) => c.name), ['$timestamp', 'host', 'region', 'usage_user', 'usage_idle'], format);
      assert.deepEqual(t.columns.map((c) => c.kind), ['time', 'text', 'text', 'number', 'number'], format);
      assert.equal(t.columns[0]!.exact(0), `${iso(START_S).slice(0, -1)}.000Z`);
    }
  });

  it('Arrow and JSON give the same exact text, nulls alike', async () => {
    const q = `SELECT host, delta(usage_user), usage_idle FROM cpu WHERE host IN ('h01', 'h02') LIMIT 4`;
    const [a, j] = [await pageAnswer(server, q, 'arrow'), await pageAnswer(server, q, 'json')];
    const text = (o: typeof a) => o.tables[0]!.columns.map((c) => Array.from({ length: o.tables[0]!.rowCount }, (_, r) => (c.isNull(r) ? null : c.exact(r))));
    assert.deepEqual(text(a), text(j));
    assert.equal(a.tables[0]!.columns[2]!.isNull(0), true);
  });

  it('a SYMBOL column gives its codes and labels once', async () => {
    const c = (await pageAnswer(server, 'SELECT host, usage_user FROM cpu LIMIT 3')).tables[0]!.columns.find((x) => x.name === 'host')!;
    const k = c.keys()!;
    assert.deepEqual(Array.from(k.codes).map((code) => k.labels[code]), ['h00', 'h01', 'h02']);
    assert.equal(c.keys(), k);
  });

  it('an answer without rows has no tables', async () => {
    assert.deepEqual((await pageAnswer(server, 'SELECT usage_user FROM cpu IN RANGE(2001, +1d)')).tables, []);
  });
});

describe('the rows shown', () => {
  it('shows numbers to the column\'s precision and keeps the exact value', async () => {
    const rows = new ResultRows((await pageAnswer(server, `SELECT avg(usage_user) FROM cpu IN RANGE(${iso(START_S)}, +1h) GROUP BY 20min`)).tables, 'utc');
    const exact = cells(rows).map((r) => r[1]!);
    const text = cells(rows, 'text').map((r) => r[1]!);
    exact.forEach((e, i) => assert.ok(Math.abs(Number(e) - Number(text[i])) < 1e-6, `${text[i]} shows ${e}`));
    assert.equal(new Set(text.map((t) => t.split('.')[1]?.length)).size, 1, `one precision: ${text.join(' ')}`);
  });

  it('times follow the clock: UTC with Z, local with its offset', async () => {
    const rows = new ResultRows((await pageAnswer(server, `SELECT avg(usage_user) FROM cpu IN RANGE(${iso(START_S)}, +1h) GROUP BY 1h`)).tables, 'utc');
    assert.equal(rows.exact(0, 0), '2025-11-28T14:00:00.000Z');
    rows.clock = 'local';
    const offset = -new Date(START_S * 1000).getTimezoneOffset();
    assert.equal(rows.exact(0, 0), formatTime(START_S * 1000, '', 'local'));
    assert.ok(rows.exact(0, 0).endsWith(offsetText(offset)));
  });

  it('sorts by a column, nulls last either way, and back', async () => {
    const rows = new ResultRows((await pageAnswer(server, "SELECT delta(usage_user) FROM cpu WHERE host = 'h05' LIMIT 6")).tables, 'utc');
    const column = rows.columns.findIndex((c) => c.name === 'delta(usage_user)');
    const original = cells(rows).map((r) => r[column]!);
    rows.sort(column, 'asc');
    const asc = cells(rows).map((r) => r[column]!);
    assert.deepEqual(asc.slice(0, 5).map(Number), [...original.slice(1)].map(Number).sort((a, b) => a - b));
    assert.equal(asc[5], '');
    rows.sort(column, 'desc');
    assert.equal(cells(rows).map((r) => r[column]!)[5], '');
    rows.sort(null);
    assert.deepEqual(cells(rows).map((r) => r[column]!), original);
  });

  it('CSV holds the header and every cell exactly, quoted where needed, nulls empty', async () => {
    const rows = new ResultRows((await pageAnswer(server, "SELECT host, delta(usage_user) FROM cpu WHERE host = 'h05' LIMIT 5")).tables, 'utc');
    const csv = readCsv(await rows.csv().text());
    assert.deepEqual(csv[0], rows.columns.map((c) => c.name));
    assert.deepEqual(csv.slice(1), cells(rows));
    assert.equal(csv[1]![2], '');
  });

  it('several tables: the columns of both, a $table column when the query has none', async () => {
    const star = new ResultRows((await pageAnswer(server, "SELECT * FROM cpu, mem WHERE host = 'h00' LIMIT 1")).tables, 'utc');
    assert.deepEqual(star.columns.map((c) => c.name), ['$timestamp', '$table', 'host', 'region', 'usage_user', 'usage_idle', 'used', 'free']);
    assert.deepEqual(cells(star).map((r) => [r[1], r[3], r[6]]), [['cpu', 'r0', ''], ['mem', '', '1000']]);
    const some = new ResultRows((await pageAnswer(server, "SELECT host FROM cpu, mem WHERE host = 'h00' LIMIT 1")).tables, 'utc');
    assert.deepEqual(some.columns.map((c) => c.name), ['$table', 'timestamp', 'host']);
    assert.deepEqual(cells(some).map((r) => r[0]), ['cpu', 'mem']);
  });
});

describe('the clock', () => {
  it('reads back the wall-clock text it writes, in both zones', () => {
    for (const mode of ['utc', 'local'] as const) {
      for (const ms of [START_S * 1000, START_S * 1000 + 1500, Date.parse('2026-03-29T01:30:00Z')]) assert.equal(parseWallTime(wallTimeText(ms, mode), mode), ms);
    }
    assert.ok(Number.isNaN(parseWallTime('28/11/2026 14:00', 'utc')));
    assert.equal(parseWallTime('2026-11-28T14:00', 'utc'), Date.parse('2026-11-28T14:00:00Z'));
  });

  it('writes ISO 8601 with the zone\'s offset and any sub-millisecond digits', () => {
    assert.equal(formatTime(Date.parse('2026-11-28T14:30:00.5Z'), '123', 'utc'), '2026-11-28T14:30:00.500123Z');
    assert.equal(offsetText(330), '+05:30');
    assert.equal(offsetText(-240), '-04:00');
    assert.equal(formatTime(NaN, '', 'utc'), '');
  });
});
