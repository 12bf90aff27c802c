// Downloading a checkpoint's objects (readObject in engine/cluster/cluster-checkpoints.ts) from a
// stubbed object store. The NATS client reads an object through a push consumer checked only by
// a 30 s idle heartbeat: one left on a killed server waits a minute or more, and a restarted node
// printed no ready line within 60 s. A read that gets no data for the stall time must fail (the
// restore is then asked again) and cancel the consumer's stream.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ObjectStore } from '@nats-io/obj';
import { readObject } from '../../engine/cluster/cluster-checkpoints.js';

/** A store whose one object streams `chunks`, then ends — or, with `isStuck`, never sends more. */
function store(chunks: readonly Uint8Array[], isStuck: boolean): { store: ObjectStore; cancelled: () => boolean } {
  let isCancelled = false;
  const get = async (): Promise<unknown> => ({
    data: new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        if (!isStuck) c.close();
      },
      cancel() {
        isCancelled = true;
      },
    }),
    error: isStuck ? new Promise(() => undefined) : Promise.resolve(null),
  });
  return { store: { get } as unknown as ObjectStore, cancelled: () => isCancelled };
}

describe('checkpoint download', () => {
  it('reads an object\'s chunks into one buffer', async () => {
    const { store: s } = store([Buffer.from('abc'), Buffer.from('de')], false);
    assert.deepEqual(Buffer.from((await readObject(s, 'node/x', 1_000))!), Buffer.from('abcde'));
  });

  it('a read that gets no data for the stall time fails and cancels the stream', async () => {
    const { store: s, cancelled } = store([Buffer.from('abc')], true);
    const t = performance.now();
    await assert.rejects(readObject(s, 'node/x', 200), /object node\/x: no data for 200 ms after 3 bytes/);
    assert.ok(performance.now() - t < 5_000);
    assert.equal(cancelled(), true);
  });

  it('a missing object is null', async () => {
    const s = { get: async () => null } as unknown as ObjectStore;
    assert.equal(await readObject(s, 'node/x', 200), null);
  });
});
