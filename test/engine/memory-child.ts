// The embedded engine under a memory budget, as a child process of memory-rss.test.ts (which
// samples its RSS from /proc and may SIGKILL it). Rows have closed-form values: row i has time
// T0 + i s and v = (i mod 1000) / 1000, so answers can be checked without an oracle.
//   node memory-child.js ingest <dataDir> <rows> <memoryLimit> <durability> <queries: 0|1>
//     prints `acked <rows>` after each acknowledged insert, then the query answers as JSON
//   node memory-child.js reopen <dataDir> <memoryLimit>
//     prints what open read and took, and the answers over what is there, as JSON
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Database } from '../../engine/index.js';
import type { Durability, QueryResult } from '../../engine/index.js';

export const T0 = 1_600_000_000_000_000_000n;
export const BATCH = 100_000;
export const COLUMNS = ['a', 'b', 'c', 'v'] as const;
/** Where the GROUP BY 1min and SELECT * ranges of `ingest` start (rows from T0, which is 40 s past a minute: minute-aligned). */
export const GROUP_FROM = 12_000_020;
export const STAR_FROM = 20_000_017;

const SEC = 1_000_000_000n;

/** The query texts `ingest` answers (an ISO time `at` seconds after T0). */
export function queries(): string[] {
  const at = (s: number) => new Date(Number(T0 / 1_000_000n) + s * 1000).toISOString().replace('.000Z', '');
  return [
    'SELECT count(v), sum(v), min(v), max(v) FROM t',
    'SELECT count(v), sum(v) FROM t WHERE v > 0.5',
    `SELECT count(v), sum(v) FROM t IN RANGE(${at(GROUP_FROM)}, +1h) GROUP BY 1min`,
    `SELECT * FROM t IN RANGE(${at(STAR_FROM)}, +10s)`,
  ];
}

/** A result as JSON-safe plain arrays (bigints as strings). */
export function plain(r: QueryResult): unknown {
  return r.tables.map((t) => ({
    timestamps: t.timestamps === null ? null : Array.from(t.timestamps as BigInt64Array, String),
    columns: t.columns.map((c) => Array.from(c.values as ArrayLike<unknown>, (v) => (typeof v === 'bigint' ? String(v) : v))),
  }));
}

function rchar(): number {
  return Number(/rchar:\s+(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

async function ingest(dataDir: string, rows: number, memoryLimit: number, durability: Durability, withQueries: boolean): Promise<void> {
  const db = await Database.open({ dataDir, memoryLimit, durability, sweepIntervalMs: 0 });
  await db.createTable('t', COLUMNS.map((name) => ({ name, type: 'DOUBLE' as const })));
  const ts = new BigInt64Array(BATCH);
  const v = new Float64Array(BATCH);
  const a = new Float64Array(BATCH);
  for (let at = 0; at < rows; at += BATCH) {
    for (let k = 0; k < BATCH; k++) {
      ts[k] = T0 + BigInt(at + k) * SEC;
      v[k] = ((at + k) % 1000) / 1000;
      a[k] = (at + k) % 7;
    }
    await db.insert('t', { $timestamp: ts, a, b: v, c: a, v });
    process.stdout.write(`acked ${at + BATCH}\n`);
  }
  if (withQueries) {
    const answers: unknown[] = [];
    for (const q of queries()) answers.push(plain(await db.query(q)));
    process.stdout.write(`${JSON.stringify({ answers, memory: db.figures().memory })}\n`);
  }
  await db.close();
}

async function reopen(dataDir: string, memoryLimit: number): Promise<void> {
  const before = rchar();
  const t0 = performance.now();
  const db = await Database.open({ dataDir, memoryLimit, sweepIntervalMs: 0 });
  const openMs = performance.now() - t0;
  const openRead = rchar() - before;
  const afterOpen = db.figures().memory;
  const answer = plain(await db.query('SELECT count(v), sum(v), max($timestamp) FROM t'));
  process.stdout.write(`${JSON.stringify({ openMs, openRead, afterOpen, answer, memory: db.figures().memory })}\n`);
  await db.close();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [mode, dataDir, ...rest] = process.argv.slice(2);
  if (mode === 'ingest') await ingest(dataDir, Number(rest[0]), Number(rest[1]), rest[2] as Durability, rest[3] === '1');
  else if (mode === 'reopen') await reopen(dataDir, Number(rest[0]));
  else throw new Error(`unknown mode ${mode}`);
}
