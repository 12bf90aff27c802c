// The parts of a SELECT that run on other nodes (engine/query/statements/run-placed-select.ts):
// this node asks, over core NATS request/reply, a live node that serves the groups of a part's
// tables to run it, and that node answers with the result's bytes (result-codec.ts).
//
// - Subject `svc.parts.<node id, base64url>`: every node answers there for itself. A request
//   names the parts (result tables) and the tables they read; a node that does not serve their
//   groups says so and the asker tries another. The node runs them after its own read barrier,
//   with the asker's `now`, limits and remaining time.
// - An answer over the message limit is kept by the node that ran the part and fetched in chunks
//   by the asker (`more` requests), one at a time: flow control for free; kept at most a minute.
// - A node that is gone (no responders: its subscription went with its connection; or it stopped
//   reporting while its part ran) is dropped for that query and its parts go to another node
//   serving their groups; a live node that took the request but does not answer within the
//   query's time (+10 s) fails the query with
//   ClusterUnavailable; a query error (QueryTimeout, QueryLimit, …) is the query's, with its code
//   and message. A cancelled query cancels its parts where they run.
import { randomBytes } from 'node:crypto';
import { headers } from '@nats-io/transport-node';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { Packr } from 'msgpackr';
import { SvcError } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import type { PartPlacement, PartRequest, QueryResult, SelectPart } from '../query/index.js';
import type { PartRunner } from '../log/database-log.js';
import type { NodeRegistry, NodeReport } from './node-registry.js';
import { decodeResult, encodeResult } from './result-codec.js';
import { groupOf } from './table-groups.js';

const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false });

/** Answers kept for their asker's `more` requests at most this long. */
const KEEP_MS = 60_000;
/** A `more` request, or a node's answer beyond the query's own time, waits this long. */
const CHUNK_TIMEOUT_MS = 10_000;
/** Room left in a message for headers. */
const HEADER_ROOM = 4_096;
/** The live nodes are looked up again after this long (each look is a scan of the catalog bucket). */
const LIVE_CACHE_MS = 1_000;
/** While a node runs a part, whether it is still live is looked at this often (see untilGone). */
const LIVENESS_CHECK_MS = 1_000;

type Request =
  | ({ readonly op: 'run'; readonly id: string; readonly names: readonly string[]; readonly tables: readonly string[] } & PartRequest)
  | { readonly op: 'more'; readonly id: string; readonly offset: number }
  | { readonly op: 'cancel'; readonly id: string };

/** A node could not be asked (gone, or not serving the groups after all): ask another. */
class NodeUnreachable extends Error {}

export function partsSubject(nodeId: string): string {
  return `svc.parts.${Buffer.from(nodeId, 'utf8').toString('base64url')}`;
}

export class QueryParts implements PartPlacement {
  private subscription: Subscription | null = null;
  /** Answers waiting for `more` requests, by request id. */
  private readonly kept = new Map<string, { readonly bytes: Uint8Array; readonly timer: NodeJS.Timeout }>();
  /** Parts running here for other nodes, by request id. */
  private readonly running = new Map<string, { aborted: boolean }>();
  private live: { readonly at: number; readonly nodes: Promise<NodeReport[]> } | null = null;
  private turn = 0;
  /** Parts run here for other nodes, and parts this node had run elsewhere (figures for tests). */
  served = 0;
  asked = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly nodeId: string,
    private readonly groups: number,
    private readonly serves: readonly number[],
    private readonly registry: NodeRegistry,
    private readonly runHere: PartRunner,
    private readonly maxPayload: number,
    private readonly livenessCheckMs = LIVENESS_CHECK_MS,
    /** The table whose group holds a table's rows: a materialized view's are in its source's group (table-groups.ts). */
    private readonly homeOf: (table: string) => string = (table) => table,
  ) {}

  /** Starts answering other nodes' requests. */
  start(): void {
    this.subscription = this.nc.subscribe(partsSubject(this.nodeId), { callback: (e, m) => { if (e === null) void this.answer(m); } });
  }

  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    for (const r of this.running.values()) r.aborted = true;
    for (const k of this.kept.values()) clearTimeout(k.timer);
    this.kept.clear();
  }

  holds(tables: readonly string[]): boolean {
    return tables.every((t) => this.serves.includes(groupOf(this.homeOf(t), this.groups)));
  }

  async run(parts: readonly SelectPart[], request: PartRequest, isCancelled: () => boolean): Promise<QueryResult[]> {
    const excluded = new Set<string>([this.nodeId]);
    const results: QueryResult[] = [];
    let left = parts;
    // Each round asks every node chosen at once; the parts of nodes found gone are placed again.
    for (let round = 0; left.length > 0; round++) {
      const byNode = await this.place(left, excluded, round > 0);
      const failed: SelectPart[] = [];
      await Promise.all([...byNode].map(async ([node, its]) => {
        try {
          results.push(await this.ask(node, its, request, isCancelled));
        } catch (e) {
          if (!(e instanceof NodeUnreachable)) throw e;
          excluded.add(node.id);
          failed.push(...its);
        }
      }));
      left = failed;
    }
    return results;
  }

  /** Chooses a node for each part: one serving its tables' groups, caught up if any is, few nodes. */
  private async place(parts: readonly SelectPart[], excluded: ReadonlySet<string>, isFresh: boolean): Promise<Map<NodeReport, SelectPart[]>> {
    const nodes = (await this.liveNodes(isFresh)).filter((n) => !excluded.has(n.id));
    const byNode = new Map<NodeReport, SelectPart[]>();
    for (const part of parts) {
      const groups = [...new Set(part.tables.map((t) => groupOf(this.homeOf(t), this.groups)))];
      const serving = nodes.filter((n) => groups.every((g) => n.serves.includes(g)));
      const ready = serving.filter((n) => n.isCaughtUp);
      const candidates = ready.length > 0 ? ready : serving;
      if (candidates.length === 0) {
        throw new SvcError('ClusterUnavailable', `no live node serves table group${groups.length > 1 ? 's' : ''} ${groups.join(', ')}, which ${part.name === part.tables[0] && part.tables.length === 1 ? `table '${part.name}'` : `the tables ${part.tables.map((t) => `'${t}'`).join(', ')}`} of this query live${part.tables.length > 1 ? '' : 's'} in`);
      }
      const node = candidates.find((n) => byNode.has(n)) ?? candidates[this.turn++ % candidates.length];
      const list = byNode.get(node);
      if (list === undefined) byNode.set(node, [part]);
      else list.push(part);
    }
    return byNode;
  }

  private liveNodes(isFresh: boolean): Promise<NodeReport[]> {
    if (isFresh || this.live === null || Date.now() - this.live.at > LIVE_CACHE_MS) {
      const nodes = this.registry.live();
      nodes.catch(() => { this.live = null; });
      this.live = { at: Date.now(), nodes };
    }
    return this.live.nodes;
  }

  /** Has `node` run `parts`; its answer, fetched in chunks when large. */
  private async ask(node: NodeReport, parts: readonly SelectPart[], request: PartRequest, isCancelled: () => boolean): Promise<QueryResult> {
    this.asked += parts.length;
    const id = randomBytes(12).toString('base64url');
    const subject = partsSubject(node.id);
    const body: Request = {
      op: 'run', id, names: parts.map((p) => p.name), tables: [...new Set(parts.flatMap((p) => p.tables))],
      text: request.text, nowNs: request.nowNs, deadlineMs: request.deadlineMs, yieldAfterMs: request.yieldAfterMs, limits: request.limits,
    };
    const watch = setInterval(() => {
      if (!isCancelled()) return;
      this.nc.publish(subject, packr.pack({ op: 'cancel', id } satisfies Request));
      clearInterval(watch);
    }, 200);
    let first: Msg;
    const gone = this.untilGone(node.id);
    try {
      const answer = this.request(subject, body, request.deadlineMs + CHUNK_TIMEOUT_MS, node.id);
      answer.catch(() => undefined); // lost the race to `gone`: its timeout is nobody's error
      first = await Promise.race([answer, gone.promise]);
    } catch (e) {
      if (e instanceof NodeUnreachable) this.nc.publish(subject, packr.pack({ op: 'cancel', id } satisfies Request));
      throw e;
    } finally {
      clearInterval(watch);
      gone.stop();
    }
    const status = first.headers?.get('Svc-Part') ?? '';
    if (status === 'elsewhere') throw new NodeUnreachable(`node ${node.id} does not serve these tables`);
    if (status === 'error') throw remoteError(first.data, node.id);
    const size = Number(first.headers?.get('Svc-Size') ?? first.data.length);
    if (first.data.length >= size) return decodeResult(first.data);
    const bytes = new Uint8Array(size);
    bytes.set(first.data);
    for (let offset = first.data.length; offset < size;) {
      const m = await this.request(subject, { op: 'more', id, offset }, CHUNK_TIMEOUT_MS, node.id);
      if (m.headers?.get('Svc-Part') !== 'ok' || m.data.length === 0) throw new SvcError('ClusterUnavailable', `node ${node.id} lost the answer of a query part before it was fetched`);
      bytes.set(m.data, offset);
      offset += m.data.length;
    }
    return decodeResult(bytes);
  }

  /**
   * Rejects with NodeUnreachable once `nodeId` is no longer live (its last report is older than
   * LIVE_MS). A request sent to a node killed a moment before is not always answered "no
   * responders": while the node's subscription is still known on a route, the request is passed
   * on and dropped, and its answer was waited for the query's whole time plus 10 s (a placement
   * query right after four nodes were killed timed out at 30 s). A lookup that fails says nothing.
   */
  private untilGone(nodeId: string): { promise: Promise<never>; stop: () => void } {
    let timer: NodeJS.Timeout | null = null;
    const promise = new Promise<never>((_, reject) => {
      timer = setInterval(() => {
        this.liveNodes(false).then((nodes) => {
          if (timer !== null && !nodes.some((n) => n.id === nodeId)) reject(new NodeUnreachable(`node ${nodeId} stopped reporting while it ran a query part`));
        }, () => undefined);
      }, this.livenessCheckMs);
    });
    return { promise, stop: () => { if (timer !== null) clearInterval(timer); timer = null; } };
  }

  private async request(subject: string, body: Request, timeoutMs: number, node: string): Promise<Msg> {
    try {
      return await this.nc.request(subject, packr.pack(body), { timeout: timeoutMs });
    } catch (e) {
      // No responders: the node is gone (its subscription went with its connection).
      if (body.op === 'run' && (e as { isNoResponders?: () => boolean }).isNoResponders?.() === true) throw new NodeUnreachable(`node ${node} is gone`);
      throw new SvcError('ClusterUnavailable', `node ${node} did not answer a query part: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Answers a request of another node. */
  private async answer(m: Msg): Promise<void> {
    let request: Request;
    try {
      request = packr.unpack(m.data) as Request;
    } catch {
      return;
    }
    if (request.op === 'cancel') {
      const r = this.running.get(request.id);
      if (r !== undefined) r.aborted = true;
      return;
    }
    if (request.op === 'more') {
      const kept = this.kept.get(request.id);
      const chunk = kept?.bytes.subarray(request.offset, request.offset + this.chunkBytes) ?? new Uint8Array(0);
      if (kept !== undefined && request.offset + chunk.length >= kept.bytes.length) {
        clearTimeout(kept.timer);
        this.kept.delete(request.id);
      }
      m.respond(chunk, { headers: status(kept === undefined ? 'gone' : 'ok') });
      return;
    }
    if (!this.holds(request.tables)) {
      m.respond(new Uint8Array(0), { headers: status('elsewhere') });
      return;
    }
    const signal = { aborted: false };
    this.running.set(request.id, signal);
    let bytes: Uint8Array;
    try {
      bytes = encodeResult(await this.runHere(request, request.names, signal));
      this.served += request.names.length;
    } catch (e) {
      const error = e instanceof SvcError ? { code: e.code, message: e.message, position: e.position } : { code: 'ClusterUnavailable', message: `node ${this.nodeId} failed to run a query part: ${(e as Error).message}` };
      m.respond(Buffer.from(JSON.stringify(error)), { headers: status('error') });
      return;
    } finally {
      this.running.delete(request.id);
    }
    const h = status('ok');
    h.set('Svc-Size', String(bytes.length));
    if (bytes.length > this.chunkBytes) {
      const id = request.id;
      const timer = setTimeout(() => this.kept.delete(id), KEEP_MS);
      timer.unref();
      this.kept.set(id, { bytes, timer });
    }
    m.respond(bytes.subarray(0, this.chunkBytes), { headers: h });
  }

  private get chunkBytes(): number {
    return this.maxPayload - HEADER_ROOM;
  }
}

function status(value: string): ReturnType<typeof headers> {
  const h = headers();
  h.set('Svc-Part', value);
  return h;
}

/** The error a node answered, as the query's own. */
function remoteError(data: Uint8Array, node: string): SvcError {
  try {
    const e = JSON.parse(Buffer.from(data).toString('utf8')) as { code: ErrorCode; message: string; position?: number };
    return new SvcError(e.code, e.message, e.position === undefined ? undefined : { position: e.position });
  } catch {
    return new SvcError('ClusterUnavailable', `node ${node} answered a query part with an error that could not be read`);
  }
}
