// Test-only: what ClusterCheckpoints (engine/cluster/cluster-checkpoints.ts) talks to, stubbed in
// memory — the catalog bucket's `checkpoint` key, the object store, the streams' first sequences
// and purges, the node reports — for nodes with real replicas' checkpoint folders. Shared by the
// trim and restore tests.
import { join } from 'node:path';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { CHECKPOINT_KEY, ClusterCheckpoints } from '../../engine/cluster/cluster-checkpoints.js';
import type { CheckpointTag } from '../../engine/cluster/cluster-checkpoints.js';
import type { LogFollower } from '../../engine/cluster/log-follower.js';
import { LIVE_MS } from '../../engine/cluster/node-registry.js';
import type { NodeRegistry, NodeReport } from '../../engine/cluster/node-registry.js';
import { tempDir } from '../engine/helpers.js';
import { stubReplica } from '../engine/stub-replica.js';

/**
 * One cluster's stubs. `shared.tag` is the catalog's tag (`stale`, while set, is answered
 * instead); `shared.first` the streams' first sequences; `announced`, `purged` and `reads()` what
 * the nodes did; `reports` the node reports, each counted live by its age as the registry does.
 */
export function stubCluster(tag: CheckpointTag | null = null, reports: readonly NodeReport[] = []) {
  const objects = new Map<string, Uint8Array>();
  const announced: string[] = [];
  const purged: [string, number][] = [];
  let reads = 0;
  const shared = { tag, stale: null as CheckpointTag | null, first: {} as Record<string, number> };
  const announce = async (_key: string, value: string): Promise<void> => {
    announced.push(value);
    shared.tag = JSON.parse(value) as CheckpointTag;
  };
  const kv = {
    get: async (key: string) => {
      const current = shared.stale ?? shared.tag;
      return key === CHECKPOINT_KEY && current !== null ? { operation: 'PUT', revision: 1, json: () => current } : null;
    },
    create: announce,
    update: announce,
  } as unknown as KV;
  const store = {
    putBlob: async (meta: { name: string }, data: Uint8Array) => { objects.set(meta.name, data); },
    get: async (name: string) => {
      reads++;
      const data = objects.get(name);
      if (data === undefined) return null;
      return { data: new ReadableStream({ start(c) { c.enqueue(data); c.close(); } }), error: Promise.resolve(null) };
    },
  } as unknown as ObjectStore;
  const jsm = {
    streams: {
      purge: async (stream: string, opts: { seq: number }) => { purged.push([stream, opts.seq]); },
      info: async (stream: string) => ({ state: { first_seq: shared.first[stream] ?? 1 } }),
    },
  } as unknown as JetStreamManager;
  const within = (ms: number): NodeReport[] => reports.filter((r) => Date.now() - r.at <= ms);
  const registry = { live: async () => within(LIVE_MS), reported: async (ms: number) => within(ms) } as unknown as NodeRegistry;
  /** A node of this cluster: a fresh replica and its checkpoints. */
  const node = async (id: string) => {
    const { db, state } = await stubReplica(join(await tempDir('svc-checkpoints-'), id));
    return { db, checkpoints: new ClusterCheckpoints(id, kv, store, jsm, state.checkpoints, registry, () => undefined) };
  };
  return { shared, node, announced, purged, reads: () => reads };
}

/** Followers at the given sequences, each with bytes applied and no entry waiting for parts. */
export function followers(at: Record<string, number>): Map<string, LogFollower> {
  return new Map(Object.entries(at).map(([stream, appliedSeq]) => [stream, { appliedSeq, bytesApplied: 1_000, partsPending: 0 } as unknown as LogFollower]));
}
