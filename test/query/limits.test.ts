// Resource limits (SPEC §8 QueryLimit) and option validation, table-driven: each limit stops the
// query that passes it with its code and a message naming it, a query just inside it runs, and
// the database's queryLimits are defaults a query's options override.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import type { ErrorCode } from '../../engine/errors.js';
import type { QueryOptions } from '../../engine/query/index.js';
import { openExampleDb } from './db-fixture.js';

interface Case {
  readonly name: string;
  readonly query: string;
  readonly options: QueryOptions;
  /** The error code, or null when the query must succeed. */
  readonly code: ErrorCode | null;
  readonly message?: RegExp;
}

// stocks.apple has 8 rows at 7 distinct times; `note` holds 6 short strings.
const CASES: Case[] = [
  { name: 'groups: GROUP BY 1ns past maxGroups', query: 'SELECT count(close) FROM stocks.apple GROUP BY 1ns', options: { maxGroups: 6 }, code: 'QueryLimit', message: /too many groups: the limit is 6 \(maxGroups\)/ },
  { name: 'groups: exactly maxGroups', query: 'SELECT count(close) FROM stocks.apple GROUP BY 1ns', options: { maxGroups: 7 }, code: null },
  { name: 'groups: GROUP BY column', query: 'SELECT count(close) FROM stocks.apple GROUP BY note', options: { maxGroups: 3 }, code: 'QueryLimit', message: /maxGroups/ },
  { name: 'groups: bucket and column over two ranges', query: 'SELECT count(close) FROM stocks.apple IN [RANGE(2016, 2018), RANGE(2017, 2018)] GROUP BY 1d, sym', options: { maxGroups: 4 }, code: 'QueryLimit', message: /maxGroups/ },
  { name: 'rows: raw SELECT * past maxResultRows (refused before allocating)', query: 'SELECT * FROM stocks.apple', options: { maxResultRows: 7 }, code: 'QueryLimit', message: /too many rows: the limit is 7 \(maxResultRows\)/ },
  { name: 'rows: exactly maxResultRows', query: 'SELECT * FROM stocks.apple', options: { maxResultRows: 8 }, code: null },
  { name: 'rows: LIMIT keeps a big scan inside the limit', query: 'SELECT * FROM stocks.apple LIMIT 3', options: { maxResultRows: 3 }, code: null },
  { name: 'rows: ORDER BY without LIMIT over filtered rows', query: 'SELECT close FROM stocks.apple WHERE close > 1 ORDER BY close', options: { maxResultRows: 5 }, code: 'QueryLimit', message: /maxResultRows/ },
  { name: 'rows: ORDER BY with LIMIT sorts every row first', query: 'SELECT close FROM stocks.apple ORDER BY close LIMIT 1', options: { maxResultRows: 5 }, code: 'QueryLimit', message: /maxResultRows/ },
  { name: 'rows: aggregate output', query: 'SELECT count(close) FROM stocks.apple GROUP BY 1ns', options: { maxResultRows: 6 }, code: 'QueryLimit', message: /maxResultRows/ },
  { name: 'bytes: strings past maxResultBytes', query: 'SELECT note FROM stocks.apple', options: { maxResultBytes: 100 }, code: 'QueryLimit', message: /too many bytes \(estimated\): the limit is 100 \(maxResultBytes\)/ },
  { name: 'bytes: numbers past maxResultBytes', query: 'SELECT close, open FROM stocks.apple', options: { maxResultBytes: 100 }, code: 'QueryLimit', message: /maxResultBytes/ },
  { name: 'bytes: within maxResultBytes', query: 'SELECT close FROM stocks.apple', options: { maxResultBytes: 1000 }, code: null },
  { name: 'bytes: summed over tables', query: 'SELECT close FROM stocks.apple, stocks.msft', options: { maxResultBytes: 8 * 16 + 8 * 2 }, code: 'QueryLimit', message: /maxResultBytes/ },
  { name: 'condition: OR terms past maxConditionTerms', query: 'SELECT close FROM stocks.apple WHERE close = 1 OR close = 2 OR open > 3', options: { maxConditionTerms: 2 }, code: 'QueryLimit', message: /WHERE condition has 3 terms: the limit is 2 \(maxConditionTerms\)/ },
  { name: 'condition: IN values count', query: 'SELECT close FROM stocks.apple WHERE close IN (1, 2, 3)', options: { maxConditionTerms: 2 }, code: 'QueryLimit', message: /maxConditionTerms/ },
  { name: 'condition: HAVING', query: 'SELECT count(close) FROM stocks.apple GROUP BY sym HAVING count(close) > 1 AND NOT count(close) = 3', options: { maxConditionTerms: 1 }, code: 'QueryLimit', message: /HAVING condition has 2 terms/ },
  { name: 'condition: exactly maxConditionTerms', query: 'SELECT close FROM stocks.apple WHERE close IN (1, 2) OR open = 3', options: { maxConditionTerms: 3 }, code: null },
  { name: 'Infinity means no limit', query: 'SELECT count(close) FROM stocks.apple GROUP BY 1ns', options: { maxGroups: Infinity }, code: null },
  // Option validation: a NaN deadline would never time out; a limit of 0 or 1.5 means nothing.
  { name: 'deadlineMs NaN', query: 'SELECT close FROM stocks.apple', options: { deadlineMs: NaN }, code: 'InvalidArgument', message: /deadlineMs/ },
  { name: 'deadlineMs negative', query: 'SELECT close FROM stocks.apple', options: { deadlineMs: -1 }, code: 'InvalidArgument', message: /deadlineMs/ },
  { name: 'deadlineMs Infinity', query: 'SELECT close FROM stocks.apple', options: { deadlineMs: Infinity }, code: 'InvalidArgument', message: /deadlineMs/ },
  { name: 'deadlineMs a string', query: 'SELECT close FROM stocks.apple', options: { deadlineMs: '5' as unknown as number }, code: 'InvalidArgument', message: /deadlineMs/ },
  { name: 'deadlineMs 0 times out', query: 'SELECT close FROM stocks.apple', options: { deadlineMs: 0 }, code: 'QueryTimeout' },
  { name: 'yieldAfterMs NaN', query: 'SELECT close FROM stocks.apple', options: { yieldAfterMs: NaN }, code: 'InvalidArgument', message: /yieldAfterMs/ },
  { name: 'maxGroups 0', query: 'SELECT close FROM stocks.apple', options: { maxGroups: 0 }, code: 'InvalidArgument', message: /maxGroups/ },
  { name: 'maxResultRows 1.5', query: 'SELECT close FROM stocks.apple', options: { maxResultRows: 1.5 }, code: 'InvalidArgument', message: /maxResultRows/ },
  { name: 'maxResultBytes NaN', query: 'SELECT close FROM stocks.apple', options: { maxResultBytes: NaN }, code: 'InvalidArgument', message: /maxResultBytes/ },
  { name: 'maxConditionTerms -1', query: 'SELECT close FROM stocks.apple', options: { maxConditionTerms: -1 }, code: 'InvalidArgument', message: /maxConditionTerms/ },
  { name: 'now not a bigint', query: 'SELECT close FROM stocks.apple', options: { now: 5 as unknown as bigint }, code: 'InvalidArgument', message: /now/ },
  { name: 'signal without an aborted flag', query: 'SELECT close FROM stocks.apple', options: { signal: {} as AbortSignal }, code: 'InvalidArgument', message: /signal/ },
  { name: 'signal whose aborted is not a boolean', query: 'SELECT close FROM stocks.apple', options: { signal: { aborted: 'no' } as unknown as AbortSignal }, code: 'InvalidArgument', message: /signal/ },
  { name: 'signal null', query: 'SELECT close FROM stocks.apple', options: { signal: null as unknown as AbortSignal }, code: 'InvalidArgument', message: /signal/ },
];

describe('query limits and options', () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openExampleDb()));
  after(async () => close());

  for (const c of CASES) {
    it(c.name, async () => {
      let result: unknown;
      try {
        result = await db.query(c.query, c.options);
      } catch (e) {
        assert.ok(e instanceof SvcError, `expected SvcError, got ${String(e)}`);
        assert.equal(e.code, c.code, e.message);
        if (c.message !== undefined) assert.match(e.message, c.message);
        return;
      }
      assert.equal(c.code, null, 'the query succeeded');
      assert.ok(result !== undefined);
    });
  }

  it('the limits in OpenOptions are defaults that a query can raise; bad ones fail open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-limits-'));
    try {
      await assert.rejects(Database.open({ dataDir: dir, durability: 'none', queryLimits: { maxGroups: 0 } }),
        (e: unknown) => e instanceof SvcError && e.code === 'InvalidArgument' && /maxGroups/.test(e.message));
      const limited = await Database.open({ dataDir: dir, durability: 'none', sweepIntervalMs: 0, queryLimits: { maxResultRows: 2 } });
      try {
        await limited.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
        await limited.insert('t', { $timestamp: [1n, 2n, 3n], v: [1, 2, 3] });
        await assert.rejects(limited.query('SELECT v FROM t'), (e: unknown) => e instanceof SvcError && e.code === 'QueryLimit');
        assert.equal((await limited.query('SELECT v FROM t', { maxResultRows: 3 })).tables[0].rowCount, 3);
        // The other limits keep their defaults.
        assert.equal((await limited.query('SELECT count(v) FROM t GROUP BY 1ns', { maxResultRows: 10 })).tables[0].rowCount, 3);
      } finally {
        await limited.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
