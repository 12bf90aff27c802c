// GET /api/status/liveness and /api/status/readiness (SPEC §4): no token. Liveness answers as long
// as the event loop does; readiness only once the database has recovered and can write, with the
// memory budget's figures (SPEC §10: used, budget, evictions, reads back).
import { HttpError } from '../../errors.js';
import type { RouteContext } from '../context.js';

export function liveness(ctx: RouteContext): Promise<void> {
  return ctx.reply.json(200, { status: 'up' });
}

export function readiness(ctx: RouteContext): Promise<void> {
  const db = ctx.state.db;
  if (db === null) throw new HttpError('NotReady', 'the database is still opening (recovering its log)');
  if (ctx.state.isClosing) throw new HttpError('NotReady', 'the server is shutting down');
  if (db.hasFailed) throw new HttpError('NotReady', 'the database stopped accepting writes after a storage failure');
  if (!db.isCaughtUp) throw new HttpError('NotReady', 'this cluster node is still catching up with the cluster\'s log');
  return ctx.reply.json(200, { status: 'ready', memory: db.figures().memory });
}
