// The Arrow IPC stream encoder (SPEC §7): read back with apache-arrow's own reader, the stream
// has one schema + record batch per result table (its name in the schema metadata `table`), the
// row time first as Timestamp(ns, UTC), the columns with their Arrow types, and the same values
// as the JSON answer — checked by rebuilding a QueryResult from what the reader returns and
// comparing its JSON encodings with the original's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RecordBatchReader, tableFromIPC, Type } from 'apache-arrow';
import type { Field, RecordBatch, Vector } from 'apache-arrow';
import type { Database, QueryResult, ResultColumn, ResultTable, ResultType } from '../../engine/index.js';
import { ARROW_STREAM_MIME, encodeApiQuery, encodeArrowStream, encodeQueryExp } from '../../server/encode/index.js';
import { openExampleDb } from '../query/db-fixture.js';
import { collect, MAX_I64, MIN_I64, randomResult, T2017, wellFormed } from './encode-fixtures.js';

interface ReadTable {
  readonly metadata: Map<string, string>;
  readonly fields: readonly Field[];
  readonly batches: readonly RecordBatch[];
}

function readStreams(bytes: Uint8Array): ReadTable[] {
  // readAll yields one reader object, reset for each stream in turn: read each as it comes.
  const out: ReadTable[] = [];
  for (const reader of RecordBatchReader.readAll(bytes)) {
    const { metadata, fields } = reader.schema;
    out.push({ metadata, fields, batches: [...reader] });
  }
  return out;
}

/** Arrow type of each result type (SPEC §7). */
function assertArrowType(field: Field, type: ResultType): void {
  const t = field.type;
  const ok: Record<ResultType, boolean> = {
    double: t.typeId === Type.Float && t.precision === 2,
    int64: t.typeId === Type.Int && t.bitWidth === 64 && t.isSigned,
    count: t.typeId === Type.Int && t.bitWidth === 64 && t.isSigned,
    timestamp: t.typeId === Type.Timestamp && t.unit === 3 && t.timezone === 'UTC',
    string: t.typeId === Type.Utf8,
    symbol: t.typeId === Type.Dictionary && t.dictionary.typeId === Type.Utf8 && t.indices.bitWidth === 32,
    blob: t.typeId === Type.Binary,
    boolean: t.typeId === Type.Bool,
    none: t.typeId === Type.Null,
  };
  assert.ok(ok[type], `field ${field.name}: ${String(t)} is not the Arrow type of ${type}`);
}

function int64s(v: Vector): BigInt64Array {
  const out = new BigInt64Array(v.length);
  let at = 0;
  for (const d of v.data) {
    out.set((d.values as BigInt64Array).subarray(d.offset, d.offset + d.length), at);
    at += d.length;
  }
  return out;
}

function nullFlags(v: Vector): Uint8Array {
  return Uint8Array.from({ length: v.length }, (_, i) => (v.isValid(i) ? 0 : 1));
}

/** The QueryResult that the Arrow answer describes (types taken from the original: count and int64 share Int64). */
function resultFromArrow(read: readonly ReadTable[], original: QueryResult): QueryResult {
  const tables: ResultTable[] = read.map((t, k) => {
    const like = original.tables[k];
    assert.equal(t.batches.length, 1, 'one record batch per table');
    const batch = t.batches[0];
    assert.equal(t.metadata.get('table'), like.name);
    assert.equal(t.fields[0].name, 'timestamp');
    assertArrowType(t.fields[0], 'timestamp');
    assert.equal(t.fields.length, like.columns.length + 1);
    const time = batch.getChildAt(0)!;
    const columns: ResultColumn[] = like.columns.map((c, j) => {
      const field = t.fields[j + 1];
      assert.equal(field.name, c.name);
      assertArrowType(field, c.type);
      const v = batch.getChildAt(j + 1)!;
      const nulls = nullFlags(v);
      const at = (i: number) => (v.isValid(i) ? v.get(i) : null);
      switch (c.type) {
        case 'none': return { ...c, values: new Float64Array(v.length), nulls };
        case 'double': return { ...c, values: Float64Array.from({ length: v.length }, (_, i) => at(i) ?? 0), nulls };
        case 'int64': case 'count': case 'timestamp': return { ...c, values: int64s(v), nulls };
        case 'string': case 'symbol': return { ...c, values: Array.from({ length: v.length }, (_, i) => at(i) as string | null), nulls };
        case 'blob': return { ...c, values: Array.from({ length: v.length }, (_, i) => at(i) as Uint8Array | null), nulls };
        case 'boolean': return { ...c, values: Float64Array.from({ length: v.length }, (_, i) => (at(i) === true ? 1 : 0)), nulls };
      }
    });
    return { name: t.metadata.get('table')!, rowCount: batch.numRows, timestamps: int64s(time), timestampNulls: nullFlags(time), columns };
  });
  return { kind: 'rows', tables, scannedRowsCount: original.scannedRowsCount };
}

/** The JSON answers of a result (what the Arrow answer must agree with). */
function jsonAnswers(r: QueryResult): string[] {
  return [collect(encodeApiQuery(r)).toString(), collect(encodeQueryExp('q', r, 'native')).toString()];
}

/** Checks the Arrow answer of a 'rows' result against its JSON answers. */
function checkRows(r: QueryResult): void {
  const bytes = collect(encodeArrowStream(r));
  const read = readStreams(bytes);
  if (r.tables.length === 0) {
    assert.equal(read.length, 1);
    assert.deepEqual(read[0].fields.map((f) => f.name), ['timestamp']);
    assert.equal(read[0].batches.reduce((n, b) => n + b.numRows, 0), 0);
    return;
  }
  assert.equal(read.length, r.tables.length, 'one stream per table');
  assert.deepEqual(jsonAnswers(resultFromArrow(read, r)), jsonAnswers(r));
}

describe('Arrow IPC stream', () => {
  test('the MIME type', () => assert.equal(ARROW_STREAM_MIME, 'application/vnd.apache.arrow.stream'));

  test('one table: tableFromIPC reads it, with the table name, types and exact values', () => {
    const r: QueryResult = {
      kind: 'rows', scannedRowsCount: 3, tables: [{
        name: 'stocks.apple', rowCount: 3, timestamps: BigInt64Array.of(T2017, MIN_I64, MAX_I64), timestampNulls: Uint8Array.of(0, 0, 1),
        columns: [
          { name: 'v', type: 'double', values: Float64Array.of(NaN, -Infinity, 0.5), nulls: Uint8Array.of(0, 0, 1) },
          { name: 'count(v)', type: 'count', values: BigInt64Array.of(MAX_I64, MIN_I64, 2n ** 53n + 1n), nulls: null },
          { name: 'sym', type: 'symbol', values: ['a', 'b', 'a'], nulls: null },
          { name: 'note', type: 'string', values: ['x\ud800', '', null], nulls: null },
          { name: 'raw', type: 'blob', values: [new Uint8Array(0), Uint8Array.of(255), null], nulls: null },
        ],
      }],
    };
    const t = tableFromIPC(collect(encodeArrowStream(r)));
    assert.equal(t.schema.metadata.get('table'), 'stocks.apple');
    assert.deepEqual(t.schema.fields.map((f) => f.name), ['timestamp', 'v', 'count(v)', 'sym', 'note', 'raw']);
    assert.deepEqual([...int64s(t.getChild('timestamp')!)].slice(0, 2), [T2017, MIN_I64]);
    assert.equal(t.getChild('timestamp')!.isValid(2), false);
    // NaN and ±Infinity stay IEEE values in Arrow (JSON writes them as null); a flagged null is null.
    assert.ok(Number.isNaN(t.getChild('v')!.get(0)));
    assert.equal(t.getChild('v')!.get(1), -Infinity);
    assert.equal(t.getChild('v')!.get(2), null);
    assert.deepEqual([...int64s(t.getChild('count(v)')!)], [MAX_I64, MIN_I64, 2n ** 53n + 1n]);
    assert.deepEqual(t.getChild('sym')!.toArray(), ['a', 'b', 'a']);
    // A lone surrogate cannot be UTF-8: it is written as U+FFFD.
    assert.deepEqual([0, 1, 2].map((i) => t.getChild('note')!.get(i)), ['x\ufffd', '', null]);
    assert.deepEqual([0, 1, 2].map((i) => t.getChild('raw')!.get(i)), [new Uint8Array(0), Uint8Array.of(255), null]);
  });

  test('Utf8 bytes are written as given, a leading U+FEFF included', () => {
    const r: QueryResult = {
      kind: 'rows', scannedRowsCount: 0, tables: [{
        name: 't', rowCount: 2, timestamps: BigInt64Array.of(1n, 2n), timestampNulls: null,
        columns: [{ name: 's', type: 'string', values: ['\ufeffa', 'é'], nulls: null }],
      }],
    };
    const data = tableFromIPC(collect(encodeArrowStream(r))).getChild('s')!.data[0];
    assert.deepEqual([...data.valueOffsets.subarray(0, 3)], [0, 4, 6]);
    assert.deepEqual(Buffer.from(data.values.subarray(0, 6)), Buffer.from('\ufeffaé', 'utf8'));
  });

  test('several tables: one stream each, read back by RecordBatchReader.readAll', () => {
    const r: QueryResult = {
      kind: 'rows', scannedRowsCount: 0, tables: [
        { name: 'a', rowCount: 1, timestamps: BigInt64Array.of(1n), timestampNulls: null, columns: [{ name: 'x', type: 'double', values: Float64Array.of(1), nulls: null }] },
        { name: 'b', rowCount: 2, timestamps: BigInt64Array.of(2n, 3n), timestampNulls: null, columns: [{ name: 'y', type: 'string', values: ['p', 'q'], nulls: null }] },
      ],
    };
    const read = readStreams(collect(encodeArrowStream(r)));
    assert.deepEqual(read.map((t) => t.metadata.get('table')), ['a', 'b']);
    assert.deepEqual(read.map((t) => t.fields.map((f) => f.name)), [['timestamp', 'x'], ['timestamp', 'y']]);
    checkRows(r);
  });

  test('no rows, CREATE/INSERT: one stream with only `timestamp` and no rows', () => {
    checkRows({ kind: 'rows', tables: [], scannedRowsCount: 5 });
    const read = readStreams(collect(encodeArrowStream({ kind: 'ok', tables: [], scannedRowsCount: 0 })));
    assert.equal(read.length, 1);
    assert.deepEqual(read[0].fields.map((f) => f.name), ['timestamp']);
  });

  test('find: one stream with a Utf8 column `alias`', () => {
    const t = tableFromIPC(collect(encodeArrowStream({ kind: 'find', tables: [], scannedRowsCount: 0, aliases: ['a', 'b/c'] })));
    assert.deepEqual(t.schema.fields.map((f) => f.name), ['alias']);
    assert.deepEqual(t.getChild('alias')!.toArray(), ['a', 'b/c']);
  });

  test('random results of every type: Arrow values equal the JSON answer (300 seeds)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = randomResult(seed, { wellFormed: true });
      if (r.kind !== 'rows') continue;
      assert.doesNotThrow(() => checkRows(r), `seed ${seed}`);
    }
  });

  test('a large table comes in chunks of at most 64 KiB, body buffers as views', () => {
    const n = 100_000;
    const r: QueryResult = {
      kind: 'rows', scannedRowsCount: n, tables: [{
        name: 't', rowCount: n, timestamps: BigInt64Array.from({ length: n }, (_, i) => T2017 + BigInt(i)), timestampNulls: null,
        columns: [{ name: 'v', type: 'double', values: Float64Array.from({ length: n }, (_, i) => i / 3), nulls: null }],
      }],
    };
    const chunks = [...encodeArrowStream(r)];
    assert.ok(chunks.length >= 20, `${chunks.length} chunks`);
    for (const c of chunks) assert.ok(c.byteLength <= 64 * 1024);
    checkRows(r);
  });
});

describe('Arrow answers of real db.query results', () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openExampleDb()));
  after(() => close());
  for (const q of [
    'SELECT * FROM stocks.apple',
    'SELECT count(close), sum(volume), avg(open), first(sym), last(note) FROM stocks.apple GROUP BY day',
    'SELECT close FROM stocks.apple, stocks.msft',
    'SELECT v FROM big',
    'SELECT sum(close) FROM stocks.apple',
    'SHOW stocks.apple',
  ]) {
    test(q, async () => checkRows(await db.query(q)));
  }
});

test('wellFormed replaces exactly the lone surrogates', () => {
  assert.equal(wellFormed('a\ud800b\udfff😀\ud83d'), 'a\ufffdb\ufffd😀\ufffd');
});
