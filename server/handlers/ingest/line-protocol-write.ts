// POST /write (InfluxDB 1.x) and POST /api/v2/write (2.x): a line-protocol body — gzip when
// Content-Encoding says so, within max_in_buffer_size before and after inflating — parsed whole
// into typed columns (in a worker thread when the database has them: parse-off-thread.ts), then
// applied as ONE write (tables created and columns added on first
// sight): every line or none. A bad line is a 400 naming its number and text; 204 once the WAL
// has the rows (SPEC §9, §11). `db`, `rp`, `org` and `bucket` are accepted and ignored: svc has
// one database.
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { HttpError } from '../../errors.js';
import { ingestOps, schemaLookup } from '../../protocols/ingest/apply-ingest.js';
import { LineProtocolError, LineProtocolParser, PRECISIONS } from '../../protocols/line-protocol/line-protocol-parser.js';
import { parseThenWrite } from '../../protocols/off-thread/parse-off-thread.js';
import type { Parsed } from '../../protocols/off-thread/parse-off-thread.js';
import { database } from '../context.js';
import type { Handler, RouteContext } from '../context.js';

const inflate = promisify(gunzip);

/** One parser per process: its caches hold names and series keys, never a table's schema. */
const parser = new LineProtocolParser();

const V1_PRECISIONS = ['n', 'ns', 'u', 'us', 'ms', 's', 'm', 'h'];
const V2_PRECISIONS = ['ns', 'us', 'ms', 's'];

export function lineProtocolWrite(version: 1 | 2): Handler {
  const accepted = version === 1 ? V1_PRECISIONS : V2_PRECISIONS;
  return async (ctx) => {
    const arrived = BigInt(Date.now()) * 1_000_000n;
    const precision = ctx.request.query.get('precision') ?? 'ns';
    if (!accepted.includes(precision)) {
      throw new HttpError('BadRequest', `precision must be one of ${accepted.join(', ')}, got '${precision}'`);
    }
    const body = await requestBody(ctx);
    const db = database(ctx);
    const multiplier = PRECISIONS[precision]!;
    const here = (bytes: Uint8Array): Parsed => {
      try {
        return parser.parse(bytes, { multiplier, now: arrived, schemaOf: schemaLookup(db) });
      } catch (e) {
        if (e instanceof LineProtocolError) throw new HttpError('InvalidLineProtocol', `${e.message}; nothing of this request was written`);
        throw e;
      }
    };
    const parsed = await parseThenWrite(db, 'lineProtocol', body, { multiplier, now: arrived }, here, async (p) => {
      await db.write(ingestOps(p.tables));
      return p;
    });
    ctx.state.metrics?.observeIngest('influx_line_protocol', parsed.lines, parsed.values);
    await ctx.reply.empty(204);
  };
}

/** The body, inflated when gzip-encoded; the inflated size is held to max_in_buffer_size too. */
async function requestBody(ctx: RouteContext): Promise<Buffer> {
  const raw = await ctx.body();
  const encoding = ctx.request.contentEncoding.trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return raw;
  if (encoding !== 'gzip' && encoding !== 'x-gzip') throw new HttpError('BadRequest', `Content-Encoding '${encoding}' is not supported (gzip is)`);
  const limit = ctx.state.settings.maxInBufferSize;
  try {
    return await inflate(raw, { maxOutputLength: limit });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new HttpError('BodyTooLarge', `the inflated body is over max_in_buffer_size (${limit} bytes)`);
    throw new HttpError('BadRequest', `the gzip body does not inflate: ${(e as Error).message}`);
  }
}
