// Time arithmetic: literal resolution, relative time points, Gregorian month arithmetic, range
// resolution (negative offsets) and GROUP BY bucket alignment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addDuration, bucketStart, formatDuration, formatTimestamp, isBucketDuration, parseDurationText,
  parseTimeLiteral, resolveRange, resolveTimePoint, type DurationValue, type Select, type TimePoint,
} from '../../grammar/index.js';
import { DAY, HOUR, ns, parseOne, SECOND } from './helpers.js';

const dur = (months: number, nanos: bigint, calendarUnit: DurationValue['calendarUnit'] = null): DurationValue => ({ months, nanos, calendarUnit });
const MONTH = dur(1, 0n, 'mon');
const YEAR = dur(12, 0n, 'y');

describe('time literals', () => {
  const CASES: [string, bigint | null][] = [
    ['2017-01-01', ns('2017-01-01T00:00:00Z')],
    ['2017-01-01T10:00', ns('2017-01-01T10:00:00Z')],
    ['2017-01-01T10:00:35', ns('2017-01-01T10:00:35Z')],
    ['2017-01-01T10:00:35.123456789', ns('2017-01-01T10:00:35Z', 123456789n)],
    ['2017-01-01T10:00:35.5Z', ns('2017-01-01T10:00:35.500Z')],
    ['2016-02-29', ns('2016-02-29T00:00:00Z')],
    ['1969-12-31T23:59:59.999999999Z', -1n],
    ['2017-02-29', null],
    ['2017-00-10', null],
    ['2017-04-31', null],
    ['2017-01-01T23:60', null],
    ['2017-01-01T10:00:60', null],
    ['2017-01-01T10', null],
    ['2300-01-01', null],
  ];
  for (const [text, expected] of CASES) {
    it(text, () => assert.equal(parseTimeLiteral(text), expected));
  }

  it('a bare integer in RANGE is a year, resolved at parse time', () => {
    const q = parseOne('SELECT a FROM t IN RANGE(1970, 2262)') as Select;
    assert.deepEqual([q.ranges[0]?.start, q.ranges[0]?.end].map((tp) => (tp as TimePoint & { ns: bigint }).ns), [0n, ns('2262-01-01T00:00:00Z')]);
  });
});

describe('relative time points', () => {
  const now = ns('2017-03-15T13:45:10.500Z');
  const CASES: [TimePoint['base'], bigint][] = [
    ['now', now],
    ['today', ns('2017-03-15T00:00:00Z')],
    ['yesterday', ns('2017-03-14T00:00:00Z')],
    ['tomorrow', ns('2017-03-16T00:00:00Z')],
  ];
  for (const [base, expected] of CASES) {
    it(base, () => assert.equal(resolveTimePoint({ kind: 'TimePoint', offset: 0, base } as TimePoint, now), expected));
  }
  it('today before the epoch rounds down to midnight', () => {
    assert.equal(resolveTimePoint({ kind: 'TimePoint', offset: 0, base: 'today' }, -1n), -DAY);
  });
  it('absolute points ignore now', () => {
    assert.equal(resolveTimePoint({ kind: 'TimePoint', offset: 0, base: 'absolute', ns: 5n }, now), 5n);
  });
});

describe('durations', () => {
  const CASES: [string, DurationValue][] = [
    ['1h30min', dur(0, 90n * 60n * SECOND)],
    ['1y 2mon', dur(14, 0n, 'y')],
    ['2 days', dur(0, 2n * DAY, 'd')],
    ['1w', dur(0, 7n * DAY, 'w')],
    ['1ns', dur(0, 1n)],
    ['1us', dur(0, 1_000n)],
    ['1ms', dur(0, 1_000_000n)],
    ['1s', dur(0, SECOND)],
    ['2seconds', dur(0, 2n * SECOND)],
    ['1H', dur(0, HOUR)],
    ['10min', dur(0, 600n * SECOND)],
    ['3 Months', dur(3, 0n, 'mon')],
    ['1year', dur(12, 0n, 'y')],
    ['1d12h', dur(0, 36n * HOUR, 'd')],
    ['1 nanosecond 2 microseconds 3 milliseconds', dur(0, 3_002_001n)],
  ];
  for (const [text, expected] of CASES) {
    it(text, () => assert.deepEqual(parseDurationText(text), expected));
  }

  it('every full unit name works as a bare GROUP BY unit', () => {
    const q = parseOne('SELECT a FROM t GROUP BY nanosecond, microseconds, millisecond, second, minutes, hour, day, week, month, year') as Select;
    assert.deepEqual(q.groupBy.map((g) => (g.kind === 'Duration' ? [g.months, g.nanos] : g.kind)), [
      [0, 1n], [0, 1_000n], [0, 1_000_000n], [0, SECOND], [0, 60n * SECOND], [0, HOUR], [0, DAY], [0, 7n * DAY], [1, 0n], [12, 0n],
    ]);
  });

  it('formats canonically', () => {
    assert.equal(formatDuration(dur(0, 90n * 60n * SECOND)), '1h30min');
    assert.equal(formatDuration(dur(14, 0n)), '1y2mon');
    assert.equal(formatDuration(dur(0, -SECOND)), '-1s');
    assert.equal(formatDuration(dur(0, 0n)), '0s');
  });
});

describe('addDuration (Gregorian calendar)', () => {
  const CASES: [string, string, DurationValue, 1 | -1, string][] = [
    ['Jan 31 + 1mon = Feb 28', '2017-01-31T00:00:00Z', MONTH, 1, '2017-02-28T00:00:00Z'],
    ['Jan 31 + 1mon = Feb 29 in a leap year', '2016-01-31T00:00:00Z', MONTH, 1, '2016-02-29T00:00:00Z'],
    ['Feb 29 + 1y = Feb 28', '2016-02-29T00:00:00Z', YEAR, 1, '2017-02-28T00:00:00Z'],
    ['Feb 29 + 4y = Feb 29', '2016-02-29T00:00:00Z', dur(48, 0n), 1, '2020-02-29T00:00:00Z'],
    ['1900 is not a leap year', '1900-01-31T00:00:00Z', MONTH, 1, '1900-02-28T00:00:00Z'],
    ['Mar 31 - 1mon = Feb 28', '2017-03-31T00:00:00Z', MONTH, -1, '2017-02-28T00:00:00Z'],
    ['Dec 31 + 2mon crosses the year', '2016-12-31T00:00:00Z', dur(2, 0n), 1, '2017-02-28T00:00:00Z'],
    ['time of day is kept, then fixed units add', '2017-01-31T10:30:00Z', dur(1, HOUR), 1, '2017-02-28T11:30:00Z'],
    ['1y 2mon', '2017-01-15T00:00:00Z', dur(14, 0n), 1, '2018-03-15T00:00:00Z'],
    ['before the epoch', '1969-12-31T12:00:00Z', MONTH, 1, '1970-01-31T12:00:00Z'],
    ['fixed units only', '2017-01-01T00:00:00Z', dur(0, -SECOND), 1, '2016-12-31T23:59:59Z'],
    ['subtracting a fixed duration', '2017-01-01T00:00:00Z', dur(0, DAY), -1, '2016-12-31T00:00:00Z'],
  ];
  for (const [name, from, d, sign, to] of CASES) {
    it(name, () => assert.equal(formatTimestamp(addDuration(ns(from), d, sign)), formatTimestamp(ns(to))));
  }
  it('Feb 29 2000 exists (divisible by 400)', () => {
    assert.equal(addDuration(ns('2000-01-29T00:00:00Z'), MONTH), ns('2000-02-29T00:00:00Z'));
  });
});

describe('resolveRange', () => {
  const now = ns('2017-03-15T13:45:10Z');
  const range = (q: string) => (parseOne(`SELECT a FROM t IN ${q}`) as Select).ranges[0]!;
  const CASES: [string, string, string][] = [
    ['RANGE(2017, -1s)', '2016-12-31T23:59:59Z', '2017-01-01T00:00:00Z'],
    ['RANGE(2017, +1d)', '2017-01-01T00:00:00Z', '2017-01-02T00:00:00Z'],
    ['RANGE(2017, 2018)', '2017-01-01T00:00:00Z', '2018-01-01T00:00:00Z'],
    ['RANGE(2017-01-31, 1mon)', '2017-01-31T00:00:00Z', '2017-02-28T00:00:00Z'],
    ['RANGE(now, -1h)', '2017-03-15T12:45:10Z', '2017-03-15T13:45:10Z'],
    ['RANGE(today, day)', '2017-03-15T00:00:00Z', '2017-03-16T00:00:00Z'],
  ];
  for (const [q, start, end] of CASES) {
    it(q, () => assert.deepEqual(resolveRange(range(q), now), { start: ns(start), end: ns(end) }));
  }
  it('clamps to int64 at the end of time', () => {
    assert.deepEqual(resolveRange(range('RANGE(end_of_time, 1d)'), now), { start: 9223372036854775807n, end: 9223372036854775807n });
  });
});

describe('bucketStart', () => {
  const CASES: [string, DurationValue, string, string][] = [
    ['1min', dur(0, 60n * SECOND), '2017-01-01T10:00:35.5Z', '2017-01-01T10:00:00Z'],
    ['1h before the epoch', dur(0, HOUR), '1969-12-31T23:59:59.999Z', '1969-12-31T23:00:00Z'],
    ['day', dur(0, DAY, 'd'), '2017-01-01T23:59:00Z', '2017-01-01T00:00:00Z'],
    ['week: Sunday belongs to the week of the Monday before', dur(0, 7n * DAY, 'w'), '2017-01-01T12:00:00Z', '2016-12-26T00:00:00Z'],
    ['week: a Monday starts its own week', dur(0, 7n * DAY, 'w'), '2017-01-02T00:00:00Z', '2017-01-02T00:00:00Z'],
    ['week: the epoch (a Thursday)', dur(0, 7n * DAY, 'w'), '1970-01-01T00:00:00Z', '1969-12-29T00:00:00Z'],
    ['month', MONTH, '2017-02-15T12:00:00Z', '2017-02-01T00:00:00Z'],
    ['month: the last nanosecond of a month', MONTH, '2016-02-29T23:59:59.999Z', '2016-02-01T00:00:00Z'],
    ['quarter (3mon, from January)', dur(3, 0n, 'mon'), '2017-05-10T00:00:00Z', '2017-04-01T00:00:00Z'],
    ['year', YEAR, '2016-12-31T23:59:59Z', '2016-01-01T00:00:00Z'],
    ['year before the epoch', YEAR, '1969-06-01T00:00:00Z', '1969-01-01T00:00:00Z'],
  ];
  for (const [name, d, ts, expected] of CASES) {
    it(name, () => assert.equal(formatTimestamp(bucketStart(ns(ts), d)), formatTimestamp(ns(expected))));
  }
  it('the next bucket starts at addDuration(start, d)', () => {
    const start = bucketStart(ns('2017-01-31T05:00:00Z'), MONTH);
    assert.equal(addDuration(start, MONTH), ns('2017-02-01T00:00:00Z'));
  });
  it('rejects durations that cannot be buckets', () => {
    for (const d of [dur(1, DAY), dur(0, 0n), dur(0, -SECOND), dur(-1, 0n)]) {
      assert.equal(isBucketDuration(d), false);
      assert.throws(() => bucketStart(0n, d), RangeError);
    }
  });
});

describe('formatTimestamp', () => {
  it('trims trailing zeros of the fraction', () => {
    assert.equal(formatTimestamp(ns('2017-01-01T00:00:00Z')), '2017-01-01T00:00:00Z');
    assert.equal(formatTimestamp(ns('2017-01-01T00:00:00.500Z')), '2017-01-01T00:00:00.5Z');
    assert.equal(formatTimestamp(-1n), '1969-12-31T23:59:59.999999999Z');
  });
});
