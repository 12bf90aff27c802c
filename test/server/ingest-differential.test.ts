// Differential test against influxd 1.6.7 (Debian's `influxdb`, started here on loopback with a
// configuration of its own in a temporary directory): the same random line-protocol file — escaped
// measurement, tag and field names, float/integer/boolean/string fields, missing fields and
// tags, every precision of timestamp digits — goes to both, and per measurement, field and tag
// value the counts, sums, min/max and first/last agree (influxd is started by bench/peers/ingest-peers.ts). Seeded: DIFF_SEED=<n> replays a file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { prng } from '../prng.js';
import type { Rng } from '../prng.js';
import { login, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { peerMissing } from './peers.js';
import { startInfluxd } from '../../bench/peers/ingest-peers.js';
import type { PeerServer } from '../../bench/peers/ingest-peers.js';

const SEED = Number(process.env.DIFF_SEED ?? 20241125);
const LINES = 3_000;

interface Field { readonly name: string; readonly wire: string; readonly kind: 'float' | 'int' | 'bool' | 'string' }
interface Measurement { readonly name: string; readonly wire: string; readonly tag: string; readonly tagWire: string; readonly fields: readonly Field[] }

const MEASUREMENTS: readonly Measurement[] = [
  {
    name: 'cpu load', wire: 'cpu\\ load', tag: 'host', tagWire: 'host',
    fields: [{ name: 'usage', wire: 'usage', kind: 'float' }, { name: 'procs', wire: 'procs', kind: 'int' }, { name: 'ok', wire: 'ok', kind: 'bool' }],
  },
  {
    name: 'net,io', wire: 'net\\,io', tag: 'if ace', tagWire: 'if\\ ace',
    fields: [{ name: 'bytes=in', wire: 'bytes\\=in', kind: 'int' }, { name: 'err rate', wire: 'err\\ rate', kind: 'float' }, { name: 'note', wire: 'note', kind: 'string' }],
  },
];
const TAG_VALUES = ['a', 'b,c', 'd e', 'f=g', 'ü'];
const escapeTag = (v: string) => v.replace(/([ ,=])/g, '\\$1');

function randomFile(rand: Rng): string {
  const lines: string[] = [];
  // Each series gets strictly increasing times: influxd keeps one point per series and time.
  let time = 1_600_000_000_000_000_000n;
  for (let i = 0; i < LINES; i++) {
    time += BigInt(1 + Math.floor(rand() * 1e9));
    const m = MEASUREMENTS[Math.floor(rand() * MEASUREMENTS.length)];
    const tag = rand() < 0.1 ? '' : `,${m.tagWire}=${escapeTag(TAG_VALUES[Math.floor(rand() * TAG_VALUES.length)])}`;
    const fields = m.fields.filter((_, k) => k === 0 || rand() < 0.7).map((f) => `${f.wire}=${value(rand, f.kind)}`);
    lines.push(`${m.wire}${tag} ${fields.join(',')} ${time}`);
  }
  return `${lines.join('\n')}\n`;
}

function value(rand: Rng, kind: Field['kind']): string {
  switch (kind) {
    case 'float': return String(rand() < 0.5 ? Math.round(rand() * 1e4) / 100 : (rand() - 0.5) * 1e6);
    case 'int': return `${Math.floor((rand() - 0.3) * 1e9)}i`;
    case 'bool': return ['t', 'F', 'true', 'FALSE', 'True', 'f'][Math.floor(rand() * 6)];
    case 'string': return `"s ${Math.floor(rand() * 50)} \\"q\\" \\\\"`;
  }
}

let svc: TestServer;
let token: string;
let influxd: PeerServer | null = null;
let influxBase = '';
let skipReason: string | null = null;

before(async () => {
  skipReason = peerMissing('influxd', ['version']);
  if (skipReason !== null) return;
  influxd = await startInfluxd();
  influxBase = influxd.base;
  svc = await startTestServer({ maxInBufferSize: 64 * 1024 * 1024 });
  token = await login(svc.base);
});

after(async () => {
  await influxd?.stop();
  await svc?.stop();
});

type Row = Record<string, unknown>;

/** influxd's answer as rows keyed by tag value ('' for points without the tag). */
async function influxRows(q: string, tag: string): Promise<Map<string, Row>> {
  const r = await request(influxBase, 'POST', `/query?db=diff&epoch=ns`, { body: `q=${encodeURIComponent(q)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  assert.equal(r.status, 200, r.text());
  const out = new Map<string, Row>();
  for (const s of r.json().results[0].series ?? []) {
    const row: Row = {};
    (s.columns as string[]).forEach((c, i) => { if (c !== 'time') row[c] = s.values[0][i]; });
    out.set(s.tags?.[tag] ?? '', row);
  }
  return out;
}

async function svcRows(q: string, tag: string): Promise<Map<string, Row>> {
  const r = await request(svc.base, 'POST', '/api/query', { body: JSON.stringify({ query: q }), headers: { Authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, r.text());
  const out = new Map<string, Row>();
  const columns = (r.json().tables[0]?.columns ?? []) as { name: string; data: unknown[] }[];
  const rows = columns[0]?.data.length ?? 0;
  for (let i = 0; i < rows; i++) {
    const row: Row = {};
    for (const c of columns.slice(1)) row[c.name] = c.data[i];
    out.set((columns[0].data[i] as string | null) ?? '', row);
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return a === b;
}

describe('line protocol: svc against influxd 1.6.7', () => {
  test(`the same file gives the same counts, sums, min/max and first/last per field and tag value (seed ${SEED})`, async (ctx) => {
    if (skipReason !== null) return ctx.skip(skipReason);
    const file = randomFile(prng(SEED));
    const created = await request(influxBase, 'POST', '/query', { body: 'q=CREATE DATABASE diff', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.equal(created.status, 200, created.text());
    for (const base of [influxBase, svc.base]) {
      const r = await request(base, 'POST', '/write?db=diff&precision=ns', { body: file });
      assert.equal(r.status, 204, `${base}: ${r.text()}`);
    }
    let compared = 0;
    for (const m of MEASUREMENTS) {
      for (const f of m.fields) {
        const numeric = f.kind === 'float' || f.kind === 'int';
        const aggs = numeric ? ['count', 'sum', 'min', 'max', 'first', 'last'] : ['count', 'first', 'last'];
        const iq = `SELECT ${aggs.map((a) => `${a}("${f.name}") AS "${a}"`).join(', ')} FROM "${m.name}" GROUP BY "${m.tag}"`;
        const sq = `SELECT "${m.tag}", ${aggs.map((a) => `${a}("${f.name}") AS "${a}"`).join(', ')} FROM "${m.name}" GROUP BY "${m.tag}"`;
        const expected = await influxRows(iq, m.tag);
        const actual = await svcRows(sq, m.tag);
        assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${m.name}.${f.name}: tag values`);
        for (const [tagValue, row] of expected) {
          for (const a of aggs) {
            const x = actual.get(tagValue)![a];
            assert.ok(same(x, row[a]), `${m.name}.${f.name} ${m.tag}=${tagValue} ${a}: svc ${String(x)}, influxd ${String(row[a])}`);
            compared++;
          }
        }
      }
    }
    assert.ok(compared > 60, `only ${compared} figures compared`);
  });
});
