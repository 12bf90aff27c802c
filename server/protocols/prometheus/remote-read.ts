// Prometheus remote read (SAMPLES response type): a snappy-compressed protobuf ReadRequest is
// answered with a ReadResponse of the series, in the QuasarDB mapping, whose labels satisfy
// every matcher (= != =~ !~; regexes anchored at both ends, as Prometheus's are; an empty value
// matches a missing label) over [start, end] in milliseconds.
//
// prompb: ReadRequest{1: repeated Query}; Query{1: start ms, 2: end ms, 3: repeated LabelMatcher};
// LabelMatcher{1: type EQ=0 NEQ=1 RE=2 NRE=3, 2: name, 3: value}; ReadResponse{1: repeated
// QueryResult}; QueryResult{1: repeated TimeSeries}; TimeSeries, Label, Sample as in remote write.
import type { QueryResult } from '../../../engine/index.js';
import { ProtoError, ProtoReader, ProtoWriter } from './proto-reader.js';
import { PROM_TABLE_PREFIX, VALUE_COLUMN } from './remote-write.js';

export type MatcherType = 'EQ' | 'NEQ' | 'RE' | 'NRE';
const MATCHER_TYPES: readonly MatcherType[] = ['EQ', 'NEQ', 'RE', 'NRE'];

export interface LabelMatcher {
  readonly type: MatcherType;
  readonly name: string;
  readonly value: string;
}

export interface ReadQuery {
  readonly startMs: number;
  readonly endMs: number;
  readonly matchers: readonly LabelMatcher[];
}

export interface Series {
  /** Label pairs, `__name__` first then by name (Prometheus sorts them). */
  readonly labels: readonly (readonly [string, string])[];
  readonly timestampsMs: number[];
  readonly values: number[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeReadRequest(body: Uint8Array): ReadQuery[] {
  const queries: ReadQuery[] = [];
  const r = new ProtoReader(body);
  while (r.next(1)) {
    const q = new ProtoReader(body, r.from, r.to);
    let startMs = 0;
    let endMs = 0;
    const matchers: LabelMatcher[] = [];
    while (!q.done) {
      const t = q.tag();
      if (t === (1 << 3)) startMs = q.int64();
      else if (t === (2 << 3)) endMs = q.int64();
      else if (t === (3 << 3 | 2)) {
        const [ms, me] = q.delimited();
        const m = new ProtoReader(body, ms, me);
        let type = 0;
        let name = '';
        let value = '';
        while (!m.done) {
          const mt = m.tag();
          if (mt === (1 << 3)) type = m.varint();
          else if (mt === (2 << 3 | 2)) name = text(body, m.delimited());
          else if (mt === (3 << 3 | 2)) value = text(body, m.delimited());
          else m.skip(mt & 7);
        }
        const kind = MATCHER_TYPES[type];
        if (kind === undefined) throw new ProtoError(`unknown matcher type ${type}`);
        matchers.push({ type: kind, name, value });
      } else q.skip(t & 7);
    }
    queries.push({ startMs, endMs, matchers });
  }
  return queries;
}

function text(b: Uint8Array, [s, e]: [number, number]): string {
  return utf8.decode(b.subarray(s, e));
}

/** A matcher as a test of one label value ('' = the label is missing). */
export function matcherTest(m: LabelMatcher, compile: (pattern: string) => RegExp): (value: string) => boolean {
  switch (m.type) {
    case 'EQ': return (v) => v === m.value;
    case 'NEQ': return (v) => v !== m.value;
    case 'RE': {
      const re = compile(`^(?:${m.value})$`);
      return (v) => re.test(v);
    }
    case 'NRE': {
      const re = compile(`^(?:${m.value})$`);
      return (v) => !re.test(v);
    }
  }
}

/** The metric tables a query may touch: one when `__name__` is matched by equality. */
export function metricTables(matchers: readonly LabelMatcher[], allTables: readonly string[], compile: (pattern: string) => RegExp): string[] {
  const tests = matchers.filter((m) => m.name === '__name__').map((m) => matcherTest(m, compile));
  return allTables
    .filter((t) => t.startsWith(PROM_TABLE_PREFIX))
    .filter((t) => tests.every((ok) => ok(t.slice(PROM_TABLE_PREFIX.length))));
}

/**
 * The series of one metric table's rows (a `SELECT *` result) whose labels pass every matcher:
 * rows grouped by their label values, samples in row (time) order.
 */
export function seriesOfRows(table: string, result: QueryResult, matchers: readonly LabelMatcher[], compile: (pattern: string) => RegExp): Series[] {
  const metric = table.slice(PROM_TABLE_PREFIX.length);
  const out = new Map<string, Series>();
  for (const t of result.tables) {
    const value = t.columns.find((c) => c.name === VALUE_COLUMN);
    if (value === undefined || !(value.values instanceof Float64Array)) continue;
    const labels = t.columns.filter((c) => c.type === 'symbol' || (c.type === 'none' && c.name !== VALUE_COLUMN && c.name !== '$timestamp'));
    const names = labels.map((c) => c.name);
    const tests = matchers.filter((m) => m.name !== '__name__').map((m) => ({ at: names.indexOf(m.name), ok: matcherTest(m, compile) }));
    for (let row = 0; row < t.rowCount; row++) {
      if (value.nulls !== null && value.nulls[row] === 1) continue;
      const vals = labels.map((c) => (c.nulls !== null && c.nulls[row] === 1 ? '' : ((c.values as (string | null)[])[row] ?? '')));
      if (!tests.every(({ at, ok }) => ok(at < 0 ? '' : vals[at]))) continue;
      const key = vals.join('\u0000');
      let series = out.get(key);
      if (series === undefined) {
        const pairs = names.map((n, i) => [n, vals[i]] as const).filter(([, v]) => v !== '').sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        series = { labels: [['__name__', metric], ...pairs], timestampsMs: [], values: [] };
        out.set(key, series);
      }
      series.timestampsMs.push(Number(t.timestamps[row] / 1_000_000n));
      series.values.push(value.values[row]);
    }
  }
  return [...out.values()];
}

const encoder = new TextEncoder();

/** ReadResponse{results: one QueryResult per query, in order}. */
export function encodeReadResponse(results: readonly (readonly Series[])[]): Uint8Array {
  const w = new ProtoWriter();
  for (const series of results) {
    w.message(1, () => {
      for (const s of series) {
        w.message(1, () => {
          for (const [name, value] of s.labels) {
            w.message(1, () => {
              w.varint(1 << 3 | 2);
              w.bytes(encoder.encode(name));
              w.varint(2 << 3 | 2);
              w.bytes(encoder.encode(value));
            });
          }
          for (let i = 0; i < s.values.length; i++) {
            w.message(2, () => {
              w.varint(1 << 3 | 1);
              w.double(s.values[i]);
              w.varint(2 << 3);
              w.int64(s.timestampsMs[i]);
            });
          }
        });
      }
    });
  }
  return w.finish();
}
