// Data in and out (SPEC §16): GET|POST /api/export streams a SELECT's result as a file (CSV,
// Parquet, Arrow IPC stream, NDJSON) pulled as the socket drains; POST /api/import loads a CSV
// or Parquet body into a table as one atomic write; POST /api/backup (admin) writes a consistent
// copy of the database into a directory of the server's machine.
import { DEFAULT_DEADLINE_MS, exportFormat } from '../../../engine/index.js';
import { HttpError } from '../../errors.js';
import { database } from '../context.js';
import type { RouteContext } from '../context.js';
import { isRecord, jsonBody, requiredParam } from '../request-input.js';

/** GET /api/export?query=SELECT…&format=csv|parquet|arrow|ndjson (format: csv when absent) */
export async function exportGet(ctx: RouteContext): Promise<void> {
  const { query } = ctx.request;
  await exportData(ctx, requiredParam(query, 'query', 'the SELECT to export'), query.get('format'));
}

/** POST /api/export with `{"query": …, "format": …}`, or the same query parameters as GET. */
export async function exportPost(ctx: RouteContext): Promise<void> {
  const body = await ctx.body();
  if (body.length === 0) return exportGet(ctx);
  const input = jsonBody(body);
  if (!isRecord(input) || typeof input['query'] !== 'string' || (input['format'] !== undefined && typeof input['format'] !== 'string')) {
    throw new HttpError('BadRequest', 'the body must be {"query": "SELECT …", "format": "csv" | "parquet" | "arrow" | "ndjson"}');
  }
  await exportData(ctx, input['query'], (input['format'] as string | undefined) ?? ctx.request.query.get('format'));
}

async function exportData(ctx: RouteContext, text: string, formatName: string | undefined): Promise<void> {
  const format = exportFormat(formatName ?? 'csv');
  const started = performance.now();
  const stream = database(ctx).export(text, { format, readOnly: true, signal: ctx.reply.signal });
  const headers = { 'Content-Type': stream.mime, 'Content-Disposition': `attachment; filename="export.${stream.extension}"` };
  // Text compresses; Parquet pages are Snappy-compressed already, and gzip over Arrow's binary
  // doubles and times costs far more than it saves (as for /query_exp's Arrow answers).
  if (format === 'parquet' || format === 'arrow') ctx.reply.compress = 'never';
  // A client that reads nothing for the query timeout is dropped (SPEC §16).
  await ctx.reply.pipe(200, headers, stream, DEFAULT_DEADLINE_MS);
  ctx.log.query(ctx.user, performance.now() - started, 0);
}

/** POST /api/import?table=t&format=csv|parquet with the file as the body. */
export async function importData(ctx: RouteContext): Promise<void> {
  const { query } = ctx.request;
  const table = requiredParam(query, 'table', 'the table to load into');
  const format = requiredParam(query, 'format', 'csv or parquet');
  if (format !== 'csv' && format !== 'parquet') throw new HttpError('BadRequest', `'format' must be csv or parquet, got '${format}'`);
  const body = await ctx.body();
  if (body.length === 0) throw new HttpError('BadRequest', 'the request body is empty; send the file');
  const result = await database(ctx).import(table, body, { format });
  await ctx.reply.json(200, { table: result.table, rows: result.rows, created: result.isCreated });
}

/** POST /api/backup with `{"to": "<directory>"}` (admin). */
export async function backup(ctx: RouteContext): Promise<void> {
  const input = jsonBody(await ctx.body());
  if (!isRecord(input) || typeof input['to'] !== 'string' || input['to'] === '') {
    throw new HttpError('BadRequest', 'the body must be {"to": "<directory on the server>"}');
  }
  const r = await database(ctx).backup(input['to']);
  await ctx.reply.json(200, { to: r.dir, checkpoint: r.checkpoint, walSegments: r.walSegments, files: r.files, bytes: r.bytes, linked: r.linked });
}
