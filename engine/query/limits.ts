// Resource limits of one query (SPEC §8: QueryLimit). Each is checked before the memory it
// guards is committed, so a query that asks for too much ends with a message naming the limit
// instead of a V8 out-of-memory that takes the whole process down.
//
// Defaults, sized for a process with a few GB of heap:
// - maxGroups 1,000,000: GROUP BY 1min over a year is 525,600 groups. A group costs ~50 bytes
//   of typed arrays plus its accumulators (~100–200 bytes with GROUP BY column keys), so the cap
//   bounds grouping at a few hundred MB. `GROUP BY 1ns` over everything stops here.
// - maxResultRows 10,000,000 and maxResultBytes 1 GiB (estimated as the result is built: 8
//   bytes per number or time, the UTF-8 length plus 16 per string or blob): what a client can
//   still take in one answer; a raw SELECT * or an ORDER BY without LIMIT over a big table stops
//   here. The result is also copied once more by ORDER BY and by the HTTP encoders.
// - maxConditionTerms 100,000: comparisons, regex tests and IN values of one WHERE or HAVING. A
//   1 MiB query holds at most ~130,000 `v = 1 OR` terms; ClickHouse caps its whole AST at 50,000
//   elements by default. Scratch memory no longer grows with the terms (exec/kernels/eval-condition.ts),
//   but time per row does for terms that cannot become one IN set.
import { SvcError } from '../errors.js';

export interface QueryLimits {
  /** Groups of an aggregate query (buckets × GROUP BY keys × ranges), per source table. */
  readonly maxGroups: number;
  /** Rows of the result, and rows kept before ORDER BY / OFFSET, per source table. */
  readonly maxResultRows: number;
  /** Estimated bytes of the result over all tables. */
  readonly maxResultBytes: number;
  /** Terms of one WHERE or HAVING condition. */
  readonly maxConditionTerms: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxGroups: 1_000_000,
  maxResultRows: 10_000_000,
  maxResultBytes: 1024 * 1024 * 1024,
  maxConditionTerms: 100_000,
});

const NAMES = Object.keys(DEFAULT_QUERY_LIMITS) as (keyof QueryLimits)[];

/**
 * `options` over `defaults`, each a positive integer or Infinity (no limit); anything else is an
 * InvalidArgument naming the option.
 */
export function resolveLimits(options: Partial<QueryLimits> | undefined, defaults: QueryLimits = DEFAULT_QUERY_LIMITS): QueryLimits {
  if (options === undefined) return defaults;
  // Copied only when an option is given: most queries take the defaults as they are.
  let out: Record<string, number> | null = null;
  for (const name of NAMES) {
    const v = options[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v === Infinity || (Number.isSafeInteger(v) && v > 0))) {
      throw new SvcError('InvalidArgument', `${name} must be a positive integer or Infinity, not ${String(v)}`);
    }
    out ??= { ...defaults };
    out[name] = v;
  }
  return out === null ? defaults : (out as unknown as QueryLimits);
}

/** The QueryLimit error: what passed which limit, and how to raise it. */
export function limitError(what: string, name: keyof QueryLimits, limit: number): SvcError {
  return new SvcError('QueryLimit',
    `${what}: the limit is ${limit.toLocaleString('en-US')} (${name}); narrow the query, or raise ${name} in the query options or in the database's queryLimits`);
}
