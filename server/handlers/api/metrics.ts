// GET /metrics (SPEC §4): Prometheus' text exposition of svc itself, no token; 404 with
// --no-metrics.
import { HttpError } from '../../errors.js';
import type { Handler } from '../context.js';

export const metrics: Handler = async (ctx) => {
  const m = ctx.state.metrics;
  if (m === null) throw new HttpError('RouteNotFound', 'GET /metrics is off (--no-metrics)');
  ctx.reply.send(200, await m.render(), { 'Content-Type': m.contentType });
};
