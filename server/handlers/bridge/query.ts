// The bridge's query methods (seed 000 endpoints 14, 15): /query_exp (GET, or POST with a JSON
// body for long queries) and /query_find. Read-only: a write statement is a 400 naming
// POST /api/query. A client that disconnects cancels its query through the reply's signal.
import { ARROW_STREAM_MIME, encodeArrowStream, encodeQueryExp } from '../../encode/index.js';
import type { DateFormat } from '../../encode/index.js';
import { HttpError } from '../../errors.js';
import { database } from '../context.js';
import type { RouteContext } from '../context.js';
import { isRecord, jsonBody, requiredParam } from '../request-input.js';

interface QueryInput {
  readonly query: string;
  readonly dateFormat: string | undefined;
}

/** GET /query_exp?query=…&date_format=js|native */
export async function queryExpGet(ctx: RouteContext): Promise<void> {
  const { query } = ctx.request;
  await queryExp(ctx, { query: requiredParam(query, 'query', 'the query text'), dateFormat: query.get('date_format') });
}

/** POST /query_exp with `{"query": …, "date_format": …}` */
export async function queryExpPost(ctx: RouteContext): Promise<void> {
  await queryExp(ctx, await queryBody(ctx));
}

/** GET /query_find?query=find(…) → {"query","results":[aliases]} */
export async function queryFindGet(ctx: RouteContext): Promise<void> {
  await queryFind(ctx, requiredParam(ctx.request.query, 'query', 'a find(...) query'));
}

/** POST /query_find with `{"query": …}` */
export async function queryFindPost(ctx: RouteContext): Promise<void> {
  await queryFind(ctx, (await queryBody(ctx)).query);
}

async function queryExp(ctx: RouteContext, input: QueryInput): Promise<void> {
  const dateFormat = parseDateFormat(input.dateFormat);
  const started = performance.now();
  const result = await database(ctx).query(input.query, { readOnly: true, signal: ctx.reply.signal });
  ctx.log.query(ctx.user, performance.now() - started, result.scannedRowsCount);
  if (wantsArrow(ctx.request.accept)) {
    // Sent as it is, never gzipped: time and double columns shrink by about a quarter under gzip
    // while compressing costs ~25 ns a byte (a 1 M-point answer: 16 MB, 40 ms unzipped against
    // 450 ms gzipped on localhost), more than the bytes saved take on a LAN. JSON is still gzipped.
    ctx.reply.compress = 'never';
    // The Arrow stream has no place for the JSON answer's scanned_rows_count: a header carries it.
    await ctx.reply.stream(200, { 'Content-Type': ARROW_STREAM_MIME, 'X-Scanned-Rows-Count': String(result.scannedRowsCount) }, encodeArrowStream(result));
    return;
  }
  await ctx.reply.stream(200, { 'Content-Type': 'application/json' }, encodeQueryExp(input.query, result, dateFormat));
}

async function queryFind(ctx: RouteContext, text: string): Promise<void> {
  const started = performance.now();
  const result = await database(ctx).query(text, { readOnly: true, signal: ctx.reply.signal });
  ctx.log.query(ctx.user, performance.now() - started, result.scannedRowsCount);
  if (result.kind !== 'find') throw new HttpError('BadRequest', 'query_find takes a find(...) query; use /query_exp for SELECT and SHOW');
  await ctx.reply.json(200, { query: text, results: result.aliases ?? [] });
}

async function queryBody(ctx: RouteContext): Promise<QueryInput> {
  const body = jsonBody(await ctx.body());
  if (!isRecord(body) || typeof body['query'] !== 'string') throw new HttpError('BadRequest', 'the body must be a JSON object {"query": "<text>", "date_format": "js" | "native"}');
  const dateFormat = body['date_format'];
  if (dateFormat !== undefined && typeof dateFormat !== 'string') throw new HttpError('BadRequest', "'date_format' must be \"js\" or \"native\"");
  return { query: body['query'], dateFormat: dateFormat ?? ctx.request.query.get('date_format') };
}

function parseDateFormat(v: string | undefined): DateFormat {
  if (v === undefined || v === 'native') return 'native';
  if (v === 'js') return 'js';
  throw new HttpError('BadRequest', `'date_format' must be js or native, got '${v}'`);
}

/** True when the Accept header names the Arrow stream type (any parameters, any position). */
export function wantsArrow(accept: string): boolean {
  if (accept === '' || accept === '*/*') return false;
  return accept.split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === ARROW_STREAM_MIME);
}
