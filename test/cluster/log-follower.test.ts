// The follower (engine/cluster/log-follower.ts) against a scripted consumer, no server: an entry
// and the sequence it was applied at change together, even when the entry first waits for memory.
// A checkpoint tags its state with the followers' sequences; one taken between the two held an
// entry its tag said was still to apply, and every node that loaded it applied the entry twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JetStreamClient } from '@nats-io/jetstream';
import { entryBody } from '../../engine/cluster/jetstream-log.js';
import { LogFollower } from '../../engine/cluster/log-follower.js';

/**
 * A client whose one consumer delivers `bodies` at sequences 1, 2, … whatever start it is asked
 * for (as nats-server does on a server whose copy of the stream is behind), then waits until closed.
 */
function scripted(bodies: readonly Uint8Array[]): JetStreamClient {
  const messages = (): AsyncIterable<unknown> & { close(): Promise<void>; status(): AsyncIterable<unknown> } => {
    let close: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => { close = resolve; });
    return {
      async *[Symbol.asyncIterator]() {
        for (const [i, data] of bodies.entries()) {
          yield { seq: i + 1, data, headers: undefined, info: { timestampNanos: 0, pending: bodies.length - i - 1 } };
        }
        await closed;
      },
      close: async () => close(),
      async *status() { await closed; },
    };
  };
  const consumer = {
    consume: async () => messages(),
    info: async () => ({ num_pending: 0, delivered: { consumer_seq: bodies.length, stream_seq: bodies.length } }),
  };
  return { consumers: { get: async () => consumer } } as unknown as JetStreamClient;
}

describe('log follower against a scripted consumer (no server)', () => {
  it('an entry is applied in the same step as its sequence is taken, also after waiting for memory', async () => {
    const bodies = ['a', 'b', 'c'].map((alias) => entryBody([{ kind: 'Remove', alias }]));
    /** What the follower said it had applied as each entry's records came in, read before anything else ran. */
    const seen: [string, number][] = [];
    let follower: LogFollower | null = null;
    follower = new LogFollower(scripted(bodies), 'svc_test', 1, (records) => {
      const alias = (records[0] as { alias: string }).alias;
      queueMicrotask(() => seen.push([alias, follower!.appliedSeq]));
    }, null, (bytes) => (bytes > 0 && seen.length === 1 ? new Promise((r) => setTimeout(r, 20)) : null));
    await follower.start();
    try {
      await follower.waitFor(3, 5_000);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, [['a', 1], ['b', 2], ['c', 3]]);
    } finally {
      await follower.stop();
    }
  });

  it('a consumer that starts below the sequence asked for applies nothing twice and never moves the position back', async () => {
    const bodies = ['a', 'b', 'c', 'd'].map((alias) => entryBody([{ kind: 'Remove', alias }]));
    const applied: string[] = [];
    const positions: number[] = [];
    let follower: LogFollower | null = null;
    // As on a node that loaded a checkpoint tagged at sequence 2: it asks for 3 onwards.
    follower = new LogFollower(scripted(bodies), 'svc_test', 3, (records, seq) => {
      applied.push((records[0] as { alias: string }).alias);
      positions.push(seq, follower!.appliedSeq);
    });
    await follower.start();
    try {
      await follower.waitFor(4, 5_000);
      assert.deepEqual(applied, ['c', 'd']);
      assert.deepEqual(positions, [3, 2, 4, 3]);
      assert.equal(follower.appliedSeq, 4);
      assert.equal(follower.redelivered, 2);
    } finally {
      await follower.stop();
    }
  });
});
