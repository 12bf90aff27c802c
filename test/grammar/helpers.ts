// Shared helpers of the grammar tests: parse with the exactly-one-parse check, partial AST
// matching (tests state only the fields they care about), and nanosecond shorthands.
import assert from 'node:assert/strict';
import { parseAll, QuerySyntaxError, type Statement } from '../../grammar/index.js';

/** Parses `text`, asserting the grammar found exactly one parse (more would be an ambiguity). */
export function parseOne(text: string): Statement {
  const results = parseAll(text);
  assert.equal(results.length, 1, `${results.length} parses of ${JSON.stringify(text)}`);
  return results[0] as Statement;
}

/** Keeps only the parts of `actual` that `shape` mentions, so deepEqual compares just those. */
function project(actual: unknown, shape: unknown): unknown {
  if (Array.isArray(shape)) {
    if (!Array.isArray(actual)) return actual;
    return actual.map((item, i) => (i < shape.length ? project(item, shape[i]) : item));
  }
  if (shape !== null && typeof shape === 'object' && actual !== null && typeof actual === 'object') {
    const picked: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) picked[key] = project((actual as Record<string, unknown>)[key], (shape as Record<string, unknown>)[key]);
    return picked;
  }
  return actual;
}

/** Asserts that `actual` has every field of `shape` with the same value (arrays: same length). */
export function assertMatches(actual: unknown, shape: unknown, message?: string): void {
  assert.deepEqual(project(actual, shape), shape, message);
}

/** Asserts `text` fails with a QuerySyntaxError at `offset`; returns the error. */
export function assertSyntaxError(text: string, offset: number): QuerySyntaxError {
  try {
    parseAll(text);
  } catch (e) {
    assert.ok(e instanceof QuerySyntaxError, `expected QuerySyntaxError for ${JSON.stringify(text)}, got ${String(e)}`);
    assert.equal(e.offset, offset, `offset of ${JSON.stringify(text)}: ${e.message}`);
    assert.equal(e.code, 'QuerySyntax');
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to fail`);
}

/** Nanoseconds of an ISO instant (millisecond precision) plus extra nanoseconds. */
export function ns(iso: string, extra = 0n): bigint {
  return BigInt(Date.parse(iso)) * 1_000_000n + extra;
}

export const SECOND = 1_000_000_000n;
export const HOUR = 3600n * SECOND;
export const DAY = 24n * HOUR;
