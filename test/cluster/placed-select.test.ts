// A SELECT split into parts where a cluster places them (engine/query/statements/run-placed-select.ts)
// gives exactly the result of the same SELECT run whole: random queries (the differential test's
// generator: several sources, ASOF JOINs, GROUP BY, ORDER BY/LIMIT, ranges, calendar filters) over
// two random tables, with every placement of those tables — this node holding one, the other or
// neither — and the parts run elsewhere passing through the cluster's result codec, as they do
// between nodes. Results are compared value for value (Object.is: NaN, -0), with the scanned rows.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeResult, encodeResult } from '../../engine/cluster/result-codec.js';
import { executePart, executeQuery } from '../../engine/query/index.js';
import type { PartPlacement, QueryCatalog, QueryResult } from '../../engine/query/index.js';
import { FakeCatalog } from '../query/fake-catalog.js';
import { renderQuery } from '../query/query-model.js';
import { int, randomTable, rng } from '../query/random-data.js';
import { randomQuery } from '../query/random-query.js';

const ROUNDS = 4;
const QUERIES_PER_ROUND = 150;

/** `catalog` as a node holding the rows of `here` only sees it; the other parts run "elsewhere" on `catalog`. */
function placed(catalog: QueryCatalog, here: readonly string[], log: string[][]): QueryCatalog {
  const placement: PartPlacement = {
    holds: (tables) => tables.every((t) => here.includes(t)),
    // One node per part, answered in reverse order: the result's order must not depend on it.
    run: async (parts, request) => {
      log.push(parts.map((p) => p.name));
      const answers = await Promise.all([...parts].reverse().map(async (p) => {
        const r = await executePart(catalog, request.text, [p.name], { ...request.limits, now: request.nowNs, deadlineMs: request.deadlineMs, yieldAfterMs: request.yieldAfterMs });
        return decodeResult(encodeResult(r));
      }));
      return answers;
    },
  };
  return {
    table: (name) => catalog.table(name), findEntries: (f) => catalog.findEntries(f), tagsOf: (a) => catalog.tagsOf(a),
    write: (ops) => catalog.write(ops), removedRows: (id) => catalog.removedRows(id), placement,
  };
}

it('random SELECTs run in parts, wherever their tables are, equal the same SELECTs run whole', async () => {
  const seed = Number(process.env.QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let remote = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const r = rng(seed + round);
    const catalog = new FakeCatalog(int(r, 2, 9));
    const names = ['ta', 'tb'];
    const times: bigint[] = [];
    for (const name of names) times.push(...(await randomTable(r, catalog, name)).rows.map((row) => row.ts));
    for (let q = 0; q < QUERIES_PER_ROUND; q++) {
      const text = renderQuery(randomQuery(r, names, times));
      const where = `seed ${seed} round ${round}: ${text}`;
      const whole = await outcome(executeQuery(catalog, text, { now: 0n }));
      for (const here of [['ta'], ['tb'], []]) {
        const log: string[][] = [];
        const parts = await outcome(executeQuery(placed(catalog, here, log), text, { now: 0n }));
        assert.deepStrictEqual(parts, whole, `${where}\n  placed with ${JSON.stringify(here)} here, parts asked elsewhere ${JSON.stringify(log)}`);
        remote += log.length;
      }
    }
  }
  assert.ok(remote > ROUNDS * QUERIES_PER_ROUND, `parts ran elsewhere ${remote} times`);
});

/**
 * A result, or the error's code and message (a query refused whole is refused in parts alike). A
 * value under a null, and every value of a column of type 'none', means nothing (the encoders
 * never read it; it is whatever the scratch buffer held): those read as null here.
 */
async function outcome(p: Promise<QueryResult>): Promise<unknown> {
  let r: QueryResult;
  try {
    r = await p;
  } catch (e) {
    return `${(e as { code?: string }).code ?? (e as Error).name}: ${(e as Error).message}`;
  }
  return {
    ...r,
    tables: r.tables.map((t) => ({
      ...t,
      timestamps: [...t.timestamps].map((v, i) => (t.timestampNulls?.[i] === 1 ? null : v)),
      columns: t.columns.map((c) => ({ ...c, values: [...c.values].map((v, i) => (c.type === 'none' || c.nulls?.[i] === 1 ? null : v)) })),
    })),
  };
}
