// Restoring the cluster's newest checkpoint (engine/cluster/cluster-checkpoints.ts) with the
// catalog bucket, object store and stream manager stubbed and real replicas' checkpoint folders.
// A catalog read right after a leader change can answer an older value: a restarted node was
// handed the checkpoint before the newest, whose stream had been trimmed past it, and stopped for
// good ("stream svc_g1 starts at sequence 311, after 237 which this node needs next"). The
// restore must refuse such a tag before it loads anything, so that it is asked again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { CHECKPOINT_KEY, ClusterCheckpoints } from '../../engine/cluster/cluster-checkpoints.js';
import type { CheckpointTag } from '../../engine/cluster/cluster-checkpoints.js';
import type { LogFollower } from '../../engine/cluster/log-follower.js';
import type { NodeRegistry } from '../../engine/cluster/node-registry.js';
import { tempDir } from '../engine/helpers.js';
import { stubReplica } from '../engine/stub-replica.js';

/** One cluster's shared stubs: the catalog's tag (`stale` answers instead while set), objects, streams' first sequences. */
function cluster() {
  const objects = new Map<string, Uint8Array>();
  let reads = 0;
  const shared = { tag: null as CheckpointTag | null, stale: null as CheckpointTag | null, first: {} as Record<string, number> };
  const kv = {
    get: async (key: string) => {
      const tag = shared.stale ?? shared.tag;
      return key === CHECKPOINT_KEY && tag !== null ? { operation: 'PUT', revision: 1, json: () => tag } : null;
    },
    create: async (_key: string, value: string) => { shared.tag = JSON.parse(value) as CheckpointTag; },
    update: async (_key: string, value: string) => { shared.tag = JSON.parse(value) as CheckpointTag; },
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
      purge: async () => undefined,
      info: async (stream: string) => ({ state: { first_seq: shared.first[stream] ?? 1 } }),
    },
  } as unknown as JetStreamManager;
  const registry = { live: async () => [], reported: async () => [] } as unknown as NodeRegistry;
  const node = async (id: string) => {
    const { db, state } = await stubReplica(join(await tempDir('svc-restore-'), id));
    return { db, checkpoints: new ClusterCheckpoints(id, kv, store, jsm, state.checkpoints, registry, () => undefined) };
  };
  return { shared, node, reads: () => reads };
}

const followers = (at: Record<string, number>): Map<string, LogFollower> =>
  new Map(Object.entries(at).map(([stream, appliedSeq]) => [stream, { appliedSeq, bytesApplied: 1_000, partsPending: 0 } as unknown as LogFollower]));

describe('checkpoint restore', () => {
  it('a tag read stale (its stream trimmed past it) is refused before anything is loaded; read again, the newest loads', async () => {
    const c = cluster();
    const a = await c.node('svc2');
    const b = await c.node('svc3');
    try {
      assert.equal(await a.checkpoints.maybeTake(followers({ svc_meta: 9, svc_g1: 310 }), 0, true), true);
      const newest = c.shared.tag!;
      c.shared.first = { svc_meta: 1, svc_g1: 311 }; // trimmed behind the newest
      c.shared.stale = { ...newest, n: newest.n - 1, positions: { svc_meta: 9, svc_g1: 236 } };
      await assert.rejects(b.checkpoints.restore(), /covers stream svc_g1 up to sequence 236, but the stream starts at 311/);
      assert.equal(c.reads(), 0, 'nothing was downloaded for the stale tag');
      c.shared.stale = null;
      const loaded = await b.checkpoints.restore();
      assert.deepEqual(loaded?.positions, { svc_meta: 9, svc_g1: 310 });
      assert.ok(c.reads() > 0);
    } finally {
      await a.db.close();
      await b.db.close();
    }
  });
});
