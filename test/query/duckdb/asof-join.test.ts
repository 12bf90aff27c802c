// [LEFT | RIGHT | FULL] ASOF JOIN against DuckDB's ASOF JOIN / ASOF LEFT JOIN on random tables that
// share some times (ties across tables), with duplicate times inside a table (the last row of a
// tie in insertion order is the match: DuckDB matches on (ts, seq) to say so), nulls and NaN;
// plain rows (SELECT *), several joined tables, IN RANGE (lookups reach before it), WHERE on both
// sides, and aggregates with GROUP BY on top. RIGHT is LEFT mirrored (the joined table drives);
// FULL is every table's rows, a row dropped where the FROM table has a row at its very time.
// Set QUERY_SEED to replay a seed.
import { after, before, describe, it } from 'node:test';
import { executeQuery } from '../../../engine/query/index.js';
import { FakeCatalog } from '../fake-catalog.js';
import { timeText } from '../query-model.js';
import { BASE, pick, randomTable, rng, SPAN } from '../random-data.js';
import type { Rng } from '../random-data.js';
import type { RefTable } from '../reference.js';
import type { Oracle } from './oracle.js';
import { assertSameRows, loadTable, openOracle, oracleRows, wrapInt64 } from './oracle.js';

const SEEDS = process.env.QUERY_SEED === undefined ? [51, 52, 53, 54, 55] : [Number(process.env.QUERY_SEED)];
const QUERIES = 40;
const COLUMNS = ['dv', 'iv', 'sv', 'sym', 'bv', 'tv'];
const HOUR = 3_600_000_000_000n;

/** The as-of key: (ts, seq) in one HUGEINT, so the last row of a tie is the one matched. */
const key = (alias: string, isProbe: boolean): string => `(${alias}.ts::HUGEINT * 1000000 + ${isProbe ? '999999' : `${alias}.seq`})`;
const all = (alias: string): string => COLUMNS.map((c) => `${alias}.${c}`).join(', ');

interface JoinCase {
  readonly svc: string;
  /** DuckDB's query giving the expected rows. */
  readonly rows: string;
  readonly tables: readonly string[];
}

/**
 * The joined rows of `type` over `tables` (FROM first) as DuckDB SQL: the output time `ts`, `side`
 * and `seq` (the output order), then each table's row time and columns as c<i>_ts, c<i>_<col>.
 */
function joinedRows(type: 'inner' | 'left' | 'right' | 'full', tables: readonly string[]): string {
  const cols = (alias: string, i: number): string => [`${alias}.ts AS c${i}_ts`, ...COLUMNS.map((c) => `${alias}.${c} AS c${i}_${c}`)].join(', ');
  const select = (aliases: readonly string[]): string => aliases.map((a, i) => cols(a, i)).join(', ');
  if (type === 'right') {
    const [l, r] = tables;
    return `SELECT b.ts, 0 AS side, b.seq, ${select(['a', 'b'])} FROM ${r} b ASOF LEFT JOIN ${l} a ON ${key('b', true)} >= ${key('a', false)}`;
  }
  if (type === 'full') {
    const [l, r] = tables;
    return `SELECT a.ts, 0 AS side, a.seq, ${select(['a', 'b'])} FROM ${l} a ASOF LEFT JOIN ${r} b ON ${key('a', true)} >= ${key('b', false)} ` +
      `UNION ALL SELECT b.ts, 1 AS side, b.seq, ${select(['a', 'b'])} FROM ${r} b ASOF LEFT JOIN ${l} a ON ${key('b', true)} >= ${key('a', false)} ` +
      `WHERE b.ts NOT IN (SELECT ts FROM ${l})`;
  }
  const aliases = tables.map((_, i) => `t${i}`);
  const joins = tables.slice(1).map((t, i) => `ASOF ${type === 'left' ? 'LEFT ' : ''}JOIN ${t} t${i + 1} ON ${key('t0', true)} >= ${key(`t${i + 1}`, false)}`).join(' ');
  return `SELECT t0.ts, 0 AS side, t0.seq, ${select(aliases)} FROM ${tables[0]} t0 ${joins}`;
}

function randomCase(r: Rng, names: readonly string[], times: readonly bigint[]): JoinCase {
  const type = pick(r, ['inner', 'left', 'left', 'right', 'full'] as const);
  const count = type === 'inner' || type === 'left' ? pick(r, [2, 2, 3]) : 2;
  const tables = [...names].sort(() => r() - 0.5).slice(0, count);
  const kind = type === 'inner' ? '' : `${type.toUpperCase()} `;
  const from = `${tables[0]} ${kind}ASOF JOIN ${tables.slice(1).join(', ')}`;
  let rows = joinedRows(type, tables);
  let range = '';
  if (r() < 0.4) {
    const at = (): bigint => (times.length > 0 && r() < 0.5 ? pick(r, times) : BASE + BigInt(Math.floor(r() * Number(SPAN / 1_000_000_000n))) * 1_000_000_000n);
    const [a, b] = [at(), at()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    range = ` IN RANGE(${timeText(a)}, ${timeText(b)})`;
    rows = `SELECT * FROM (${rows}) WHERE ts >= ${a} AND ts < ${b}`;
  }
  const q = tables;
  const x = r();
  if (x < 0.4) {
    // Plain rows: every column of every table, qualified.
    return { tables, svc: `SELECT * FROM ${from}${range}`, rows: `SELECT ts, ts AS t, ${tables.map((_, i) => COLUMNS.map((c) => `c${i}_${c}`).join(', ')).join(', ')} FROM (${rows}) ORDER BY ts, side, seq` };
  }
  if (x < 0.7) {
    // WHERE over both tables, a few columns, an expression across them.
    const svc = `SELECT ${q[0]}.dv, ${q[1]}.iv, ${q[1]}.$timestamp, ${q[0]}.dv * 2 + ${q[1]}.dv FROM ${from}${range} WHERE ${q[1]}.iv > -5 OR ${q[0]}.sym = 'x'`;
    const sql = `SELECT ts, c0_dv, c1_iv, c1_ts, c0_dv * 2 + c1_dv FROM (${rows}) WHERE c1_iv > -5 OR c0_sym = 'x' ORDER BY ts, side, seq`;
    return { tables, svc, rows: sql };
  }
  // Aggregates over the joined rows, per hour.
  const svc = `SELECT count(${q[1]}.iv), sum(${q[1]}.iv), min(${q[0]}.tv), count(*) FROM ${from}${range} GROUP BY 1h`;
  const counts = tables.map((_, i) => COLUMNS.map((c) => `count(c${i}_${c})`).join(', ')).join(', ');
  const sql = `SELECT ts - ts % ${HOUR} AS b, count(c1_iv), ${wrapInt64('sum(c1_iv)')}, min(c0_tv), ${counts} FROM (${rows}) GROUP BY b ORDER BY b`;
  return { tables, svc, rows: sql };
}

describe('ASOF JOIN agrees with DuckDB', () => {
  let oracle: Oracle;
  before(async () => { oracle = await openOracle(); });
  after(() => oracle.close());

  for (const seed of SEEDS) {
    it(`seed ${seed}: inner, LEFT, RIGHT and FULL joins of two or three tables, ranges, WHERE and GROUP BY`, async () => {
      const r = rng(seed);
      const catalog = new FakeCatalog(1 + Math.floor(r() * 8));
      const tables: RefTable[] = [];
      for (const name of ['ta', 'tb', 'tc']) {
        // Tables of some size (empty ones would leave most joins untested), times shared between them.
        const rows = Math.floor(r() * 120) + (r() < 0.1 ? 0 : 8);
        const table = await randomTable(r, catalog, name, { shared: tables.flatMap((t) => t.rows.map((row) => row.ts)), rows });
        tables.push(table);
        await loadTable(oracle, table);
      }
      const times = tables.flatMap((t) => t.rows.map((row) => row.ts));
      for (let q = 0; q < QUERIES; q++) {
        const c = randomCase(r, tables.map((t) => t.name), times);
        assertSameRows(await executeQuery(catalog, c.svc, { now: 0n }), await oracleRows(oracle, c.rows), `seed ${seed}: ${c.svc}\n  ${c.rows}`);
      }
    });
  }
});
