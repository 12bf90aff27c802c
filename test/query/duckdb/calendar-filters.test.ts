// WITH MONTHS IN / DAYS IN / TIME IN against DuckDB's EXTRACT predicates (month, isodow, the time
// of day as ts mod one day) on random tables spanning a hundred days: plain rows, aggregates per
// day, several ranges, WHERE beside them, wrap-around pairs (22:00 to 06:00, Saturday to
// Monday), and times of day taken from the rows themselves, so the exclusive end is exercised to
// the nanosecond. Set QUERY_SEED to replay a seed.
import { after, before, describe, it } from 'node:test';
import { executeQuery } from '../../../engine/query/index.js';
import { timeText } from '../query-model.js';
import { BASE, int, pick, rng, SPAN } from '../random-data.js';
import type { Rng } from '../random-data.js';
import type { Oracle } from './oracle.js';
import { assertSameRows, loadRandomTables, openOracle, oracleRows, wrapInt64 } from './oracle.js';

const SEEDS = process.env.QUERY_SEED === undefined ? [31, 32, 33, 34, 35] : [Number(process.env.QUERY_SEED)];
const DAY = 86_400_000_000_000n;
const QUERIES_PER_TABLE = 40;

interface Filter {
  readonly svc: string;
  readonly duck: string;
}

/** `x` in [a, b), wrapping when a > b, as SQL. */
const within = (x: string, a: string | bigint | number, b: string | bigint | number, isWrapped: boolean): string =>
  isWrapped ? `(${x} >= ${a} OR ${x} < ${b})` : `(${x} >= ${a} AND ${x} < ${b})`;

/** hh:mm:ss.fffffffff of nanoseconds since midnight. */
function timeOfDay(ns: bigint): string {
  const s = ns / 1_000_000_000n;
  const pad = (n: bigint): string => String(n).padStart(2, '0');
  return `${pad(s / 3600n)}:${pad((s / 60n) % 60n)}:${pad(s % 60n)}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
}

function randomFilters(r: Rng, times: readonly bigint[]): Filter[] {
  const filters: Filter[] = [];
  if (r() < 0.5) {
    // The data covers January to April: pairs around them, wrapped or not, 13 = through December.
    const [a, b] = distinctPair(r, () => int(r, 1, 5), () => int(r, 1, 13));
    filters.push({ svc: `WITH MONTHS IN (${a}, ${b})`, duck: within('month(make_timestamp(ts // 1000))', a, b, a > b) });
  }
  if (r() < 0.5) {
    const [a, b] = distinctPair(r, () => int(r, 1, 7), () => int(r, 1, 8));
    filters.push({ svc: `WITH DAYS IN (${a}, ${b})`, duck: within('isodow(make_timestamp(ts // 1000))', a, b, a > b) });
  }
  if (filters.length === 0 || r() < 0.5) {
    const clock = (): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) % DAY : BigInt(int(r, 0, 24 * 60)) * 60_000_000_000n);
    const [a, b] = distinctPair(r, clock, clock);
    filters.push({ svc: `WITH TIME IN (${timeOfDay(a)}, ${timeOfDay(b)})`, duck: within(`ts % ${DAY}`, a, b, a > b) });
  }
  return filters;
}

function distinctPair<T>(r: Rng, first: () => T, second: () => T): [T, T] {
  for (;;) {
    const a = first();
    const b = second();
    if (a !== b) return [a, b];
  }
}

/** A range over part or all of the data, bounds on rows' own times half the time. */
function randomRange(r: Rng, times: readonly bigint[]): { from: bigint; to: bigint } {
  const at = (): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) : BASE - DAY + BigInt(Math.floor(r() * Number((SPAN + 2n * DAY) / 1_000_000_000n))) * 1_000_000_000n);
  const a = at();
  const b = at();
  return a <= b ? { from: a, to: b } : { from: b, to: a };
}

describe('calendar filters agree with DuckDB EXTRACT predicates', () => {
  let oracle: Oracle;
  before(async () => { oracle = await openOracle(); });
  after(() => oracle.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: rows, aggregates, several ranges, wrap-around pairs`, async () => {
      const r = rng(seed);
      const { catalog, tables } = await loadRandomTables(oracle, r);
      for (const { name, rows } of tables) {
        const times = rows.map((row) => row.ts);
        for (let q = 0; q < QUERIES_PER_TABLE; q++) {
          const filters = randomFilters(r, times);
          const ranges = Array.from({ length: r() < 0.8 ? 1 : 2 }, () => randomRange(r, times));
          const svcRanges = ranges.map((g) => `RANGE(${timeText(g.from)}, ${timeText(g.to)})`);
          const inClause = `IN ${ranges.length === 1 ? svcRanges[0] : `[${svcRanges.join(', ')}]`} ${filters.map((f) => f.svc).join(' ')}`;
          const kept = filters.map((f) => f.duck).join(' AND ');
          const where = r() < 0.3 ? { svc: ' WHERE iv > 0', duck: ' AND iv > 0' } : { svc: '', duck: '' };
          // Each range on its own, in the order written (a row in two ranges appears twice).
          const parts = ranges.map((g, i) => `SELECT *, ${i} AS r FROM ${name} WHERE ts >= ${g.from} AND ts < ${g.to} AND ${kept}${where.duck}`).join(' UNION ALL ');
          const text = r() < 0.5
            ? `SELECT dv, sym FROM ${name} ${inClause}${where.svc}`
            : `SELECT count(*), sum(iv), min(tv) FROM ${name} ${inClause}${where.svc} GROUP BY day`;
          const sql = text.includes('GROUP BY')
            ? `SELECT ts - ts % ${DAY} AS b, ${['dv', 'iv', 'sv', 'sym', 'bv', 'tv'].map((c) => `count(${c})`).join(', ')}, ${wrapInt64('sum(iv)')}, min(tv) FROM (${parts}) GROUP BY r, b ORDER BY r, b`
            : `SELECT ts, dv, sym FROM (${parts}) ORDER BY r, seq`;
          assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
        }
      }
    });
  }
});
