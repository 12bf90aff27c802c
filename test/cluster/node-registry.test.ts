// The node list (engine/cluster/node-registry.ts) read from a catalog bucket stub. The NATS KV
// client lists keys with a live consumer of each key's last value, so a report put while it lists
// comes again: seen under write load as api/cluster naming svc1 twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KV } from '@nats-io/kv';
import { nodeKey, NodeRegistry } from '../../engine/cluster/node-registry.js';
import type { NodeReport } from '../../engine/cluster/node-registry.js';

function report(id: string, at: number): NodeReport {
  return { id, url: `http://127.0.0.1/${id}`, at, isCaughtUp: true, applied: {}, serves: [0], figures: {} };
}

/** A bucket whose key listing gives `listed` in that order, repeats included, and whose values are `reports`. */
function bucket(listed: readonly string[], reports: ReadonlyMap<string, NodeReport>): KV {
  const stub = {
    keys: async () => (async function* () { yield* listed; })(),
    get: async (key: string) => {
      const r = reports.get(key);
      return r === undefined ? null : { operation: 'PUT', json: () => r };
    },
  };
  return stub as unknown as KV;
}

describe('node registry', () => {
  it('a key the listing gives twice is one node; a report older than the live window is none', async () => {
    const now = Date.now();
    const reports = new Map([report('svc1', now), report('svc2', now), report('gone', now - 60_000)].map((r) => [nodeKey(r.id), r]));
    const listed = [nodeKey('svc2'), nodeKey('svc1'), nodeKey('gone'), nodeKey('svc1')];
    const registry = new NodeRegistry(bucket(listed, reports), async () => report('svc1', Date.now()));
    assert.deepEqual((await registry.live()).map((r) => r.id), ['svc1', 'svc2']);
  });
});
