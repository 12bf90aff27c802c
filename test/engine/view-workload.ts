// The workload of the materialized-view differential tests (SPEC §15), shared by the single-node
// test, the SIGKILL test and the cluster test: a source table, views of several shapes over it
// (buckets of minutes to a month, GROUP BY columns, WHERE, every aggregate family), and rounds
// of query texts — in-order rows, late rows, exact duplicates, nulls, NaN, DELETEs (ranges, a
// condition, DUPLICATE), an ADD COLUMN and views created over data already there. Each round is a
// pure function of the seed, so a failure names the seed that replays it. `compare` checks that
// every view holds exactly what its SELECT answers over the source (doubles to rounding: sums
// follow the batch layout, SPEC §6).
import type { QueryResult } from '../../engine/index.js';
import { prng } from '../prng.js';
import type { Rng } from '../prng.js';

export const SOURCE = 'src';
const T0 = Date.UTC(2024, 0, 1) / 1000;
const HOSTS = ["'h1'", "'h2'", "'h3'", 'NULL'];
const WORDS = ["'alpha'", "'beta'", "'gamma'", "'delta'", 'NULL'];
/** The round that adds column `w` to the source, and the round that creates a view over it. */
export const ADD_COLUMN_ROUND = 3;

export interface ViewCase {
  readonly name: string;
  /** The round before which it is created (0: before any row). */
  readonly round: number;
  readonly bucket: string;
  readonly keys: readonly string[];
  /** Aggregate items as written (with their AS names). */
  readonly items: readonly string[];
  /** The view's column of each item: its AS name, or its text. */
  readonly columns: readonly string[];
  readonly where: string | null;
}

export const VIEWS: readonly ViewCase[] = [
  view('v_host_1h', 0, '1h', ['host'], ['avg(v)', 'min(v)', 'max(v)', 'count(v)', 'sum(n)', 'first(v)', 'last(v)', 'count($timestamp) AS rows'], null),
  view('v_day', 0, '1d', [], ['count(n)', 'sum(v)', 'sample_variance(v)', 'population_stddev(v)', 'spread(n)', 'abs_max(v)', 'min(n)', 'max(n)', 'last(word)'], "host != 'h2'"),
  view('v_word_30min', 1, '30min', ['word'], ['distinct_count(host)', 'adjacent_count(host)', 'first(host)', 'last(n)', 'sum_of_squares(v)', 'quadratic_mean(v)', 'max(b)'], 'n > 0'),
  view('v_month', 2, '1mon', ['host', 'b'], ['skewness(v)', 'kurtosis(v)', 'population_variance(n)', 'avg(n)', 'count(word)'], null),
  view('v_week_w', ADD_COLUMN_ROUND + 1, '1w', ['host'], ['max(w)', 'count(w)', 'avg(w * 2 + v) AS mix'], 'w >= 0'),
];

function view(name: string, round: number, bucket: string, keys: string[], items: string[], where: string | null): ViewCase {
  const columns = items.map((i) => / AS (\w+)$/.exec(i)?.[1] ?? i.replace(/ /g, ''));
  return { name, round, bucket, keys, items, columns, where };
}

/** CREATE TABLE of the source. */
export const CREATE_SOURCE = `CREATE TABLE ${SOURCE} (v DOUBLE, n INT64, host SYMBOL, word STRING, b BOOLEAN) SHARD_SIZE 2d`;

/** CREATE MATERIALIZED VIEW [IF NOT EXISTS] of `v`. */
export function createView(v: ViewCase, ifNotExists = false): string {
  return `CREATE MATERIALIZED VIEW ${ifNotExists ? 'IF NOT EXISTS ' : ''}${v.name} AS SELECT ${v.items.join(', ')} FROM ${SOURCE}${v.where === null ? '' : ` WHERE ${v.where}`} GROUP BY ${[v.bucket, ...v.keys].join(', ')}`;
}

/** The SELECT `v` is defined by, run on the source: its GROUP BY columns, then its aggregates. */
export function sourceQuery(v: ViewCase): string {
  return `SELECT ${[...v.keys, ...v.items].join(', ')} FROM ${SOURCE}${v.where === null ? '' : ` WHERE ${v.where}`} GROUP BY ${[v.bucket, ...v.keys].join(', ')}`;
}

/** The same columns read from the view. */
export function viewQuery(v: ViewCase): string {
  return `SELECT ${[...v.keys, ...v.columns].map((c) => `"${c}"`).join(', ')} FROM ${v.name}`;
}

/** The query texts of round `k` (after the view creations due then). */
export function roundSteps(seed: number, k: number): string[] {
  const r = prng(seed * 7919 + k);
  const steps: string[] = [];
  const hasW = k >= ADD_COLUMN_ROUND;
  if (k === ADD_COLUMN_ROUND) steps.push(`ALTER TABLE ${SOURCE} ADD COLUMN w DOUBLE`);
  // In order: after every row of earlier rounds (each round covers about ten days).
  const start = T0 + k * 10 * 86_400;
  const rows: string[] = [];
  let t = start;
  for (let i = 0, n = 150 + Math.floor(r() * 250); i < n; i++) {
    t += 1 + Math.floor(r() * 4_000);
    rows.push(row(r, t, hasW));
  }
  steps.push(insert(rows, hasW));
  // Late rows anywhere before, and exact duplicates of rows of this round.
  const late = Array.from({ length: 30 + Math.floor(r() * 80) }, () => row(r, T0 + Math.floor(r() * (start - T0 + 1)), hasW));
  steps.push(insert(late, hasW));
  const copies = Array.from({ length: 5 + Math.floor(r() * 20) }, () => rows[Math.floor(r() * rows.length)]);
  steps.push(insert(copies, hasW));
  // DELETEs: a range, a condition, duplicates.
  for (let d = 0, n = 1 + Math.floor(r() * 2); d < n; d++) {
    const from = T0 + Math.floor(r() * (t - T0));
    const span = 600 + Math.floor(r() * 2 * 86_400);
    const where = pick(r, ['', " WHERE host = 'h1'", ' WHERE v > 0.7', ' WHERE DUPLICATE', ' WHERE DUPLICATE($timestamp, host)']);
    steps.push(`DELETE FROM ${SOURCE} IN RANGE(${iso(from)}, ${iso(from + span)})${where}`);
  }
  // More rows in order, after the DELETEs.
  steps.push(insert(Array.from({ length: 20 + Math.floor(r() * 40) }, () => row(r, (t += 1 + Math.floor(r() * 600)), hasW)), hasW));
  return steps;
}

function row(r: Rng, second: number, hasW: boolean): string {
  const nano = Math.floor(r() * 1e9);
  const v = r() < 0.1 ? 'NULL' : (r() * 2 - 0.5).toFixed(6);
  const n = r() < 0.1 ? 'NULL' : String(Math.floor(r() * 2_000) - 500);
  const b = pick(r, ['true', 'false', 'NULL']);
  const w = r() < 0.2 ? 'NULL' : (r() * 100).toFixed(3);
  return `(${iso(second)}.${String(nano).padStart(9, '0')}, ${v}, ${n}, ${pick(r, HOSTS)}, ${pick(r, WORDS)}, ${b}${hasW ? `, ${w}` : ''})`;
}

function insert(rows: readonly string[], hasW: boolean): string {
  return `INSERT INTO ${SOURCE} ($timestamp, v, n, host, word, b${hasW ? ', w' : ''}) VALUES ${rows.join(', ')}`;
}

function pick<T>(r: Rng, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

function iso(second: number): string {
  return new Date(second * 1000).toISOString().replace('.000Z', '');
}

/** Rows of a result as the check compares them: row time (ns, as text) and values (numbers, strings; NaN as null). */
export type Row = readonly [time: string, values: readonly (number | string | boolean | null)[]];

/**
 * What differs between the rows of view `v` and those of its SELECT over the source: empty when
 * they are equal (doubles to 1e-9 relative; everything else exactly), else one line per difference.
 */
export function compare(v: ViewCase, inView: readonly Row[], inSource: readonly Row[]): string[] {
  const keyed = (rows: readonly Row[]) => new Map(rows.map(([time, values]) => [`${time}|${values.slice(0, v.keys.length).join('|')}`, values]));
  const a = keyed(inView);
  const b = keyed(inSource);
  const problems: string[] = [];
  if (a.size !== inView.length) problems.push(`${v.name}: a bucket appears twice in the view`);
  for (const [key, expected] of b) {
    const got = a.get(key);
    if (got === undefined) { problems.push(`${v.name} misses ${key}: ${JSON.stringify(expected)}`); continue; }
    expected.forEach((x, i) => {
      if (!isSame(got[i], x)) problems.push(`${v.name} ${key} column ${[...v.keys, ...v.columns][i]}: view ${String(got[i])}, SELECT ${String(x)}`);
    });
  }
  for (const key of a.keys()) if (!b.has(key)) problems.push(`${v.name} has ${key}, which its SELECT does not: ${JSON.stringify(a.get(key))}`);
  return problems;
}

/** The rows of a result's first table (none: no rows), as `compare` takes them. */
export function resultRows(r: QueryResult): Row[] {
  const t = r.tables[0];
  if (t === undefined) return [];
  const rows: Row[] = [];
  for (let i = 0; i < t.rowCount; i++) {
    rows.push([t.timestamps[i].toString(), t.columns.map((c) => {
      if (c.nulls?.[i] === 1 || c.type === 'none') return null;
      const x = c.values[i];
      if (typeof x === 'bigint') return Number(x);
      if (typeof x === 'number') return c.type === 'boolean' ? x !== 0 : Number.isNaN(x) ? null : x;
      return x as string | null;
    })]);
  }
  return rows;
}

/** What differs between each view of `views` and its SELECT, read through `query` (all views caught up). */
export async function viewProblems(query: (text: string) => Promise<QueryResult>, views: readonly ViewCase[]): Promise<string[]> {
  const problems: string[] = [];
  for (const v of views) problems.push(...compare(v, resultRows(await query(viewQuery(v))), resultRows(await query(sourceQuery(v)))));
  return problems;
}

function isSame(x: unknown, y: unknown): boolean {
  if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return x === y;
}
