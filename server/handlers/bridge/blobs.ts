// /api/v1/blobs routes (seed 000 endpoints 7–11): describe, create, replace and read a blob, and
// list blobs by content.
import { isSvcError } from '../../../engine/index.js';
import type { Database } from '../../../engine/index.js';
import { HttpError } from '../../errors.js';
import { sendAliasPage } from '../alias-page-reply.js';
import { database } from '../context.js';
import type { RouteContext } from '../context.js';
import { paging } from '../request-input.js';
import { blobPath } from './links.js';

/** GET /api/v1/blobs/:alias → the blob description of seed 000 §2, keys in its order. */
export async function describeBlob(ctx: RouteContext): Promise<void> {
  const d = database(ctx).describeBlob(ctx.alias);
  await ctx.reply.json(200, {
    alias: d.alias,
    type: d.type,
    mime: d.mime,
    size: d.size,
    expiry: d.expiry,
    links: { self: blobPath(d.alias), content: blobPath(d.alias, '/content'), tags: blobPath(d.alias, '/tags') },
  });
}

/** POST /api/v1/blobs/:alias → 201 (422 when the alias is taken). */
export async function createBlob(ctx: RouteContext): Promise<void> {
  const body = await ctx.body();
  await database(ctx).createBlob(ctx.alias, body);
  await ctx.reply.empty(201, { Location: blobPath(ctx.alias) });
}

/** PUT /api/v1/blobs/:alias/content (and PUT /api/v1/blobs/:alias) → 204; 201 when it created the blob. */
export async function replaceBlob(ctx: RouteContext): Promise<void> {
  const body = await ctx.body();
  const db = database(ctx);
  const isNew = !exists(db, ctx.alias);
  await db.updateBlob(ctx.alias, body);
  await (isNew ? ctx.reply.empty(201, { Location: blobPath(ctx.alias) }) : ctx.reply.empty(204));
}

/** GET /api/v1/blobs/:alias/content → the bytes, Content-Type = detected MIME; `?download` → attachment. */
export async function readBlob(ctx: RouteContext): Promise<void> {
  const db = database(ctx);
  const { mime } = db.describeBlob(ctx.alias);
  const data = await db.getBlob(ctx.alias);
  const headers: Record<string, string> = { 'Content-Type': mime };
  if (ctx.request.query.has('download')) headers['Content-Disposition'] = attachment(ctx.alias);
  if (!isCompressible(mime)) ctx.reply.compress = 'never';
  await ctx.reply.send(200, data, headers);
}

/** GET /api/v1/blobs?pattern=… → blobs whose content contains the bytes. */
export async function listBlobs(ctx: RouteContext): Promise<void> {
  const { query } = ctx.request;
  const page = paging(query);
  const pattern = query.getBytes('pattern');
  if (pattern === undefined) throw new HttpError('BadRequest', "missing query parameter 'pattern' (the byte sequence to look for, URL-encoded)");
  await sendAliasPage(ctx, await database(ctx).findBlobs(pattern, page), page);
}

/** `attachment; filename="<last path segment>"` with an RFC 5987 UTF-8 form for any name. */
function attachment(alias: string): string {
  const name = alias.slice(alias.lastIndexOf('/') + 1) || 'blob';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Already-compressed formats gain nothing from gzip. */
function isCompressible(mime: string): boolean {
  if (mime === 'image/svg+xml') return true;
  return !/^(image|audio|video)\/|^application\/(gzip|zip|x-bzip2|x-xz|zstd|x-7z-compressed|pdf)$/.test(mime);
}

function exists(db: Database, alias: string): boolean {
  try {
    db.entryType(alias);
    return true;
  } catch (e) {
    if (isSvcError(e) && e.code === 'AliasNotFound') return false;
    throw e;
  }
}
