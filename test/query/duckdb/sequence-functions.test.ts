// Row-sequence functions against DuckDB window functions on random tables (nulls, NaN, duplicate
// times, rows inserted out of order so late rows rewrite sealed batches): over rows in time order
// (ORDER BY seq), per GROUP BY column (PARTITION BY), per range (several ranges restart them),
// after WHERE, and over aggregates under GROUP BY duration (a window over the grouped rows).
// DuckDB's side states svc's rules: a zero time step makes a derivative NaN, int64 running sums
// wrap like int64 arithmetic. Set QUERY_SEED to replay a seed.
import { after, before, describe, it } from 'node:test';
import { executeQuery } from '../../../engine/query/index.js';
import { timeText } from '../query-model.js';
import { BASE, rng, SPAN } from '../random-data.js';
import type { Rng } from '../random-data.js';
import type { Oracle } from './oracle.js';
import { assertSameRows, loadRandomTables, openOracle, oracleRows, wrapInt64 } from './oracle.js';

const SEEDS = process.env.QUERY_SEED === undefined ? [21, 22, 23, 24] : [Number(process.env.QUERY_SEED)];
const NAN = "'nan'::DOUBLE";
const MINUTE = 60_000_000_000;
const HOUR = 3_600_000_000_000n;


/** DuckDB's derivative of `x` over the window `w` (times in `t`), per `unit` nanoseconds. */
function derivative(x: string, t: string, w: string, unit: number): string {
  const lag = (e: string): string => `lag(${e}) OVER ${w}`;
  return `CASE WHEN ${x} IS NULL OR ${lag(x)} IS NULL THEN NULL WHEN ${t} = ${lag(t)} THEN ${NAN} ` +
    `ELSE (${x} - ${lag(x)}) / ((${t} - ${lag(t)}) / ${unit}) END`;
}

const nonNegative = (d: string): string => `CASE WHEN (${d}) < 0 THEN NULL ELSE (${d}) END`;

/** [svc call, DuckDB expression over window names `w` (running) and `o` (ordered)], `t` = time. */
function rowCases(t: string): [string, string][] {
  return [
    ['cumsum(dv)', 'sum(dv) OVER w'],
    ['cumulative_sum(iv)', wrapInt64('sum(iv) OVER w')],
    ['ma(dv, 3)', 'avg(dv) OVER (o ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)'],
    ['moving_average(iv, 2)', 'avg(iv) OVER (o ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)'],
    ['moving_average(dv * 2, 1)', 'dv * 2'],
    ['delta(dv)', 'dv - lag(dv) OVER o'],
    ['delta(iv)', 'iv - lag(iv) OVER o'],
    ['delta(tv)', 'tv - lag(tv) OVER o'],
    ['delta($timestamp)', `${t} - lag(${t}) OVER o`],
    ['derivative(dv)', derivative('dv', t, 'o', 1e9)],
    ['derivative(iv, 1min)', derivative('iv', t, 'o', MINUTE)],
    ['non_negative_derivative(dv, 1h)', nonNegative(derivative('dv', t, 'o', 3.6e12))],
    ['lag(dv)', 'lag(dv) OVER o'],
    ['lag(iv, 3)', 'lag(iv, 3) OVER o'],
    ['lag(sv, 2)', 'lag(sv, 2) OVER o'],
    ['lag(sym)', 'lag(sym) OVER o'],
    ['lag(bv, 0)', 'bv'],
    ['lag($timestamp)', `lag(${t}) OVER o`],
    // `cs` is cumsum(dv), computed in a subquery (DuckDB does not nest window calls).
    ['delta(cumsum(dv))', 'cs - lag(cs) OVER o'],
    ['round(ma(dv, 4), 1)', 'round(avg(dv) OVER (o ROWS BETWEEN 3 PRECEDING AND CURRENT ROW), 1)'],
  ];
}

/** Ranges cutting the data somewhere; the first a short one, the second a long one. */
function randomRanges(r: Rng): { from: bigint; to: bigint }[] {
  const at = (share: number): bigint => BASE + BigInt(Math.floor(Number(SPAN / 1_000_000_000n) * share)) * 1_000_000_000n;
  const a = r() * 0.5;
  return [{ from: at(a), to: at(a + 0.1) }, { from: at(r() * 0.3), to: at(0.6 + r() * 0.4) }];
}

describe('row-sequence functions agree with DuckDB window functions', () => {
  let oracle: Oracle;
  before(async () => { oracle = await openOracle(); });
  after(() => oracle.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: over rows, per partition, per range, after WHERE, over aggregates`, async () => {
      const r = rng(seed);
      const { catalog, tables } = await loadRandomTables(oracle, r);
      const check = async (text: string, sql: string): Promise<void> => {
        assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
      };
      for (const { name } of tables) {
        const [a, b] = randomRanges(r);
        const withCumsum = (partition: string): string =>
          `(SELECT *, sum(dv) OVER (${partition} ORDER BY seq ROWS UNBOUNDED PRECEDING) AS cs FROM ${name})`;
        for (const [svc, duck] of rowCases('ts')) {
          await check(`SELECT ${svc} FROM ${name}`,
            `SELECT ts, ${duck} FROM ${withCumsum('')} WINDOW o AS (ORDER BY seq), w AS (o ROWS UNBOUNDED PRECEDING) ORDER BY seq`);
          await check(`SELECT sym, ${svc} FROM ${name} GROUP BY sym`,
            `SELECT ts, sym, ${duck} FROM ${withCumsum('PARTITION BY sym')} WINDOW o AS (PARTITION BY sym ORDER BY seq), w AS (o ROWS UNBOUNDED PRECEDING) ` +
            'ORDER BY sym NULLS LAST, seq');
        }
        // Several ranges restart the sequences; WHERE runs before them.
        const ranged = `(SELECT *, 0 AS r FROM ${name} WHERE ts >= ${a.from} AND ts < ${a.to} UNION ALL ` +
          `SELECT *, 1 AS r FROM ${name} WHERE ts >= ${b.from} AND ts < ${b.to})`;
        for (const [svc, duck] of rowCases('ts').slice(0, 12)) {
          await check(`SELECT ${svc} FROM ${name} IN [RANGE(${timeText(a.from)}, ${timeText(a.to)}), RANGE(${timeText(b.from)}, ${timeText(b.to)})] WHERE iv > -5`,
            `SELECT ts, ${duck} FROM ${ranged} WHERE iv > -5 WINDOW o AS (PARTITION BY r ORDER BY seq), w AS (o ROWS UNBOUNDED PRECEDING) ORDER BY r, seq`);
        }
        for (const [svc, duck] of rowCases('ts').slice(0, 6)) {
          await check(`SELECT iv, ${svc} FROM ${name} GROUP BY iv ORDER BY 2 DESC LIMIT 5`,
            `SELECT ts, iv, ${duck} FROM ${name} WINDOW o AS (PARTITION BY iv ORDER BY seq), w AS (o ROWS UNBOUNDED PRECEDING) ` +
            `ORDER BY 3 DESC NULLS FIRST, iv NULLS LAST, seq LIMIT 5`);
        }
        // Over aggregates: the window runs over the buckets (per key with GROUP BY sym).
        const grouped = (keys: string): string => `(SELECT ts - ts % ${HOUR} AS b${keys}, sum(dv) AS s, max(iv) AS m, count(*) AS c FROM ${name} GROUP BY ALL)`;
        const overGroups: [string, string][] = [
          ['cumsum(count(*))', 'sum(c) OVER w'],
          ['delta(max(iv))', 'm - lag(m) OVER o'],
          ['derivative(max(iv), 1min)', derivative('m', 'b', 'o', MINUTE)],
          ['non_negative_derivative(sum(dv))', nonNegative(derivative('s', 'b', 'o', 1e9))],
          ['moving_average(sum(dv), 3)', 'avg(s) OVER (o ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)'],
          ['lag(max(iv), 2)', 'lag(m, 2) OVER o'],
          ['max(iv) - lag(max(iv))', 'm - lag(m) OVER o'],
        ];
        for (const [svc, duck] of overGroups) {
          await check(`SELECT ${svc} FROM ${name} GROUP BY 1h`,
            `SELECT b, ${duck} FROM ${grouped('')} WINDOW o AS (ORDER BY b), w AS (o ROWS UNBOUNDED PRECEDING) ORDER BY b`);
          await check(`SELECT sym, ${svc} FROM ${name} GROUP BY 1h, sym`,
            `SELECT b, sym, ${duck} FROM ${grouped(', sym')} WINDOW o AS (PARTITION BY sym ORDER BY b), w AS (o ROWS UNBOUNDED PRECEDING) ORDER BY b, sym NULLS LAST`);
        }
      }
    });
  }
});
