// POST /api/prometheus/write and /api/prometheus/read (SPEC §4): QuasarDB's Prometheus remote
// storage. Write: a snappy-compressed WriteRequest applied as ONE write (metric tables created,
// label columns added on first sight), 204 once durable. Read: each query's matchers over its
// time range, answered as a snappy-compressed ReadResponse (SAMPLES).
import * as snappy from 'snappyjs';
import { compileQueryRegex } from '../../../engine/index.js';
import { HttpError } from '../../errors.js';
import { ingestOps, schemaLookup } from '../../protocols/ingest/apply-ingest.js';
import { ProtoError } from '../../protocols/prometheus/proto-reader.js';
import { decodeReadRequest, encodeReadResponse, metricTables, seriesOfRows } from '../../protocols/prometheus/remote-read.js';
import type { Series } from '../../protocols/prometheus/remote-read.js';
import { RemoteWriteDecoder, RemoteWriteError } from '../../protocols/prometheus/remote-write.js';
import { parseThenWrite } from '../../protocols/off-thread/parse-off-thread.js';
import type { Parsed } from '../../protocols/off-thread/parse-off-thread.js';
import { database } from '../context.js';
import type { Handler, RouteContext } from '../context.js';

const decoder = new RemoteWriteDecoder();

export const prometheusWrite: Handler = async (ctx) => {
  const body = uncompressed(ctx, await ctx.body());
  const db = database(ctx);
  const here = (bytes: Uint8Array): Parsed => {
    try {
      const decoded = decoder.decode(bytes, schemaLookup(db));
      return { tables: decoded.tables, lines: decoded.samples, values: decoded.samples };
    } catch (e) {
      if (e instanceof RemoteWriteError) throw new HttpError('InvalidPrometheusRequest', `${e.message}; nothing of this request was written`);
      throw e;
    }
  };
  const decoded = await parseThenWrite(db, 'remoteWrite', body, {}, here, async (p) => {
    await db.write(ingestOps(p.tables));
    return p;
  });
  ctx.state.metrics?.observeIngest('prometheus_remote_write', decoded.values, decoded.values);
  await ctx.reply.empty(204);
};

export const prometheusRead: Handler = async (ctx) => {
  const body = uncompressed(ctx, await ctx.body());
  let queries;
  try {
    queries = decodeReadRequest(body);
  } catch (e) {
    if (e instanceof ProtoError || e instanceof TypeError) throw new HttpError('InvalidPrometheusRequest', `invalid ReadRequest: ${e.message}`);
    throw e;
  }
  const db = database(ctx);
  const compile = (pattern: string): RegExp => {
    try {
      return compileQueryRegex(pattern, false);
    } catch (e) {
      throw new HttpError('InvalidPrometheusRequest', `invalid regex matcher ${pattern}: ${(e as Error).message}`);
    }
  };
  const tables = db.findEntries({ withTags: [], withoutTags: [], types: ['ts'] });
  const results: Series[][] = [];
  for (const q of queries) {
    const series: Series[] = [];
    // Prometheus' range is [start, end] in ms; svc's ranges end exclusive.
    const range = `RANGE(${isoMs(q.startMs)}, ${isoMs(q.endMs + 1)})`;
    for (const table of metricTables(q.matchers, tables, compile)) {
      const result = await db.query(`SELECT * FROM "${table}" IN ${range}`, { readOnly: true, signal: ctx.reply.signal });
      series.push(...seriesOfRows(table, result, q.matchers, compile));
    }
    results.push(series);
  }
  await ctx.reply.send(200, snappy.compress(encodeReadResponse(results)), {
    'Content-Type': 'application/x-protobuf',
    'Content-Encoding': 'snappy',
  });
};

/** A time point of the query language for `ms` since the epoch (UTC, millisecond precision). */
function isoMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

function uncompressed(ctx: RouteContext, body: Buffer): Uint8Array {
  try {
    return snappy.uncompress(body, ctx.state.settings.maxInBufferSize);
  } catch (e) {
    const message = (e as Error).message;
    if (/too big/.test(message)) throw new HttpError('BodyTooLarge', `the uncompressed body is over max_in_buffer_size (${ctx.state.settings.maxInBufferSize} bytes)`);
    throw new HttpError('InvalidPrometheusRequest', `the body is not snappy-compressed: ${message}`);
  }
}
