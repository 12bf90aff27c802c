// The alias page of SPEC §3: `{"aliases":[…],"links":{"next":…}}`, where `next` is the request's
// own path and query with `skip` advanced by the page size, absent on the last page.
import type { AliasPage } from '../../engine/index.js';
import type { RouteContext } from './context.js';
import type { Paging } from './request-input.js';

export function sendAliasPage(ctx: RouteContext, page: AliasPage, paging: Paging): Promise<void> {
  const { path, query } = ctx.request;
  const body = page.hasMore
    ? { aliases: page.aliases, links: { next: `${path}?${query.with('skip', String(paging.skip + paging.limit))}` } }
    : { aliases: page.aliases, links: {} };
  return ctx.reply.json(200, body);
}
