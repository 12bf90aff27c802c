// /api/v1/entries routes (seed 000 endpoints 1–6, 11) and their /blobs/:alias and /tags/:alias
// twins: list by prefix or blob content, the tags of an entry, PATCH actions, DELETE, and the
// web client's GET /api/v1/entries/:alias redirect.
import type { EntryType } from '../../../engine/index.js';
import { HttpError } from '../../errors.js';
import { sendAliasPage } from '../alias-page-reply.js';
import { database } from '../context.js';
import type { Handler, RouteContext } from '../context.js';
import { paging, parseInteger, requiredParam } from '../request-input.js';
import { requireType } from './entry-type.js';
import { blobPath, entryPath, tagPath } from './links.js';

/** GET /api/v1/entries?prefix=… | ?pattern=… (exactly one of them). */
export async function listEntries(ctx: RouteContext): Promise<void> {
  const { query } = ctx.request;
  const page = paging(query);
  const prefix = query.get('prefix');
  const pattern = query.getBytes('pattern');
  if ((prefix === undefined) === (pattern === undefined)) {
    throw new HttpError('BadRequest', "give exactly one of 'prefix' (aliases starting with it) or 'pattern' (blobs containing the bytes)");
  }
  const db = database(ctx);
  await sendAliasPage(ctx, prefix !== undefined ? db.listAliases(prefix, page) : await db.findBlobs(pattern!, page), page);
}

/** GET …/:alias/tags: the tags attached to the entry. */
export function entryTags(expected: EntryType | null): Handler {
  return async (ctx) => {
    const page = paging(ctx.request.query);
    const db = database(ctx);
    requireType(db, ctx.alias, expected);
    await sendAliasPage(ctx, db.getTags(ctx.alias, page), page);
  };
}

/** GET /api/v1/entries/:alias: where the entry's own description lives. */
export async function describeEntry(ctx: RouteContext): Promise<void> {
  const { alias } = ctx;
  const type = database(ctx).entryType(alias);
  if (type === 'blob') return ctx.reply.empty(302, { Location: blobPath(alias) });
  if (type === 'tag') return ctx.reply.empty(302, { Location: tagPath(alias) });
  await ctx.reply.json(200, { alias, type: 'ts', links: { self: entryPath(alias), tags: entryPath(alias, '/tags') } });
}

/** DELETE …/:alias → 200. */
export function removeEntry(expected: EntryType | null): Handler {
  return async (ctx) => {
    const db = database(ctx);
    requireType(db, ctx.alias, expected);
    await db.remove(ctx.alias);
    await ctx.reply.empty(200);
  };
}

type Action = 'attach' | 'detach' | 'expiry';

/** Both spellings of SPEC §3: the seed's and the one older clients send. */
const ACTIONS: Record<string, Action> = { attachTag: 'attach', addTag: 'attach', detachTag: 'detach', removeTag: 'detach', setExpiry: 'expiry' };

/** PATCH …/:alias?action=attachTag|detachTag&tag=… → 200 / 304; action=setExpiry&expiry=… → 204. */
export function patchEntry(expected: EntryType | null): Handler {
  return async (ctx) => {
    const { query } = ctx.request;
    const name = requiredParam(query, 'action', 'attachTag, detachTag or setExpiry');
    const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
    if (action === undefined) throw new HttpError('UnknownAction', `unknown action '${name}'; use attachTag (addTag), detachTag (removeTag) or setExpiry`);
    const db = database(ctx);
    if (action === 'expiry') {
      const expiry = parseInteger('expiry', requiredParam(query, 'expiry', 'UNIX seconds, 0 = never'), 0, Number.MAX_SAFE_INTEGER);
      requireType(db, ctx.alias, expected);
      await db.setExpiry(ctx.alias, expiry);
      return ctx.reply.empty(204);
    }
    const tag = requiredParam(query, 'tag', 'the alias of the tag');
    requireType(db, ctx.alias, expected);
    const result = action === 'attach' ? await db.attachTag(ctx.alias, tag) : await db.detachTag(ctx.alias, tag);
    await ctx.reply.empty(result === 'changed' ? 200 : 304);
  };
}
