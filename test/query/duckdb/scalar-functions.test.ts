// Scalar functions against DuckDB on random tables (nulls, NaN, duplicate times, int64 near 2^60):
// each function alone, nested in expressions and WHERE, around aggregates (`round(avg(dv), 2)`)
// and inside them (`sum(abs(dv))`). The DuckDB side spells out svc's rules where DuckDB errors or
// differs: sqrt/ln/log10 below zero give NaN and ln(0) -∞ (DuckDB refuses), sign keeps NaN and
// the argument's type, ceil/floor of an int64 stay int64. Set QUERY_SEED to replay a seed.
import { after, before, describe, it } from 'node:test';
import { executeQuery } from '../../../engine/query/index.js';
import { rng } from '../random-data.js';
import type { Oracle } from './oracle.js';
import { assertSameRows, loadRandomTables, openOracle, oracleRows } from './oracle.js';

const SEEDS = process.env.QUERY_SEED === undefined ? [11, 12, 13, 14] : [Number(process.env.QUERY_SEED)];
const NAN = "'nan'::DOUBLE";
const log = (fn: string, x: string): string => `CASE WHEN ${x} < 0 THEN ${NAN} WHEN ${x} = 0 THEN '-inf'::DOUBLE ELSE ${fn}(${x}) END`;

/** [svc expression, DuckDB expression] over one row. */
const ROW_CASES: readonly [string, string][] = [
  ['abs(dv)', 'abs(dv)'],
  ['abs(iv)', 'abs(iv)'],
  ['abs(-dv * 2)', 'abs(-dv * 2)'],
  ['ceil(dv)', 'ceil(dv)'],
  ['floor(dv)', 'floor(dv)'],
  ['ceil(iv)', 'iv'],
  ['floor(iv - 3)', 'iv - 3'],
  ['round(dv)', 'round(dv)'],
  ['round(dv * 1.37, 1)', 'round(dv * 1.37, 1)'],
  ['round(dv * 13.1, -1)', 'round(dv * 13.1, -1)'],
  ['round(iv)', 'iv'],
  ['round(iv, -1)', 'round(iv, -1)'],
  ['round(iv * 7, -2)', 'round(iv * 7, -2)'],
  ['sqrt(dv)', `CASE WHEN dv < 0 THEN ${NAN} ELSE sqrt(dv) END`],
  ['sqrt(iv)', `CASE WHEN iv < 0 THEN ${NAN} ELSE sqrt(iv) END`],
  ['exp(dv)', 'exp(dv)'],
  ['ln(dv)', log('ln', 'dv')],
  ['log10(iv)', log('log10', 'iv')],
  ['log10(dv + 2)', log('log10', '(dv + 2)')],
  ['pow(dv, 2)', 'pow(dv, 2)'],
  ['pow(2, dv)', 'pow(2, dv)'],
  ['pow(dv, 0.5)', 'pow(dv, 0.5)'],
  ['pow(iv, 2)', 'pow(iv, 2)'],
  ['sign(dv)', `CASE WHEN isnan(dv) THEN ${NAN} ELSE sign(dv)::DOUBLE END`],
  ['sign(iv)', 'sign(iv)::BIGINT'],
  ['coalesce(dv, iv, 0)', 'coalesce(dv, iv::DOUBLE, 0)'],
  ['coalesce(iv, 7)', 'coalesce(iv, 7)'],
  ['coalesce(NULL, sv, sym)', 'coalesce(sv, sym)'],
  ['coalesce(bv, bv)', 'bv'],
  ['round(abs(dv) * 10 / 3, 2) + sign(iv)', 'round(abs(dv) * 10 / 3, 2) + sign(iv)'],
];

/**
 * [svc WHERE condition, DuckDB condition]; comparisons with null are false in both, and with NaN
 * false in svc (JavaScript) where DuckDB orders NaN above every number.
 */
const WHERE_CASES: readonly [string, string][] = [
  ['abs(dv) > 1', 'abs(dv) > 1 AND NOT isnan(dv)'],
  ['round(dv) = 2', 'round(dv) = 2'],
  ['coalesce(iv, 0) >= 0', 'coalesce(iv, 0) >= 0'],
  ['sqrt(abs(iv)) < 3', 'sqrt(abs(iv)) < 3'],
];

const HOUR = 3_600_000_000_000n;

/** [svc select list over groups, DuckDB select list]: scalars around aggregates and inside them. */
const GROUP_CASES: readonly [string, string][] = [
  ['round(avg(dv), 2)', 'round(avg(dv), 2)'],
  ['abs(sum(dv)), sqrt(abs(min(iv)))', 'abs(sum(dv)), sqrt(abs(min(iv)))'],
  ['sum(abs(dv)), count(sqrt(dv))', 'sum(abs(dv)), count(dv)::BIGINT'],
  ['coalesce(max(iv), -1), round(sum(round(dv)) / 3, 1)', 'coalesce(max(iv), -1), round(sum(round(dv)) / 3, 1)'],
];

describe('scalar functions agree with DuckDB', () => {
  let oracle: Oracle;
  before(async () => { oracle = await openOracle(); });
  after(() => oracle.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: alone, nested, in WHERE, around and inside aggregates`, async () => {
      const r = rng(seed);
      const { catalog, tables } = await loadRandomTables(oracle, r);
      for (const { name } of tables) {
        for (const [svc, duck] of ROW_CASES) {
          const text = `SELECT ${svc} FROM ${name}`;
          const sql = `SELECT ts, ${duck} FROM ${name} ORDER BY seq`;
          assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
        }
        for (const [svc, duck] of WHERE_CASES) {
          const text = `SELECT dv, iv FROM ${name} WHERE ${svc}`;
          const sql = `SELECT ts, dv, iv FROM ${name} WHERE ${duck} ORDER BY seq`;
          assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
        }
        for (const [svc, duck] of GROUP_CASES) {
          const text = `SELECT ${svc} FROM ${name} GROUP BY 1h`;
          const sql = `SELECT ts - ts % ${HOUR} AS b, ${duck} FROM ${name} GROUP BY b ORDER BY b`;
          assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
        }
      }
    });
  }
});
