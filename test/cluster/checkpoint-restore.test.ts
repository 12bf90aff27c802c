// Restoring the cluster's newest checkpoint (engine/cluster/cluster-checkpoints.ts) with the
// catalog bucket, object store and stream manager stubbed and real replicas' checkpoint folders.
// A catalog read right after a leader change can answer an older value: a restarted node was
// handed the checkpoint before the newest, whose stream had been trimmed past it, and stopped for
// good ("stream svc_g1 starts at sequence 311, after 237 which this node needs next"). The
// restore must refuse such a tag before it loads anything, so that it is asked again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followers, stubCluster } from './checkpoint-stubs.js';

describe('checkpoint restore', () => {
  it('a tag read stale (its stream trimmed past it) is refused before anything is loaded; read again, the newest loads', async () => {
    const c = stubCluster();
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
