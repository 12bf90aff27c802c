// Trimming behind checkpoints (engine/cluster/cluster-checkpoints.ts), with the catalog bucket,
// object store and stream manager stubbed and a real replica's checkpoint folder. A checkpoint the
// catalog does not take (its own is ahead on some stream) must trim nothing: it may be ahead of
// the catalog's on another stream, and a node that starts loads the catalog's checkpoint — with
// that stream trimmed past it, the node stopped ("stream svc_g1 starts at sequence 288, after 244
// which this node needs next"). A node whose report is late but not older than the hold window
// holds the trim as a live one does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckpointTag } from '../../engine/cluster/cluster-checkpoints.js';
import type { NodeReport } from '../../engine/cluster/node-registry.js';
import { followers, stubCluster } from './checkpoint-stubs.js';

/** A fresh node against a catalog whose tag is `current`; its purges and announcements are recorded. */
async function setUp(current: CheckpointTag, reports: readonly NodeReport[] = []) {
  const c = stubCluster(current, reports);
  const { db, checkpoints } = await c.node('svc1');
  return { db, checkpoints, purged: c.purged, announced: c.announced };
}

const tag = (positions: Record<string, number>): CheckpointTag => ({ node: 'svc2', n: 1, files: [], positions, bytes: 0 });

describe('checkpoint trimming', () => {
  it('a checkpoint the catalog does not take (behind on one stream, ahead on another) trims no stream', async () => {
    const { db, checkpoints, purged, announced } = await setUp(tag({ svc_g0: 50, svc_g1: 10 }));
    try {
      assert.equal(await checkpoints.maybeTake(followers({ svc_g0: 40, svc_g1: 30 }), 0, true), true);
      assert.deepEqual(announced, []);
      assert.deepEqual(purged, []);
    } finally {
      await db.close();
    }
  });

  it('a checkpoint the catalog takes trims each stream behind it', async () => {
    const { db, checkpoints, purged, announced } = await setUp(tag({ svc_g0: 5, svc_g1: 10 }));
    try {
      assert.equal(await checkpoints.maybeTake(followers({ svc_g0: 40, svc_g1: 30 }), 0, true), true);
      assert.equal(announced.length, 1);
      assert.deepEqual((JSON.parse(announced[0]) as CheckpointTag).positions, { svc_g0: 40, svc_g1: 30 });
      assert.deepEqual(purged, [['svc_g0', 41], ['svc_g1', 31]]);
    } finally {
      await db.close();
    }
  });

  it('a node whose last report is late (not live for queries) still holds each stream where it is', async () => {
    // svc3's puts failed for 10 s (the catalog bucket electing a leader): it is not live, yet
    // alive, and it needs svc_g1 from sequence 21 on.
    const late: NodeReport = { id: 'svc3', url: '', at: Date.now() - 10_000, isCaughtUp: true, applied: { svc_g0: 40, svc_g1: 20 }, serves: [0, 1], figures: {} };
    const { db, checkpoints, purged } = await setUp(tag({ svc_g0: 5, svc_g1: 10 }), [late]);
    try {
      assert.equal(await checkpoints.maybeTake(followers({ svc_g0: 40, svc_g1: 30 }), 0, true), true);
      assert.deepEqual(purged, [['svc_g0', 41]]);
    } finally {
      await db.close();
    }
  });
});
