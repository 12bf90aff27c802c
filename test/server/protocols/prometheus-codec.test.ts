// Prometheus remote storage codecs against an independent protobuf implementation (protobufjs,
// from prompb's message definitions): WriteRequest → QuasarDB's tables, ReadRequest decoded,
// ReadResponse encoded and read back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RemoteWriteDecoder, RemoteWriteError } from '../../../server/protocols/prometheus/remote-write.js';
import { decodeReadRequest, encodeReadResponse, matcherTest } from '../../../server/protocols/prometheus/remote-read.js';
import { prompb } from './prompb.js';

const type = prompb;

function writeRequest(series: { labels: Record<string, string>; samples: [number, number][] }[]): Uint8Array {
  return type('WriteRequest').encode({
    timeseries: series.map((s) => ({
      labels: Object.entries(s.labels).map(([name, value]) => ({ name, value })),
      samples: s.samples.map(([timestamp, value]) => ({ timestamp, value })),
    })),
  }).finish();
}

const schemaless = () => null;

describe('remote write decoder', () => {
  it('maps metrics to $qdb.prom.<name>, samples to value rows, labels to SYMBOL columns', () => {
    const d = new RemoteWriteDecoder();
    const body = writeRequest([
      { labels: { __name__: 'up', job: 'node', instance: 'a:9100' }, samples: [[1_700_000_000_123, 1], [1_700_000_015_123, 0]] },
      { labels: { __name__: 'up', job: 'prom', instance: 'b:9090' }, samples: [[1_700_000_000_500, 1]] },
      { labels: { __name__: 'http_requests_total', code: '200', empty: '' }, samples: [[-1, 12.5]] },
    ]);
    const { tables, samples } = d.decode(body, schemaless);
    assert.equal(samples, 4);
    assert.deepEqual(tables.map((t) => [t.name, t.create, t.addColumns]), [
      ['$qdb.prom.up', true, [{ name: 'value', type: 'DOUBLE' }, { name: 'job', type: 'SYMBOL' }, { name: 'instance', type: 'SYMBOL' }]],
      ['$qdb.prom.http_requests_total', true, [{ name: 'value', type: 'DOUBLE' }, { name: 'code', type: 'SYMBOL' }]],
    ]);
    const up = tables[0];
    assert.deepEqual([...up.timestamps], [1_700_000_000_123_000_000n, 1_700_000_015_123_000_000n, 1_700_000_000_500_000_000n]);
    const col = (name: string) => up.columns.find((c) => c.name === name)!.values;
    assert.deepEqual([...(col('value').values as Float64Array)], [1, 0, 1]);
    assert.deepEqual(col('job').values, ['node', 'node', 'prom']);
    assert.deepEqual(col('instance').values, ['a:9100', 'a:9100', 'b:9090']);
    assert.deepEqual([...tables[1].timestamps], [-1_000_000n]);
  });

  it('gives the same rows when the series come again (label cache)', () => {
    const d = new RemoteWriteDecoder();
    const body = writeRequest([{ labels: { __name__: 'm', a: 'x' }, samples: [[5, 1.5]] }, { labels: { __name__: 'm', a: 'y' }, samples: [[6, 2.5]] }]);
    const first = d.decode(body, schemaless).tables;
    const again = d.decode(body, schemaless).tables;
    assert.deepEqual(again, first);
  });

  it('checks types against the table and refuses a series without a name, whole', () => {
    const d = new RemoteWriteDecoder();
    const schema = () => new Map([['value', 'DOUBLE'], ['job', 'STRING']]);
    assert.throws(() => d.decode(writeRequest([{ labels: { __name__: 'up', job: 'x' }, samples: [[1, 1]] }]), schema), RemoteWriteError);
    assert.throws(() => d.decode(writeRequest([{ labels: { job: 'x' }, samples: [[1, 1]] }]), schemaless), /without a __name__/);
    assert.throws(() => d.decode(Uint8Array.from([0x0a, 0x05, 0x0a]), schemaless), RemoteWriteError);
  });
});

describe('remote read codec', () => {
  it('decodes queries and matchers', () => {
    const body = type('ReadRequest').encode({
      queries: [{ startTimestampMs: 1000, endTimestampMs: 2000, matchers: [{ type: 0, name: '__name__', value: 'up' }, { type: 2, name: 'job', value: 'no.*' }, { type: 3, name: 'i', value: 'x' }, { type: 1, name: 'z', value: '' }] }],
    }).finish();
    assert.deepEqual(decodeReadRequest(body), [{
      startMs: 1000, endMs: 2000,
      matchers: [{ type: 'EQ', name: '__name__', value: 'up' }, { type: 'RE', name: 'job', value: 'no.*' }, { type: 'NRE', name: 'i', value: 'x' }, { type: 'NEQ', name: 'z', value: '' }],
    }]);
  });

  it('anchors regex matchers at both ends', () => {
    const re = matcherTest({ type: 'RE', name: 'job', value: 'no|pro' }, (p) => new RegExp(p));
    assert.deepEqual(['no', 'pro', 'node', 'xpro'].map(re), [true, true, false, false]);
  });

  it('encodes a ReadResponse that protobufjs reads back', () => {
    const bytes = encodeReadResponse([[
      { labels: [['__name__', 'up'], ['job', 'node']], timestampsMs: [1_700_000_000_123, -5], values: [1, Number.NaN] },
    ], []]);
    const back = type('ReadResponse').toObject(type('ReadResponse').decode(bytes), { longs: String, defaults: true });
    assert.equal(back.results.length, 2);
    const ts = back.results[0].timeseries[0];
    assert.deepEqual(ts.labels, [{ name: '__name__', value: 'up' }, { name: 'job', value: 'node' }]);
    assert.deepEqual(ts.samples.map((s: { timestamp: string }) => s.timestamp), ['1700000000123', '-5']);
    assert.equal(ts.samples[0].value, 1);
    assert.ok(Number.isNaN(ts.samples[1].value));
    assert.deepEqual(back.results[1].timeseries, []);
  });
});
