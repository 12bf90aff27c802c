// One svc node of a cluster on NATS JetStream: the log of its database (engine/log/database-log.ts).
// At start it checks every reachable NATS server's version (refusing < 2.10.23), opens the
// catalog bucket (KV: the cluster's config, alias claims, node reports), makes sure the streams
// exist (svc_meta and one per table group, R3), and follows them all from the start: the whole
// stream of the groups it serves, only the DDL subject of the others (table-groups.ts).
//
// A commit claims the aliases it creates (alias-claims.ts), appends its records to the streams
// they belong to (meta first, then each table group; one entry per stream, so the records of one
// table stay one atomic entry), and resolves once this node has applied those entries — so the
// writer reads its own writes here. Any node reads every write acknowledged before a read began
// (readBarrier: the streams' last sequences, asked of their leaders, applied here first).
import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamClient, JetStreamManager, StreamInfo } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import type { KV } from '@nats-io/kv';
import { SvcError } from '../errors.js';
import type { WalRecord } from '../durability/wal/records.js';
import type { DatabaseLog, DatabaseLogFigures, LogMemory, LogState, StateView } from '../log/database-log.js';
import type { ReplicationFigures } from '../figures.js';
import type { PartPlacement } from '../query/index.js';
import { CHECKPOINT_BUCKET, ClusterCheckpoints } from './cluster-checkpoints.js';
import { StaleWrite } from '../write/write-path.js';
import { AliasClaims } from './alias-claims.js';
import { entryConflict } from './entry-check.js';
import { addStream, JetStreamLog } from './jetstream-log.js';
import { LogFollower } from './log-follower.js';
import { NodeRegistry } from './node-registry.js';
import type { NodeReport } from './node-registry.js';
import { QueryParts } from './query-parts.js';
import { checkServerVersion } from './server-version.js';
import { retrying, StartSteps } from './start-steps.js';
import { groupOf, groupStream, groupSubjects, homeOf, META_STREAM, META_SUBJECT, recordGroup } from './table-groups.js';

export const CATALOG_BUCKET = 'svc_catalog';
/** A node whose followers have more than this many messages pending is lagging (`unstable`). */
export const LAG_MESSAGES = 1_000;
/** How long a commit waits for its own entries to be applied here. */
const APPLY_TIMEOUT_MS = 60_000;
/** One JetStream API request (stream info, last message) waits this long before it is asked again. */
const API_TIMEOUT_MS = 2_000;
const DEFAULT_CHECKPOINT_BYTES = 256 * 1024 * 1024;
/** How often a node looks whether a checkpoint is due. */
const CHECKPOINT_CHECK_MS = 2_000;
/** How long a create that lost its name's claim waits for the winner's create to arrive here. */
const CLAIM_WAIT_MS = 10_000;
/** How long a read barrier keeps asking a stream for its last sequence (leader elections take ~5 s). */
const BARRIER_DEADLINE_MS = 30_000;
/** A read barrier waiting longer than this says so in the log. */
const SLOW_BARRIER_MS = 5_000;

export interface ClusterOptions {
  /** host:port of each NATS server (the `--cluster nats://…` list). */
  readonly servers: readonly string[];
  /** This node's id (`--node-id`). */
  readonly nodeId: string;
  /** Base URL of this node's REST server, for the other nodes. */
  readonly url: string;
  /** Table groups of a new cluster (default 1); an existing cluster keeps the count it has. */
  readonly groups?: number;
  /** The groups whose rows this node holds (default every group). */
  readonly serveGroups?: readonly number[] | null;
  /** Replicas of each stream and of the catalog bucket (default min(3, servers)). */
  readonly replicas?: number;
  /** A node holding every group takes a checkpoint once this many bytes were applied since its last (default 256 MiB). */
  readonly checkpointBytes?: number;
  /** This node's machine figures, for the other nodes' GET /api/nodes/:id and /api/cluster. */
  readonly figures?: () => Promise<Record<string, number | string>>;
  readonly log?: (message: string) => void;
}

interface ClusterConfig {
  readonly groups: number;
}

interface Followed {
  readonly follower: LogFollower;
  /** The subject followed (null = the whole stream). */
  readonly subject: string | null;
}

export class ClusterReplication implements DatabaseLog {
  private readonly followers = new Map<string, Followed>();
  private readonly logs = new Map<string, JetStreamLog>();
  private isClosed = false;
  /** Entries the log refused (entry-check.ts), by `stream:sequence`, until their writer here looks. */
  private readonly refused = new Map<string, string>();
  readonly nodeId: string;
  /** Entries are applied when they come back from the streams, in their order (WriteLog). */
  readonly isAppliedAtCommit = false;
  // Set by open: the connection, the catalog bucket, and the groups the cluster's config names.
  private nc!: NatsConnection;
  private js!: JetStreamClient;
  private jsm!: JetStreamManager;
  private kv!: KV;
  private claims!: AliasClaims;
  registry!: NodeRegistry;
  groups = 0;
  serves: readonly number[] = [];

  /** A node of the cluster `options` names, as the log of a database (Database.openReplicated opens it). */
  constructor(private readonly options: ClusterOptions) {
    this.nodeId = options.nodeId;
  }

  /**
   * Joins the cluster: checks the NATS servers, opens the catalog bucket and the streams, loads
   * the newest checkpoint into `state` and follows every stream from the sequence after it.
   */
  async open(state: LogState): Promise<void> {
    const { options } = this;
    const groups = options.groups ?? 1;
    if (!(Number.isInteger(groups) && groups >= 1 && groups <= 1024)) throw new SvcError('InvalidArgument', `the number of table groups must be 1 to 1024, got ${groups}`);
    const steps = new StartSteps(options.log);
    // Neither asked again: a server too old is refused at once, and the client's connect retries by itself.
    await steps.run('versions', () => checkVersions(options.servers), 0);
    const nc = await steps.run('connect', () => connect({ servers: [...options.servers], name: `svc ${options.nodeId}`, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: 10_000 }), 0);
    try {
      const replicas = options.replicas ?? Math.min(3, options.servers.length);
      this.nc = nc;
      this.js = jetstream(nc);
      // Short API timeouts: a request that went to a leader just killed is asked again soon,
      // instead of waiting out the connection's 10 s.
      const jsm = await steps.run('jetstream', () => jetstreamManager(nc, { timeout: API_TIMEOUT_MS }));
      this.jsm = jsm;
      // No direct gets: a replica may answer those from behind (a claim or the checkpoint tag just
      // written read as missing); every read of the catalog goes to the bucket's leader.
      const kv = await steps.run('catalog bucket', () => new Kvm(nc).create(CATALOG_BUCKET, { replicas, history: 1, allow_direct: false }));
      this.kv = kv;
      const objects = await steps.run('checkpoint bucket', () => new Objm(nc).create(CHECKPOINT_BUCKET, { replicas }));
      const config = await steps.run('config', () => clusterConfig(kv, groups));
      const serves = options.serveGroups ?? Array.from({ length: config.groups }, (_, g) => g);
      for (const g of serves) {
        if (!(Number.isInteger(g) && g >= 0 && g < config.groups)) throw new SvcError('InvalidArgument', `group ${g} does not exist: this cluster has groups 0 to ${config.groups - 1}`);
      }
      this.groups = config.groups;
      this.serves = serves;
      this.claims = new AliasClaims(kv, options.nodeId);
      const registry = new NodeRegistry(kv, () => this.report());
      this.registry = registry;
      this.parts = new QueryParts(nc, options.nodeId, config.groups, serves, registry, state.parts, nc.info!.max_payload, undefined, (table) => homeOf(table, state.view));
      // From here on memory pressure (applying entries, or a write) is relieved by a checkpoint of this replica.
      this.checkpoints = new ClusterCheckpoints(options.nodeId, kv, objects, jsm, state.checkpoints, registry, options.log ?? (() => undefined));
      // Reported before the logs are opened: a report with nothing applied yet keeps the other
      // nodes from trimming a stream below what this node is about to follow.
      await steps.run('node report', () => registry.start());
      await this.follow(replicas, nc.info!.max_payload, state, steps);
      options.log?.(steps.summary());
      this.parts.start();
      this.startCheckpoints(options.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES);
      void this.whenCaughtUp(3_600_000).then((isCaughtUp) => {
        if (isCaughtUp) options.log?.(`caught up with the cluster's logs: ${this.replayFigures()}`);
      });
    } catch (e) {
      await nc.close().catch(() => undefined);
      throw unavailable(e);
    }
  }

  /** Following a stream failed for good (e.g. it was trimmed past this node's position). */
  get failure(): Error | null {
    for (const { follower } of this.followers.values()) {
      if (follower.failure !== null) return unavailable(follower.failure);
    }
    return null;
  }

  get isCaughtUp(): boolean {
    if (this.followers.size === 0) return false;
    for (const { follower } of this.followers.values()) if (!follower.isCaughtUp) return false;
    return true;
  }

  /** The group a table's rows live in (a materialized view's: its source's). */
  groupOf(table: string): number {
    return groupOf(this.view === null ? table : homeOf(table, this.view), this.groups);
  }

  /** Where the parts of a SELECT run: null when this node serves every group (all run here). */
  get placement(): PartPlacement | null {
    return this.serves.length === this.groups ? null : this.parts;
  }

  /** Resolves once every follower here is caught up (false after `timeoutMs`). */
  async whenCaughtUp(timeoutMs: number): Promise<boolean> {
    const all = await Promise.all([...this.followers.values()].map(({ follower }) => follower.whenCaughtUp(timeoutMs)));
    return all.every((x) => x);
  }

  /** What catching up took: entries and bytes applied, and the slowest stream's time (ms). */
  replayFigures(): string {
    let entries = 0;
    let bytes = 0;
    let ms = 0;
    for (const { follower } of this.followers.values()) {
      entries += follower.entriesApplied;
      bytes += follower.bytesApplied;
      ms = Math.max(ms, follower.catchUpMs ?? 0);
    }
    return `${entries} entries, ${bytes} bytes in ${ms.toFixed(0)} ms`;
  }

  async commit(records: readonly WalRecord[]): Promise<void> {
    if (this.isClosed) throw new SvcError('DatabaseClosed', 'the database is closed');
    const failure = this.failure;
    if (failure !== null) throw failure;
    if (records.length === 0) return;
    const view = this.view!;
    // Claims first: a create that loses the race fails before anything is appended.
    for (const r of records) {
      if (r.kind === 'TableCreate' || r.kind === 'ViewCreate') await this.claimCreate(r.name, view);
      else if (r.kind === 'BlobPut') await this.claims.claim(r.alias, 'blob', false, view.typeOf(r.alias));
      else if (r.kind === 'TagAttach') await this.claims.claim(r.tag, 'tag', false, view.typeOf(r.tag));
    }
    const byStream = new Map<number, WalRecord[]>();
    for (const r of records) {
      const g = recordGroup(r, this.groups, view);
      let list = byStream.get(g);
      if (list === undefined) byStream.set(g, (list = []));
      list.push(r);
    }
    // The meta stream first: a purge of an expired alias there precedes its new use in a group.
    for (const g of [...byStream.keys()].sort((a, b) => a - b)) {
      const list = byStream.get(g)!;
      const stream = g < 0 ? META_STREAM : groupStream(g);
      const subject = g < 0 ? META_SUBJECT : list.every((r) => r.kind === 'TableInsert') ? groupSubjects(g).rows : groupSubjects(g).ddl;
      const seq = await this.log(stream, subject).append(list);
      const followed = this.followers.get(stream)!;
      // A node that follows only a group's DDL never sees a rows entry: nothing to wait for here.
      if (followed.subject === null || followed.subject === subject) {
        await followed.follower.waitFor(seq, APPLY_TIMEOUT_MS).catch((e: unknown) => { throw unavailable(e); });
        const conflict = this.refused.get(`${stream}:${seq}`);
        if (conflict !== undefined) {
          this.refused.delete(`${stream}:${seq}`);
          throw new StaleWrite(conflict);
        }
      }
    }
    for (const r of records) if (r.kind === 'Remove') await this.claims.release(r.alias);
  }

  /**
   * Claims a new table's name. Lost to another node: once that node's create has reached this one
   * the write is validated again (an IF NOT EXISTS create then just goes on; a plain one fails
   * with AliasAlreadyExists, as on a single node).
   */
  private async claimCreate(name: string, view: StateView): Promise<void> {
    try {
      await this.claims.claim(name, 'ts', true, view.typeOf(name));
    } catch (e) {
      if (!(e instanceof SvcError) || e.code !== 'AliasAlreadyExists') throw e;
      const deadline = Date.now() + CLAIM_WAIT_MS;
      while (Date.now() < deadline) {
        await this.readBarrier();
        if (view.typeOf(name) !== null) throw new StaleWrite(`table '${name}' was created by another node`);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw e;
    }
  }

  async readBarrier(): Promise<void> {
    const failure = this.failure;
    if (failure !== null) throw failure;
    // A node whose disk is full applies nothing: it cannot answer as of every acknowledged write.
    if (this.disk?.whenSpace() != null) throw this.disk.refusal(true);
    // A stream electing a new leader answers nothing for a few seconds: ask again until it does.
    await Promise.all([...this.followers].map(async ([stream, { follower, subject }]) => {
      let last: number | null = null;
      // A barrier that waits long is said in the log while it waits: what it waits for, and where.
      const slow = setTimeout(() => this.options.log?.(`read barrier: stream ${stream}: ${last === null ? 'no last sequence from the leader' : `sequence ${last} not applied here`} after ${SLOW_BARRIER_MS} ms (applied ${follower.appliedSeq}, pending ${follower.pending}, consumer replaced ${follower.reopens} times)`), SLOW_BARRIER_MS);
      try {
        last = await retrying(() => (subject === null ? this.jsm.streams.info(stream).then((si) => si.state.last_seq) : this.lastOfSubject(stream, subject)), BARRIER_DEADLINE_MS)
          .catch((e: unknown) => { throw unavailable(e); });
        await follower.waitFor(last, APPLY_TIMEOUT_MS).catch((e: unknown) => { throw unavailable(e); });
      } finally {
        clearTimeout(slow);
      }
    }));
  }

  /** Every stream with a leader and a quorum of current replicas, and every node caught up. */
  async isStable(): Promise<boolean> {
    const streams = [META_STREAM, ...Array.from({ length: this.groups }, (_, g) => groupStream(g))];
    for (const s of streams) {
      const info = await this.streamInfo(s).catch(() => null);
      if (info === null || !hasQuorum(info)) return false;
    }
    const nodes = await this.registry.live();
    return nodes.some((n) => n.id === this.nodeId) && nodes.every((n) => n.isCaughtUp);
  }

  /**
   * A random secret of `bytes` bytes that every node of the cluster shares (e.g. the key that signs
   * login tokens): made by the first node that asks (create = compare-and-set), read by the rest.
   */
  async sharedSecret(name: string, bytes: number): Promise<Uint8Array> {
    const key = `secret.${name}`;
    await this.kv.create(key, randomBytes(bytes)).catch(() => undefined);
    const e = await this.kv.get(key);
    if (e === null || e.operation !== 'PUT') throw new SvcError('ClusterUnavailable', `the cluster secret '${name}' could not be read`);
    return e.value;
  }

  /** Checks every few seconds whether a checkpoint is due (only a node holding every group's rows takes them). */
  private startCheckpoints(everyBytes: number): void {
    if (this.serves.length !== this.groups) return;
    this.checkpointTimer = setInterval(() => {
      void this.checkpoints!.maybeTake(this.followerMap(), everyBytes).catch((e: unknown) => this.options.log?.(`checkpoint failed: ${(e as Error).message}`));
    }, CHECKPOINT_CHECK_MS);
    this.checkpointTimer.unref();
  }

  /** Memory pressure: a checkpoint of this replica, written here only (ClusterCheckpoints.relieve). */
  relieve(): Promise<void> {
    return this.checkpoints?.relieve(this.followerMap()) ?? Promise.resolve();
  }

  /** Takes a checkpoint now (Database.checkpoint()): false when this node does not hold every group. */
  async checkpoint(): Promise<boolean> {
    if (this.serves.length !== this.groups) return false;
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await this.checkpoints!.maybeTake(this.followerMap(), 0, true)) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  }

  /** Checkpoints published and stream trims made by this node. */
  get checkpointFigures(): { published: number; trimmed: number } {
    return { published: this.checkpoints!.published, trimmed: this.checkpoints!.trimmed };
  }

  private followerMap(): Map<string, LogFollower> {
    return new Map([...this.followers].map(([s, f]) => [s, f.follower]));
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.checkpointTimer !== null) clearInterval(this.checkpointTimer);
    await this.parts?.stop();
    await this.registry.stop();
    for (const log of this.logs.values()) await log.close();
    for (const { follower } of this.followers.values()) await follower.stop();
    await this.nc.close().catch(() => undefined);
  }

  private view: StateView | null = null;
  private disk: LogState['disk'] | null = null;
  private parts: QueryParts | null = null;
  private checkpoints: ClusterCheckpoints | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;

  /** Opens the streams and follows each from the sequence after the newest checkpoint's tag. */
  private async follow(replicas: number, maxPayload: number, state: LogState, steps: StartSteps): Promise<void> {
    const { view, memory, disk } = state;
    this.view = view;
    this.disk = disk;
    await steps.run(`stream ${META_STREAM}`, () => addStream(this.jsm, { name: META_STREAM, subjects: [META_SUBJECT], replicas }));
    for (let g = 0; g < this.groups; g++) await steps.run(`stream ${groupStream(g)}`, () => addStream(this.jsm, { name: groupStream(g), subjects: [groupSubjects(g).all], replicas }));
    // The newest checkpoint first: the streams are followed from the sequences after its tag.
    const tag = await steps.run('checkpoint', () => this.checkpoints!.restore());
    const follow = (stream: string, subject: string | null, rowsToo: boolean): void => {
      const applyEntry = (records: WalRecord[], seq: number): void => {
        const conflict = entryConflict(records, view);
        if (conflict !== null) {
          // Refused alike on every node; the writer (if it is this node) validates again.
          state.unprepare(records);
          this.refused.set(`${stream}:${seq}`, conflict);
          if (this.refused.size > 10_000) this.refused.delete(this.refused.keys().next().value!);
          return;
        }
        for (const r of records) if (rowsToo || r.kind !== 'TableInsert') state.apply(r);
        memory.afterApply();
      };
      // Disk and budget first: while space is short, or a checkpoint makes room in memory, the
      // follower waits, its consumer paused. Then a DELETE's removal is prepared (rows read back,
      // replacement batches built), so the synchronous apply only swaps batches.
      const admit = (bytes: number, records: readonly WalRecord[]): Promise<void> | null => {
        const space = disk.whenSpace();
        if (space !== null) return this.spaceFor(space, follower).then(() => admit(bytes, records) ?? undefined);
        const wait = memory.admit(bytes);
        const isRemoval = records.some((r) => r.kind === 'RowsDelete');
        if (wait === null) return isRemoval ? state.prepare(records) : null;
        const admitted = this.admitted(wait, bytes, memory, follower);
        return isRemoval ? admitted.then(() => state.prepare(records)) : admitted;
      };
      const follower = new LogFollower(this.js, stream, (tag?.positions[stream] ?? 0) + 1, applyEntry, subject, admit);
      this.followers.set(stream, { follower, subject });
    };
    follow(META_STREAM, null, true);
    for (let g = 0; g < this.groups; g++) {
      const isServed = this.serves.includes(g);
      follow(groupStream(g), isServed ? null : groupSubjects(g).ddl, isServed);
    }
    this.maxPayload = maxPayload;
    for (const { follower } of this.followers.values()) await steps.run(`follow ${follower.stream}`, () => follower.start());
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === 'reconnect') for (const { follower } of this.followers.values()) follower.renew();
      }
    })().catch(() => undefined);
  }

  private maxPayload = 1 << 20;

  /**
   * Waits until an entry of `bytes` fits the memory budget. A replica cannot refuse an entry that
   * every other node applies: when checkpoints have made evictable all they can and it still does
   * not fit (it is larger than the budget, or than what tails and other streams leave of it), it
   * is applied past the budget, by one entry. While checkpoints fail (a full disk) it waits and
   * asks again, its stream lagging (api/cluster says `unstable`), rather than run out of memory.
   */
  private async admitted(first: Promise<void>, bytes: number, memory: LogMemory, follower: LogFollower): Promise<void> {
    let wait: Promise<void> | null = first;
    for (let attempt = 0; wait !== null && !this.isClosed; attempt++) {
      try {
        await wait;
      } catch (e) {
        if ((e as Error).cause === undefined) {
          // Nothing more can leave memory (MemoryPressure tried): one entry goes past the budget.
          if (bytes > memory.limit) await this.relieve().catch(() => undefined);
          this.options.log?.(`stream ${follower.stream}: sequence ${follower.appliedSeq + 1} applied past the memory budget: ${(e as Error).message}`);
          return;
        }
        if (attempt % 30 === 0) this.options.log?.(`stream ${follower.stream}: waiting for memory to apply sequence ${follower.appliedSeq + 1}: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
      wait = memory.admit(bytes, true);
    }
  }

  /** Waits for disk space before the next entry of `follower`'s stream is applied, saying so in the log. */
  private async spaceFor(space: Promise<void>, follower: LogFollower): Promise<void> {
    const at = follower.appliedSeq + 1;
    this.options.log?.(`stream ${follower.stream}: the disk is below its floor (--min-free-disk): applying paused at sequence ${at} until space is freed`);
    await space;
    this.options.log?.(`stream ${follower.stream}: disk space is back: applying from sequence ${at}`);
  }

  private log(stream: string, subject: string): JetStreamLog {
    let log = this.logs.get(subject);
    if (log === undefined) this.logs.set(subject, (log = new JetStreamLog(this.js, stream, subject, this.maxPayload)));
    return log;
  }

  private streamInfo(stream: string): Promise<StreamInfo> {
    return this.jsm.streams.info(stream).catch((e: unknown) => { throw unavailable(e); });
  }

  private async lastOfSubject(stream: string, subject: string): Promise<number> {
    const m = await this.jsm.streams.getMessage(stream, { last_by_subj: subject }).catch((e: unknown) => {
      if (/no message found/i.test((e as Error).message)) return null;
      throw e;
    });
    return m?.seq ?? 0;
  }

  figures(): DatabaseLogFigures {
    return { walBytes: 0, walFsyncs: 0, replication: this.replicationFigures() };
  }

  /** How far this node has applied each log, and how its appends went (GET /metrics). */
  private replicationFigures(): ReplicationFigures {
    const appends = [...this.logs.values()];
    const logs = [...this.followers].map(([name, { follower }]) => {
      const mine = appends.filter((log) => log.stream === name);
      return {
        name,
        appliedSeq: follower.appliedSeq,
        pending: Number.isFinite(follower.pending) ? follower.pending : null,
        publishRetries: mine.reduce((n, log) => n + log.retries, 0),
        unstoredDuplicates: mine.reduce((n, log) => n + log.unstoredDuplicates, 0),
      };
    });
    return { logs };
  }

  private async report(): Promise<NodeReport> {
    const { options } = this;
    const { logs } = this.replicationFigures();
    const pending = logs.reduce((n, l) => n + (l.pending ?? 0), 0);
    return {
      id: this.nodeId,
      url: options.url,
      at: Date.now(),
      // A node whose disk is full applies nothing: not caught up, whatever it has applied so far.
      isCaughtUp: this.disk?.whenSpace() == null && (this.isCaughtUp || pending <= LAG_MESSAGES && logs.every((l) => l.pending !== null)),
      applied: Object.fromEntries(logs.map((l) => [l.name, l.appliedSeq])),
      serves: this.serves,
      figures: (await options.figures?.().catch(() => ({}))) ?? {},
    };
  }
}

/** Every reachable server must be new enough; at least one must answer. */
async function checkVersions(servers: readonly string[]): Promise<void> {
  let reached = 0;
  const problems: string[] = [];
  for (const server of servers) {
    let nc: NatsConnection;
    try {
      nc = await connect({ servers: server, reconnect: false, timeout: 5_000 });
    } catch (e) {
      problems.push(`${server}: ${(e as Error).message}`);
      continue;
    }
    try {
      reached++;
      checkServerVersion(nc.info!.version, server);
    } finally {
      await nc.close().catch(() => undefined);
    }
  }
  if (reached === 0) throw new SvcError('ClusterUnavailable', `no NATS server of the cluster answered (${problems.join('; ')})`);
}

/** The cluster's config: written once by the first node (create = compare-and-set), read by the rest. */
async function clusterConfig(kv: KV, groups: number): Promise<ClusterConfig> {
  try {
    await kv.create('config', JSON.stringify({ groups } satisfies ClusterConfig));
  } catch {
    // an existing cluster: its config stands
  }
  const e = await kv.get('config');
  if (e === null || e.operation !== 'PUT') throw new SvcError('ClusterUnavailable', 'the cluster config could not be read from the catalog bucket');
  return e.json<ClusterConfig>();
}

function hasQuorum(info: StreamInfo): boolean {
  const c = info.cluster;
  if (c === undefined) return true; // a single server: no replicas to lose
  if (c.leader === undefined || c.leader === '') return false;
  const current = 1 + (c.replicas ?? []).filter((r) => r.current && r.offline !== true).length;
  return current > info.config.num_replicas / 2;
}

function unavailable(e: unknown): SvcError {
  if (e instanceof SvcError) return e;
  return new SvcError('ClusterUnavailable', `the cluster did not answer: ${(e as Error).message}`, { cause: e });
}
