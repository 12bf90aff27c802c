// What the dashboard's unit tests share: a real server holding line-protocol data (50 hosts of
// `cpu`, one `mem` series, written through POST /write as Telegraf would), and its answers read
// the way the page reads them (Arrow IPC and query_exp JSON through assets/src/result.ts), so the
// page's data path is tested from query text to what it shows, in Node.
import assert from 'node:assert/strict';
import { readArrow, readJson } from '../../assets/src/result.js';
import type { QueryOutcome } from '../../assets/src/result.js';
import { request, startTestServer } from '../server/helpers.js';
import type { TestServer } from '../server/helpers.js';

export const HOSTS = 50;
export const MINUTES = 60;
/** The first row's time: a whole hour, in seconds. */
export const START_S = 1_764_340_000 - (1_764_340_000 % 3600);

/** usage_user of a host at a minute: distinct per host, varying in time. */
export const usage = (host: number, minute: number): number => host + Math.round(Math.sin(minute / 5) * 3000) / 1000;

/** Line protocol of `cpu` (50 hosts, a minute apart for an hour) and `mem` (one series). */
export function lineProtocol(startS = START_S): string {
  const lines: string[] = [];
  for (let m = 0; m < MINUTES; m++) {
    for (let h = 0; h < HOSTS; h++) lines.push(`cpu,host=h${String(h).padStart(2, '0')},region=r${h % 3} usage_user=${usage(h, m)},usage_idle=${50 + h}i ${startS + m * 60}`);
    lines.push(`mem,host=h00 used=${1000 + m * 10.5},free=${500 - m}i ${startS + m * 60 + 30}`);
  }
  return lines.join('\n');
}

export async function startDataServer(startS = START_S): Promise<TestServer> {
  const server = await startTestServer();
  const r = await request(server.base, 'POST', '/write?precision=s', { body: lineProtocol(startS) });
  assert.equal(r.status, 204, r.text());
  return server;
}

/** A query's answer as the page reads it: Arrow IPC (the default), or the JSON answer. */
export async function pageAnswer(server: TestServer, query: string, format: 'arrow' | 'json' = 'arrow'): Promise<QueryOutcome> {
  const r = await request(server.base, 'POST', '/query_exp', {
    body: JSON.stringify({ query, date_format: 'js' }),
    headers: format === 'arrow' ? { Accept: 'application/vnd.apache.arrow.stream' } : {},
  });
  assert.equal(r.status, 200, r.text());
  if (format === 'json') return readJson(r.text());
  const scanned = r.headers['x-scanned-rows-count'];
  return readArrow(new Uint8Array(r.body), scanned === undefined ? null : Number(scanned));
}

/** ISO text of a time of the data (seconds). */
export const iso = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
