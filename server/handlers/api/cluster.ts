// GET /api/cluster and GET /api/nodes/:id (also /api/cluster/nodes/:id), seed 001 §2, SPEC §4 and
// §12: real figures, keys in the seed's order. Memory and CPU are the machine's (os), disk is the
// file system of the data directory (statfs); CPU figures are cumulative milliseconds over all
// cores (used = user+nice+sys+irq, total = used+idle). On a single node this process is the
// cluster's only node (id: host:port of cluster_uri). In a cluster on NATS JetStream the node list
// is every svc node reporting in the catalog, figures are summed over them, `status` is `stable`
// only when every stream has a quorum and every node has caught up, and GET /api/nodes/:id of
// another node is asked of that node (with the caller's token) and relayed. `unstable` also while
// this node refuses writes: a storage failure, or its disk below the floor (SPEC §14).
import { cpus, freemem, release, totalmem, type } from 'node:os';
import { statfs } from 'node:fs/promises';
import type { Database } from '../../../engine/index.js';
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

/** This machine's figures as GET /api/nodes/:id answers them (without id and svcVersion). */
export async function machineFigures(dataDir: string): Promise<Record<string, number | string>> {
  return { ...cpu(), ...(await disk(dataDir)), ...memory(), os: `${type()} ${release()}` };
}

const SUMMED = ['diskTotal', 'diskUsed', 'memoryTotal', 'memoryUsed'] as const;

/** This node takes writes: open, no storage failure, its disk above the floor. */
function isWritable(db: Database | null): db is Database {
  return db !== null && !db.hasFailed && db.figures().disk.state === 'ok';
}

export async function clusterInfo(ctx: RouteContext): Promise<void> {
  const db = ctx.state.db;
  const cluster = ctx.state.cluster;
  if (cluster !== null) {
    const nodes = await cluster.registry.live();
    const sums = Object.fromEntries(SUMMED.map((k) => [k, nodes.reduce((sum, n) => sum + (Number(n.figures[k]) || 0), 0)]));
    const isStable = isWritable(db) && await cluster.isStable().catch(() => false);
    await ctx.reply.json(200, { ...sums, nodes: nodes.map((n) => n.id), status: isStable ? 'stable' : 'unstable' });
    return;
  }
  const { diskTotal, diskUsed } = await disk(ctx.state.settings.dataDir);
  const { memoryTotal, memoryUsed } = memory();
  // `unstable`: still recovering, or writes are refused (a storage failure, a full disk).
  const status = isWritable(db) ? 'stable' : 'unstable';
  await ctx.reply.json(200, { diskTotal, diskUsed, memoryTotal, memoryUsed, nodes: [ctx.state.settings.nodeId], status });
}

export async function nodeInfo(ctx: RouteContext): Promise<void> {
  const id = ctx.alias;
  const own = ctx.state.settings.nodeId;
  if (id !== own) {
    const other = ctx.state.cluster === null ? undefined : (await ctx.state.cluster.registry.live()).find((n) => n.id === id);
    if (other === undefined) throw new HttpError('NodeNotFound', `no node "${id}"; this cluster has ${ctx.state.cluster === null ? own : 'the nodes GET /api/cluster lists'}`);
    const auth = ctx.request.authorization;
    const r = await fetch(`${other.url}/api/nodes/${encodeURIComponent(id)}`, { headers: auth === '' ? {} : { authorization: auth }, signal: AbortSignal.timeout(10_000) })
      .catch((e: unknown) => { throw new HttpError('NotReady', `node "${id}" did not answer: ${(e as Error).message}`); });
    await ctx.reply.json(r.status, await r.json());
    return;
  }
  const f = await machineFigures(ctx.state.settings.dataDir);
  await ctx.reply.json(200, {
    cpuTotal: f.cpuTotal, cpuUsed: f.cpuUsed, diskTotal: f.diskTotal, diskUsed: f.diskUsed, id, memoryTotal: f.memoryTotal, memoryUsed: f.memoryUsed, os: f.os, svcVersion: ctx.state.settings.svcVersion,
  });
}
