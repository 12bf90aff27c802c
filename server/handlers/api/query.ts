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
  // In a cluster whose nodes hold only some table groups, a query is run by a node that holds
  // the rows it reads; a query forwarded here runs here (no second hop).
  const target = ctx.request.query.get(FORWARDED) === undefined ? await database(ctx).queryNode(text) : null;
  if (target !== null) return forwardQuery(ctx, target, text);
  const started = performance.now();
  const result = await database(ctx).query(text, { signal: ctx.reply.signal });
  ctx.log.query(ctx.user, performance.now() - started, result.scannedRowsCount);
  if (wantsArrow(ctx.request.accept)) {
    await ctx.reply.stream(200, { 'Content-Type': ARROW_STREAM_MIME }, encodeArrowStream(result));
    return;
  }
  await ctx.reply.stream(200, { 'Content-Type': 'application/json' }, encodeApiQuery(result));
}

const FORWARDED = 'svc_forwarded';
/** A forwarded query gets as long as a query may run, plus the hop. */
const FORWARD_TIMEOUT_MS = 330_000;

/** Sends the query to `target` with the caller's token and relays its answer, bytes as they are. */
async function forwardQuery(ctx: RouteContext, target: { id: string; url: string }, text: string): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (ctx.request.authorization !== '') headers['authorization'] = ctx.request.authorization;
  if (ctx.request.accept !== '') headers['accept'] = ctx.request.accept;
  const r = await fetch(`${target.url}/api/query?${FORWARDED}=1`, { method: 'POST', headers, body: JSON.stringify({ query: text }), signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) })
    .catch((e: unknown) => { throw new HttpError('NotReady', `node "${target.id}", which holds the tables of this query, did not answer: ${(e as Error).message}`); });
  const body = Buffer.from(await r.arrayBuffer());
  await ctx.reply.send(r.status, body, { 'Content-Type': r.headers.get('content-type') ?? 'application/json', 'X-Svc-Node': target.id });
}
