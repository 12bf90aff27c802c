// GET /api/status/liveness and /api/status/readiness (SPEC §4): no token. Liveness answers as long
// as the event loop does; readiness only once the database has recovered and can write, with the
// memory budget's figures (SPEC §10: used, budget, evictions, reads back), the disk's (SPEC §14:
// state, free bytes, the floor) and the materialized views' lag (SPEC §15: each view's pending
// ranges and the age of its oldest one; a view filling does not make the node unready). Not
// ready says why — InfluxDB's /health says the same.
import { HttpError } from '../../errors.js';
import type { RouteContext, ServerState } from '../context.js';

export function liveness(ctx: RouteContext): Promise<void> {
  return ctx.reply.json(200, { status: 'up' });
}

export function readiness(ctx: RouteContext): Promise<void> {
  const why = notReadyReason(ctx.state);
  if (why !== null) throw new HttpError('NotReady', why);
  const { memory, disk, views } = ctx.state.db!.figures();
  return ctx.reply.json(200, { status: 'ready', memory, disk, views });
}

/** Why the server cannot take writes now, or null when it can. */
export function notReadyReason(state: ServerState): string | null {
  const db = state.db;
  if (db === null) return 'the database is still opening (recovering its log)';
  if (state.isClosing) return 'the server is shutting down';
  if (db.hasFailed) return 'the database stopped accepting writes after a storage failure; restart it to replay the write-ahead log';
  const { disk } = db.figures();
  if (disk.state === 'full') return `free disk space is ${disk.free} bytes, below the floor of ${disk.floor} bytes (--min-free-disk): writes that add data are refused until space is freed`;
  if (!db.isCaughtUp) return 'this cluster node is still catching up with the cluster\'s log';
  return null;
}
