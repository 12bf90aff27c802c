// The svc nodes of a cluster, as each reports itself in the catalog bucket under `node.<id>`
// every second: its REST address (so any node can ask it for GET /api/nodes/:id), its machine
// figures, and how far it has applied each log and whether it has caught up. A node whose report
// is older than LIVE_MS is gone from the list; a node that stops cleanly deletes its report.
// Trimming the streams asks for a longer window (cluster-checkpoints.ts): a report can be late
// without its node being gone.
import type { KV } from '@nats-io/kv';

export const REPORT_EVERY_MS = 1_000;
export const LIVE_MS = 5_000;

export interface NodeReport {
  readonly id: string;
  /** Base URL of the node's REST server, e.g. http://127.0.0.1:40080. */
  readonly url: string;
  readonly at: number;
  readonly isCaughtUp: boolean;
  /** Stream → last sequence applied. */
  readonly applied: Readonly<Record<string, number>>;
  /** The groups whose rows this node holds. */
  readonly serves: readonly number[];
  /** The node's machine figures (GET /api/nodes/:id), as the server measures them. */
  readonly figures: Readonly<Record<string, number | string>>;
}

export function nodeKey(id: string): string {
  return `node.${Buffer.from(id, 'utf8').toString('base64url')}`;
}

export class NodeRegistry {
  private timer: NodeJS.Timeout | null = null;
  private last: NodeReport | null = null;

  constructor(private readonly kv: KV, private readonly report: () => Promise<NodeReport>) {}

  async start(): Promise<void> {
    await this.publish();
    this.timer = setInterval(() => void this.publish().catch(() => undefined), REPORT_EVERY_MS);
    this.timer.unref();
  }

  /** This node's latest report. */
  get own(): NodeReport | null {
    return this.last;
  }

  /** Every node that reported within LIVE_MS, by id: the nodes queries and api/cluster count on. */
  live(): Promise<NodeReport[]> {
    return this.reported(LIVE_MS);
  }

  /** Every node that reported within `withinMs`, by id. */
  async reported(withinMs: number): Promise<NodeReport[]> {
    const out: NodeReport[] = [];
    // The listing is a live consumer of the last value per key: a report put while it runs is
    // delivered too, so a key can come twice (a node listed twice in api/cluster, seen under load).
    const names = new Set<string>();
    for await (const k of await this.kv.keys('node.*')) names.add(k);
    const now = Date.now();
    for (const k of names) {
      const e = await this.kv.get(k);
      if (e === null || e.operation !== 'PUT') continue;
      const r = e.json<NodeReport>();
      if (now - r.at <= withinMs) out.push(r);
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.last !== null) await this.kv.delete(nodeKey(this.last.id)).catch(() => undefined);
  }

  private async publish(): Promise<void> {
    const r = await this.report();
    this.last = r;
    await this.kv.put(nodeKey(r.id), JSON.stringify(r));
  }
}
