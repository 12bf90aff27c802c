// POST /api/query (seed 001 §2, SPEC §4): body {"query": Q} or a bare JSON string Q; reads and
// writes. The answer's bytes are exact (encodeApiQuery); Arrow when the client asks for it.
import { ARROW_STREAM_MIME, encodeApiQuery, encodeArrowStream } from '../../encode/index.js';
import { HttpError } from '../../errors.js';
import { wantsArrow } from '../bridge/query.js';
import { database } from '../context.js';
import type { RouteContext } from '../context.js';
import { isRecord, jsonBody } from '../request-input.js';

export async function apiQuery(ctx: RouteContext): Promise<void> {
  const body = jsonBody(await ctx.body());
  const text = typeof body === 'string' ? body : isRecord(body) && typeof body['query'] === 'string' ? body['query'] : undefined;
  if (text === undefined) throw new HttpError('BadRequest', 'the body must be {"query": "<text>"} or a JSON string');
  const started = performance.now();
  const result = await database(ctx).query(text, { signal: ctx.reply.signal });
  ctx.log.query(ctx.user, performance.now() - started, result.scannedRowsCount);
  if (wantsArrow(ctx.request.accept)) {
    await ctx.reply.stream(200, { 'Content-Type': ARROW_STREAM_MIME }, encodeArrowStream(result));
    return;
  }
  await ctx.reply.stream(200, { 'Content-Type': 'application/json' }, encodeApiQuery(result));
}
