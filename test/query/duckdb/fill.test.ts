// GROUP BY duration FILL(NULL | PREV | LINEAR | value) against DuckDB: the buckets come from
// generate_series over the range (or the data's first to last bucket), crossed with the key series
// met, LEFT JOINed with the real groups; PREV is an ASOF join to the last real bucket of the series
// at or before, LINEAR two of them (before and after) and the line between (int64 in HUGEINT
// arithmetic, truncating). Random tables with nulls, NaN and duplicate times; set QUERY_SEED to
// replay a seed.
import { after, before, describe, it } from 'node:test';
import { bucketStart, parseDurationText } from '../../../grammar/index.js';
import type { DurationValue } from '../../../grammar/index.js';
import { executeQuery } from '../../../engine/query/index.js';
import { timeText } from '../query-model.js';
import { BASE, int, pick, rng, SPAN } from '../random-data.js';
import type { Rng } from '../random-data.js';
import type { Oracle } from './oracle.js';
import { assertSameRows, loadRandomTables, openOracle, oracleRows, wrapInt64 } from './oracle.js';

const SEEDS = process.env.QUERY_SEED === undefined ? [41, 42, 43] : [Number(process.env.QUERY_SEED)];
const QUERIES_PER_TABLE = 25;
const BUCKETS = ['1h', '7min', '1d', '6h'];
/** The outputs: [svc, DuckDB over the grouped rows, type]; max over iv (svc's max skips NaN, DuckDB's does not). */
const COLUMNS: readonly [string, string, 'int' | 'double'][] = [
  ['count(dv)', 'count(dv)', 'int'], ['sum(dv)', 'sum(dv)', 'double'], ['max(iv)', 'max(iv)', 'int'], ['avg(dv)', 'avg(dv)', 'double'],
];
const NULL_KEY = "'\\u0000null'";

interface Shape {
  readonly bucket: string;
  readonly d: DurationValue;
  readonly range: { from: bigint; to: bigint } | null;
  readonly hasKey: boolean;
  readonly fill: string;
}

function randomShape(r: Rng, times: readonly bigint[]): Shape {
  const hasRange = r() < 0.7;
  // Over the data's whole span (a hundred days), coarse buckets only.
  const bucket = pick(r, hasRange ? BUCKETS : ['1d', '6h']);
  const d = parseDurationText(bucket) as DurationValue;
  const at = (): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) : BASE + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n))) * 1_000_000_000n);
  let range: { from: bigint; to: bigint } | null = null;
  if (hasRange) {
    const a = at();
    // Short ranges: a few hundred buckets at most.
    const b = a + BigInt(int(r, 1, 200)) * (d.nanos / 3n);
    range = { from: a, to: b };
  }
  const fill = pick(r, ['NULL', 'PREV', 'LINEAR', '0', '-2', '7']);
  return { bucket, d, range, hasKey: r() < 0.4, fill };
}

/** The real groups of the shape over `table`, made once per query (DuckDB would evaluate a subquery per use). */
function realGroupsSql(table: string, s: Shape): string {
  const inRange = s.range === null ? 'TRUE' : `ts >= ${s.range.from} AND ts < ${s.range.to}`;
  const key = s.hasKey ? `, coalesce(sym, ${NULL_KEY}) AS k` : ', 0 AS k';
  return `CREATE OR REPLACE TEMP TABLE real AS SELECT ts - ts % ${s.d.nanos} AS b${key}, ` +
    `${COLUMNS.map(([, duck], i) => `${duck} AS c${i}`).join(', ')}, 1 AS present FROM ${table} WHERE ${inRange} GROUP BY ALL`;
}

/** DuckDB's answer to the shape, over the table `real`. */
function oracleSql(s: Shape): string {
  const w = s.d.nanos;
  const real = 'real';
  const axis = s.range === null
    ? `(SELECT unnest(generate_series(min(b), max(b), ${w})) AS b FROM ${real})`
    : `(SELECT unnest(generate_series(${bucketStart(s.range.from, s.d)}::BIGINT, ${s.range.to - 1n}::BIGINT, ${w}::BIGINT)) AS b)`;
  // Key series are those the range has rows of; without a key column there is always one.
  const series = s.hasKey ? `(SELECT DISTINCT k FROM ${real})` : '(SELECT 0 AS k)';
  const grid = `(SELECT a.b, kk.k FROM ${axis} a CROSS JOIN ${series} kk)`;
  const keyOut = s.hasKey ? `, CASE WHEN g.k = ${NULL_KEY} THEN NULL ELSE g.k END` : '';
  const value = (i: number, type: 'int' | 'double'): string => {
    const real = `x.c${i}`;
    switch (s.fill) {
      case 'NULL': return real;
      case 'PREV': return `p.c${i}`;
      case 'LINEAR': {
        const line = type === 'int'
          ? wrapInt64(`p.c${i} + ((n.c${i} - p.c${i})::HUGEINT * (g.b - p.b)) // (n.b - p.b)`)
          : `p.c${i} + (n.c${i} - p.c${i}) * (g.b - p.b)::DOUBLE / (n.b - p.b)::DOUBLE`;
        return `CASE WHEN x.present = 1 THEN ${real} WHEN p.b IS NULL OR n.b IS NULL THEN NULL ELSE ${line} END`;
      }
      default: return `CASE WHEN x.present = 1 THEN ${real} ELSE ${type === 'int' ? s.fill : `${s.fill}::DOUBLE`} END`;
    }
  };
  return `SELECT g.b${keyOut}, ${COLUMNS.map(([, , type], i) => value(i, type)).join(', ')} FROM ${grid} g ` +
    `LEFT JOIN ${real} x ON x.b = g.b AND x.k = g.k ` +
    `ASOF LEFT JOIN ${real} p ON p.k = g.k AND g.b >= p.b ` +
    `ASOF LEFT JOIN ${real} n ON n.k = g.k AND g.b <= n.b ` +
    `ORDER BY g.b${s.hasKey ? `, CASE WHEN g.k = ${NULL_KEY} THEN NULL ELSE g.k END NULLS LAST` : ''}`;
}

describe('FILL agrees with DuckDB (generate_series, LEFT and ASOF joins)', () => {
  let oracle: Oracle;
  before(async () => { oracle = await openOracle(); });
  after(() => oracle.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: NULL, PREV, LINEAR and numbers, with and without a range and a key column`, async () => {
      const r = rng(seed);
      const { catalog, tables } = await loadRandomTables(oracle, r);
      for (const { name, rows } of tables) {
        const times = rows.map((row) => row.ts);
        for (let q = 0; q < QUERIES_PER_TABLE; q++) {
          const s = randomShape(r, times);
          const range = s.range === null ? '' : ` IN RANGE(${timeText(s.range.from)}, ${timeText(s.range.to)})`;
          const text = `SELECT ${s.hasKey ? 'sym, ' : ''}${COLUMNS.map(([svc]) => svc).join(', ')} FROM ${name}${range} ` +
            `GROUP BY ${s.bucket}${s.hasKey ? ', sym' : ''} FILL(${s.fill})`;
          const sql = oracleSql(s);
          await oracle.connection.run(realGroupsSql(name, s));
          assertSameRows(await executeQuery(catalog, text, { now: 0n }), await oracleRows(oracle, sql), `seed ${seed}: ${text}\n  ${sql}`);
        }
      }
    });
  }
});
