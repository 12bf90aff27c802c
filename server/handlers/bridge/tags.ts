// /api/v1/tags routes (seed 000 endpoints 12, 13): describe a tag, list the entries carrying it.
import { database } from '../context.js';
import type { RouteContext } from '../context.js';
import { sendAliasPage } from '../alias-page-reply.js';
import { paging } from '../request-input.js';
import { requireType } from './entry-type.js';
import { tagPath } from './links.js';

/** GET /api/v1/tags/:alias → the tag description (404 missing, 422 not a tag). */
export async function describeTag(ctx: RouteContext): Promise<void> {
  requireType(database(ctx), ctx.alias, 'tag');
  await ctx.reply.json(200, {
    alias: ctx.alias,
    type: 'tag',
    links: { self: tagPath(ctx.alias), entries: tagPath(ctx.alias, '/entries'), tags: tagPath(ctx.alias, '/tags') },
  });
}

/** GET /api/v1/tags/:alias/entries → the entries carrying the tag. */
export async function taggedEntries(ctx: RouteContext): Promise<void> {
  const page = paging(ctx.request.query);
  await sendAliasPage(ctx, database(ctx).getTagged(ctx.alias, page), page);
}
