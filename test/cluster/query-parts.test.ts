// Placing a SELECT's parts on other nodes (engine/cluster/query-parts.ts) over a stubbed NATS
// connection and node registry. A request sent to a node killed a moment before is not always
// answered "no responders" (while its subscription is still known on a route, the request is
// passed on and dropped): a placement query right after four nodes were killed waited the
// query's whole time for such a node and timed out at 30 s. A node that stops reporting while it
// runs a part must lose it to another node serving the same group.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headers } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { partsSubject, QueryParts } from '../../engine/cluster/query-parts.js';
import { encodeResult } from '../../engine/cluster/result-codec.js';
import type { NodeRegistry, NodeReport } from '../../engine/cluster/node-registry.js';
import type { QueryResult } from '../../engine/query/index.js';

const report = (id: string): NodeReport => ({ id, url: '', at: Date.now(), isCaughtUp: true, applied: {}, serves: [0], figures: {} });
const answer: QueryResult = { kind: 'rows', tables: [], scannedRowsCount: 7 };

describe('query parts', () => {
  it('a node that stops reporting while it runs a part loses it to another node of its group', async () => {
    // "a-dead" was killed: requests to it vanish. It is listed until its report ages out.
    let live = [report('a-dead'), report('b-alive')];
    setTimeout(() => { live = [report('b-alive')]; }, 300);
    const asked: string[] = [];
    const nc = {
      publish: () => undefined,
      request: (subject: string) => {
        asked.push(subject);
        if (subject === partsSubject('a-dead')) return new Promise(() => undefined);
        const h = headers();
        h.set('Svc-Part', 'ok');
        return Promise.resolve({ headers: h, data: encodeResult(answer) });
      },
    } as unknown as NatsConnection;
    const registry = { live: async () => live } as unknown as NodeRegistry;
    const parts = new QueryParts(nc, 'asker', 1, [], registry, async () => answer, 1 << 20, 50);
    const t = performance.now();
    const request = { text: 'SELECT count(v) FROM t', nowNs: 0n, deadlineMs: 30_000, yieldAfterMs: 10, limits: {} as never };
    const results = await parts.run([{ name: 't', tables: ['t'] }], request, () => false);
    assert.deepEqual(results.map((r) => r.scannedRowsCount), [7]);
    assert.deepEqual(asked, [partsSubject('a-dead'), partsSubject('b-alive')]);
    assert.ok(performance.now() - t < 5_000, `answered after ${(performance.now() - t).toFixed(0)} ms`);
  });
});
