// GET /api/cluster and GET /api/nodes/:id (also /api/cluster/nodes/:id), seed 001 §2 and SPEC §4:
// real figures of this machine, keys in the seed's order. Memory and CPU are the machine's (os),
// disk is the file system of the data directory (statfs); CPU figures are cumulative
// milliseconds over all cores (used = user+nice+sys+irq, total = used+idle). This single-process
// server is the cluster's only node: its id is host:port of cluster_uri.
import { cpus, freemem, release, totalmem, type } from 'node:os';
import { statfs } from 'node:fs/promises';
import { HttpError } from '../../errors.js';
import type { RouteContext } from '../context.js';

async function disk(dataDir: string): Promise<{ diskTotal: number; diskUsed: number }> {
  const s = await statfs(dataDir);
  return { diskTotal: s.blocks * s.bsize, diskUsed: (s.blocks - s.bfree) * s.bsize };
}

function memory(): { memoryTotal: number; memoryUsed: number } {
  const total = totalmem();
  return { memoryTotal: total, memoryUsed: total - freemem() };
}

function cpu(): { cpuTotal: number; cpuUsed: number } {
  let used = 0;
  let idle = 0;
  for (const c of cpus()) {
    used += c.times.user + c.times.nice + c.times.sys + c.times.irq;
    idle += c.times.idle;
  }
  return { cpuTotal: used + idle, cpuUsed: used };
}

export async function clusterInfo(ctx: RouteContext): Promise<void> {
  const { diskTotal, diskUsed } = await disk(ctx.state.settings.dataDir);
  const { memoryTotal, memoryUsed } = memory();
  // `unstable`: still recovering, or the engine stopped accepting writes after a storage failure.
  const db = ctx.state.db;
  const status = db === null || db.hasFailed ? 'unstable' : 'stable';
  await ctx.reply.json(200, { diskTotal, diskUsed, memoryTotal, memoryUsed, nodes: [ctx.state.settings.nodeId], status });
}

export async function nodeInfo(ctx: RouteContext): Promise<void> {
  const id = ctx.alias;
  if (id !== ctx.state.settings.nodeId) throw new HttpError('NodeNotFound', `no node "${id}"; this cluster has ${ctx.state.settings.nodeId}`);
  const { cpuTotal, cpuUsed } = cpu();
  const { diskTotal, diskUsed } = await disk(ctx.state.settings.dataDir);
  const { memoryTotal, memoryUsed } = memory();
  await ctx.reply.json(200, {
    cpuTotal, cpuUsed, diskTotal, diskUsed, id, memoryTotal, memoryUsed, os: `${type()} ${release()}`, svcVersion: ctx.state.settings.svcVersion,
  });
}
