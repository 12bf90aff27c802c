// Issue 19, the language beyond the core: ASOF JOIN of BENCH_ROWS trades × BENCH_ROWS/10 quotes
// (svc, a hand-written merge loop over svc's own batches, DuckDB's ASOF JOIN), GROUP BY 1min
// FILL(LINEAR) over a month with gaps, derivative(max(x)) GROUP BY 1min over the trades, and the
// parse + plan of a dashboard query whose literals change at each run (the parse-shape cache
// beside nearley's full Earley parse; a run is one refresh, so ms/run is per query). Answers are
// checked against the hand loops before timing.
import { catalogOf } from '../../engine/database.js';
import { Database, DEFAULT_QUERY_LIMITS } from '../../engine/index.js';
import { planSelect } from '../../engine/query/plan/plan-select.js';
import { parse, parseShaped } from '../../grammar/index.js';
import type { Select } from '../../grammar/index.js';
import { compareAnswers, svcAnswer } from '../answer.js';
import type { Answer } from '../answer.js';
import { benchRows, isoNs, makeSeries, MINUTE_NS, toBatches } from '../data.js';
import type { Series } from '../data.js';
import { defineCase } from '../harness.js';
import type { Suite } from '../harness.js';
import { handAsofSpread, handDerivativeOfMax, handFillLinear } from '../peers/hand-language.js';
import { duckAnswer, duckQuery } from '../peers/duckdb.js';
import { loadSideBySide } from './query.js';
import type { SideBySide } from './query.js';

export const ASOF_SUITE = 'language: ASOF JOIN';
export const FILL_SUITE = 'language: GROUP BY 1min FILL(LINEAR), a month with gaps';
export const DERIVATIVE_SUITE = 'language: derivative(max(price)) GROUP BY 1min';

const MONTH_FROM = '2021-03-01T00:00';
const MONTH_TO = '2021-04-01T00:00';

interface Fixture extends SideBySide {
  readonly trades: number;
  readonly quotes: number;
}

let fixture: Fixture | null = null;

/**
 * A month of one row per 10 s with gaps: every third hour-long stretch of the month is left out,
 * and a day in the middle, so interpolation spans both short and long gaps.
 */
function gappedMonth(): Series {
  const from = isoNs(MONTH_FROM);
  const step = 10_000_000_000n;
  const hour = 360n;
  const times: bigint[] = [];
  const values: number[] = [];
  const steps = (isoNs(MONTH_TO) - from) / step;
  for (let i = 0n; i < steps; i++) {
    const h = i / hour;
    if (h % 3n === 1n || (h >= 24n * 14n && h < 24n * 15n)) continue;
    times.push(from + i * step);
    values.push(Math.sin(Number(i) / 500) * 100 + Number(i % 7n));
  }
  return { rows: times.length, ts: BigInt64Array.from(times), columns: { v: Float64Array.from(values) } };
}

async function loadFixture(): Promise<Fixture> {
  if (fixture !== null) return fixture;
  const trades = makeSeries(benchRows(), ['price'], 3);
  const quotes = makeSeries(Math.floor(benchRows() / 10), ['bid'], 4);
  const pair = await loadSideBySide('language', [
    { name: 'trades', column: 'price', batches: toBatches(trades) },
    { name: 'quotes', column: 'bid', batches: toBatches(quotes) },
    { name: 'gaps', column: 'v', batches: toBatches(gappedMonth()) },
  ]);
  fixture = { ...pair, trades: trades.rows, quotes: quotes.rows };
  return fixture;
}

export async function releaseLanguageFixture(): Promise<void> {
  const f = fixture;
  fixture = null;
  await f?.close();
}

interface Spec {
  readonly suite: string;
  readonly svc: string;
  readonly duck: string;
  readonly hand: (db: Database) => Answer;
  readonly rows: (f: Fixture) => number;
  /** DuckDB's answer has no row times to compare (aggregates over the whole join). */
  readonly hasTimes: boolean;
}

const SPECS: readonly Spec[] = [
  {
    suite: ASOF_SUITE,
    svc: 'SELECT avg(price - bid) AS spread, count(bid) FROM trades ASOF JOIN quotes',
    duck: 'SELECT avg(t.price - q.bid) AS spread, count(q.bid) AS "count(bid)" FROM trades t ASOF JOIN quotes q ON t.ts >= q.ts',
    hand: handAsofSpread,
    rows: (f) => f.trades + f.quotes,
    hasTimes: false,
  },
  {
    suite: FILL_SUITE,
    svc: `SELECT avg(v) FROM gaps IN RANGE(${MONTH_FROM}, ${MONTH_TO}) GROUP BY 1min FILL(LINEAR)`,
    duck: 'WITH real AS (SELECT time_bucket(INTERVAL 1 minute, ts) AS b, avg(v) AS a FROM gaps ' +
      `WHERE ts >= '${MONTH_FROM.replace('T', ' ')}'::TIMESTAMP_NS AND ts < '${MONTH_TO.replace('T', ' ')}'::TIMESTAMP_NS GROUP BY b), ` +
      `axis AS (SELECT unnest(generate_series('${MONTH_FROM.replace('T', ' ')}'::TIMESTAMP, '${MONTH_TO.replace('T', ' ')}'::TIMESTAMP - INTERVAL 1 minute, INTERVAL 1 minute)) AS b) ` +
      'SELECT axis.b AS "$timestamp", CASE WHEN x.b IS NOT NULL THEN x.a ELSE p.a + (n.a - p.a) * epoch(axis.b - p.b) / epoch(n.b - p.b) END AS "avg(v)" ' +
      'FROM axis LEFT JOIN real x ON x.b = axis.b ASOF LEFT JOIN real p ON axis.b >= p.b ASOF LEFT JOIN real n ON axis.b <= n.b ORDER BY 1',
    hand: (db) => handFillLinear(db, 'gaps', isoNs(MONTH_FROM), isoNs(MONTH_TO), MINUTE_NS),
    rows: () => Number((isoNs(MONTH_TO) - isoNs(MONTH_FROM)) / MINUTE_NS),
    hasTimes: true,
  },
  {
    suite: DERIVATIVE_SUITE,
    svc: 'SELECT derivative(max(price), 1min) FROM trades GROUP BY 1min',
    duck: 'WITH g AS (SELECT time_bucket(INTERVAL 1 minute, ts) AS b, max(price) AS m FROM trades GROUP BY b) ' +
      'SELECT b AS "$timestamp", (m - lag(m) OVER w) / (epoch(b - lag(b) OVER w) / 60) AS "derivative(max(price),1min)" FROM g WINDOW w AS (ORDER BY b) ORDER BY b',
    hand: (db) => handDerivativeOfMax(db, 'trades', MINUTE_NS),
    rows: (f) => f.trades,
    hasTimes: true,
  },
];

function suiteOf(spec: Spec): Suite {
  let expected: Answer = {};
  return {
    name: spec.suite,
    mode: 'ops',
    rounds: 2,
    async setup() {
      expected = spec.hand((await loadFixture()).db);
    },
    cases: [
      defineCase({
        name: 'svc',
        rows: () => spec.rows(fixture!),
        vs: ['hand loop', 'duckdb'],
        run: () => fixture!.db.query(spec.svc),
        check: (result) => compareAnswers(expected, svcAnswer(result)),
      }),
      defineCase({
        name: 'hand loop',
        rows: () => spec.rows(fixture!),
        vs: ['duckdb'],
        run: () => spec.hand(fixture!.db),
      }),
      defineCase({
        name: 'duckdb',
        rows: () => spec.rows(fixture!),
        run: () => duckQuery(fixture!.duck.connection, spec.duck),
        check: async () => compareAnswers(expected, await duckAnswer(fixture!.duck.connection, spec.duck), { timestamps: spec.hasTimes }),
      }),
    ],
  };
}

export const PARSE_SUITE = 'language: parse + plan of a dashboard query, fresh literals';

/** A dashboard's query (about 150 characters) with the literals of refresh `i`. */
export function dashboardQuery(i: number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const from = `2021-03-${pad(1 + (i % 28))}T${pad(i % 24)}:${pad(i % 60)}:${pad((i * 7) % 60)}`;
  return `SELECT $timestamp, avg(price), max(price), count(price) FROM trades IN RANGE(${from}, +1d) WHERE price > 0.${100 + (i % 900)} GROUP BY 5min LIMIT 500`;
}

/** Parse + plan of one refresh, by the shape cache or by a full Earley parse. */
function parseAndPlan(isShaped: boolean): () => number {
  let refresh = 0;
  return () => {
    const text = dashboardQuery(refresh++);
    const ast = (isShaped ? parseShaped(text) : parse(text)) as Select;
    return planSelect(ast, catalogOf(fixture!.db), 0n, DEFAULT_QUERY_LIMITS).tables.length;
  };
}

const parseSuite: Suite = {
  name: PARSE_SUITE,
  mode: 'ops',
  rounds: 2,
  async setup() {
    await loadFixture();
  },
  cases: [
    defineCase({ name: 'shape cache', vs: ['earley parse'], run: parseAndPlan(true) }),
    defineCase({ name: 'earley parse', run: parseAndPlan(false) }),
  ],
};

export const languageSuites: readonly Suite[] = [...SPECS.map(suiteOf), parseSuite];

export const LANGUAGE_TEXTS: Readonly<Record<string, { svc: string; duck: string }>> = Object.fromEntries(SPECS.map((s) => [s.suite, { svc: s.svc, duck: s.duck }]));
