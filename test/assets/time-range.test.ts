// The console's time ranges (assets/src/time-range.ts): the clause each run writes, bounds of
// the last N minutes ending at the next whole second, and the URL form, read back exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '../../grammar/index.js';
import { bounds, decodeRange, encodeRange, LAST_SPANS, QUERY_RANGE, rangeClause } from '../../assets/src/time-range.js';
import type { TimeRange } from '../../assets/src/time-range.js';

const NOW = Date.parse('2026-11-28T14:30:05.250Z');

describe('time ranges', () => {
  it('the last hour ends at the next whole second after now', () => {
    assert.deepEqual(bounds({ kind: 'last', span: '1h' }, NOW), { from: Date.parse('2026-11-28T13:30:06Z'), to: Date.parse('2026-11-28T14:30:06Z') });
    assert.equal(rangeClause({ kind: 'last', span: '1h' }, NOW), 'IN RANGE(2026-11-28T13:30:06Z, +1h)');
  });

  it('fixed bounds are written as they are, milliseconds when present', () => {
    const r: TimeRange = { kind: 'between', from: Date.parse('2026-11-28T14:00:00Z'), to: Date.parse('2026-11-28T14:00:01.5Z') };
    assert.equal(rangeClause(r, NOW), 'IN RANGE(2026-11-28T14:00:00Z, 2026-11-28T14:00:01.500Z)');
  });

  it('the query\'s own range adds nothing', () => {
    assert.equal(rangeClause(QUERY_RANGE, NOW), null);
    assert.equal(bounds(QUERY_RANGE, NOW), null);
  });

  it('every clause parses in a SELECT', () => {
    for (const s of LAST_SPANS) parse(`SELECT v FROM t ${rangeClause({ kind: 'last', span: s.span }, NOW)}`);
  });

  it('reads back from the URL form; anything else is the query\'s own range', () => {
    const ranges: TimeRange[] = [QUERY_RANGE, ...LAST_SPANS.map((s) => ({ kind: 'last' as const, span: s.span })), { kind: 'between', from: 1_000, to: 2_500 }];
    for (const r of ranges) assert.deepEqual(decodeRange(encodeRange(r)), r);
    for (const bad of [null, '', '2h', 'x..y', '2026-11-28T14:00:00Z..2026-11-28T13:00:00Z']) assert.deepEqual(decodeRange(bad), QUERY_RANGE, String(bad));
  });
});
