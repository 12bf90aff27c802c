// Checkpoints of a cluster: a node that holds every table group's rows, once enough has been
// applied since its last one, writes a checkpoint of its state in its data directory (the
// single-node checkpoint format: Arrow IPC files, entries, a manifest), tags it with the
// sequence it had applied of every stream at that instant, uploads its files to the
// `svc_checkpoints` object store and points the catalog bucket's `checkpoint` key at it (compare-
// and-set, only ever forward). Then each stream is trimmed below the tagged sequence once every
// live node has applied that far. A node that starts downloads the newest checkpoint, loads it,
// and follows each stream from the sequence after its tag.
//
// An entry cut into parts must not straddle a published checkpoint: one is published only while
// no stream has an entry waiting for parts (its positions are then whole entries).
//
// Memory pressure (SPEC §10, on every node) takes checkpoints too, any node, in the same
// numbering: written here only, so that what they hold may leave memory (`relieve`). An upload
// holds a lease on the folder's files, so checkpoints written meanwhile delete none it reads.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { checkpointFiles, isDataFile } from '../durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../durability/checkpoint/manifest.js';
import type { Manifest } from '../durability/checkpoint/manifest.js';
import type { LogCheckpoints } from '../log/database-log.js';
import type { LogFollower } from './log-follower.js';
import type { NodeRegistry } from './node-registry.js';

export const CHECKPOINT_KEY = 'checkpoint';
export const CHECKPOINT_BUCKET = 'svc_checkpoints';
/**
 * A node holds back trimming while its last report is younger than this — far longer than it
 * counts as live (LIVE_MS, 5 s). Reports are late without their node being gone: every put fails
 * while the catalog bucket elects a leader (5–8 s after a NATS server is killed), and a loaded
 * machine delays them. Trimmed past a node that was only late, its stream would have a gap and
 * the node would stop for good. A node truly gone holds the streams a minute longer, no more.
 */
export const TRIM_HOLD_MS = 60_000;
/** A checkpoint download that gets no data this long is abandoned and asked again (see readObject). */
const OBJECT_STALL_MS = 5_000;

/** What the catalog bucket says of the newest checkpoint. */
export interface CheckpointTag {
  readonly node: string;
  /** The checkpoint's number (its files are named after it: checkpoint-folder.ts). */
  readonly n: number;
  /** Object names of its files, each `<node>/<file name>`. */
  readonly files: readonly string[];
  /** Stream → the last sequence the checkpoint covers. */
  readonly positions: Readonly<Record<string, number>>;
  readonly bytes: number;
}

export class ClusterCheckpoints {
  private lastN = 0;
  private appliedAtLast = 0;
  /** The local write under way (one at a time), and whether a checkpoint is being published. */
  private writing: Promise<void> | null = null;
  private isPublishing = false;
  /** Objects this node has uploaded (its files are written once and never change). */
  private readonly uploaded = new Set<string>();
  /** Positions of the last checkpoint taken here that some stream is not yet trimmed to. */
  private untrimmed: Record<string, number> | null = null;
  /** Checkpoints published, streams trimmed, and checkpoints taken for memory by this node (figures for tests). */
  published = 0;
  trimmed = 0;
  forMemory = 0;

  constructor(
    private readonly nodeId: string,
    private readonly kv: KV,
    private readonly store: ObjectStore,
    private readonly jsm: JetStreamManager,
    private readonly local: LogCheckpoints,
    private readonly registry: NodeRegistry,
    private readonly log: (message: string) => void,
    private readonly stallMs = OBJECT_STALL_MS,
  ) {}

  /**
   * Fails when a stream no longer holds the entry after the tag's position: the tag was read stale.
   * Streams are trimmed only behind a checkpoint the catalog names, so the newest tag is never
   * behind a stream's first sequence — yet a catalog read right after a leader change can answer
   * an older value (a restarted node was handed the checkpoint before the newest, its stream
   * trimmed past it: "stream svc_g1 starts at sequence 311, after 237 which this node needs
   * next", and it stopped for good). Checked before anything is loaded: the restore is then asked
   * again and reads the catalog anew. A stream-info reply may be stale too, but only ever behind
   * (a first sequence too low, never too high), so the check never refuses a good tag.
   */
  private async checkHeld(tag: CheckpointTag): Promise<void> {
    for (const [stream, seq] of Object.entries(tag.positions)) {
      const first = (await this.jsm.streams.info(stream)).state.first_seq;
      if (first > seq + 1) throw new Error(`checkpoint ${tag.n} of ${tag.node} covers stream ${stream} up to sequence ${seq}, but the stream starts at ${first}: the catalog was read stale; reading it again`);
    }
  }

  /**
   * Loads the cluster's newest checkpoint into the empty state; returns the positions it covers
   * (stream → last sequence), or null when the cluster has none.
   */
  async restore(): Promise<CheckpointTag | null> {
    const e = await this.kv.get(CHECKPOINT_KEY);
    if (e === null || e.operation !== 'PUT') return null;
    const tag = e.json<CheckpointTag>();
    await this.checkHeld(tag);
    const t = performance.now();
    // The folder becomes exactly the checkpoint: files of the node's own earlier ones are dropped.
    for (const name of await readdir(this.local.dir)) await rm(join(this.local.dir, name), { recursive: true, force: true });
    for (const object of tag.files) {
      const data = await readObject(this.store, object, this.stallMs);
      if (data === null) throw new Error(`checkpoint ${tag.n} of ${tag.node}: object ${object} is missing`);
      await writeFile(join(this.local.dir, object.slice(object.indexOf('/') + 1)), data);
    }
    await this.local.load();
    // This node's own checkpoints are numbered after it: the same number would overwrite the files just loaded.
    this.lastN = Math.max(this.lastN, tag.n);
    const held = batchesOf(await this.manifestOf(tag.n));
    this.log(`loaded checkpoint ${tag.n} of ${tag.node} (${tag.bytes} bytes) in ${(performance.now() - t).toFixed(0)} ms; following the logs after ${JSON.stringify(tag.positions)}; ${held}`);
    return tag;
  }

  /**
   * A checkpoint for memory pressure (any node): written here, so what it holds may leave memory;
   * not published (a node serving some groups has no whole state to publish, and the follower
   * waiting for it should not wait for an upload). Resolves once durable; joins one under way.
   */
  relieve(followers: ReadonlyMap<string, LogFollower>): Promise<void> {
    if (this.writing !== null) return this.writing;
    this.forMemory++;
    const t = performance.now();
    return this.write(followers).then(({ n }) => this.log(`checkpoint ${n} written for memory in ${(performance.now() - t).toFixed(0)} ms`));
  }

  /**
   * Takes, uploads and announces a checkpoint when at least `everyBytes` were applied since the
   * last one (or `force`), then trims the streams; resolves with whether one was published.
   */
  async maybeTake(followers: ReadonlyMap<string, LogFollower>, everyBytes: number, force = false): Promise<boolean> {
    // A checkpoint for memory under way is waited for, not raced: those may follow each other closely.
    while (this.writing !== null && !this.isPublishing) await this.writing.catch(() => undefined);
    if (this.isPublishing) return false;
    let applied = 0;
    for (const f of followers.values()) applied += f.bytesApplied;
    if (!force && applied - this.appliedAtLast < everyBytes) {
      // Not due: trim behind the last one if some node was still behind it then.
      if (this.untrimmed !== null) await this.trim(this.untrimmed);
      return false;
    }
    for (const f of followers.values()) if (f.partsPending > 0) return false; // try again later
    this.isPublishing = true;
    // Files the upload reads stay until it is done, whatever checkpoints are written meanwhile.
    const release = this.local.lease();
    try {
      const { n, positions } = await this.write(followers);
      this.appliedAtLast = applied;
      // Trimmed only behind an announced checkpoint: one not announced (the catalog's is ahead on
      // some stream) may be ahead of the catalog's on another, and a node that starts loads the
      // catalog's — its streams trimmed past it, that node could not start.
      if (await this.publish(n, positions)) await this.trim(positions);
      return true;
    } finally {
      release();
      this.isPublishing = false;
    }
  }

  /** Writes checkpoint n here: positions and snapshot in one synchronous step (nothing is applied in between). */
  private async write(followers: ReadonlyMap<string, LogFollower>): Promise<{ n: number; positions: Record<string, number> }> {
    const n = Math.max(this.lastN + 1, Math.floor(Date.now() / 1000));
    this.lastN = n;
    const positions: Record<string, number> = {};
    for (const [stream, f] of followers) positions[stream] = f.appliedSeq;
    const written = this.local.take(n);
    this.writing = written;
    try {
      await written;
    } finally {
      this.writing = null;
    }
    return { n, positions };
  }

  /** Uploads checkpoint n and announces it; resolves with whether the catalog now names it. */
  private async publish(n: number, positions: Record<string, number>): Promise<boolean> {
    const doc = await this.manifestOf(n);
    const named = await checkpointFiles(this.local.dir, n, Object.keys(doc.files));
    const files: string[] = [];
    let bytes = 0;
    for (const name of named) {
      const object = `${Buffer.from(this.nodeId).toString('base64url')}/${name}`;
      files.push(object);
      const data = await readFile(join(this.local.dir, name));
      bytes += data.length;
      // Data files never change once written; the manifest and the marker are small.
      if (this.uploaded.has(object) && isDataFile(name)) continue;
      await this.store.putBlob({ name: object }, data);
      this.uploaded.add(object);
    }
    const tag: CheckpointTag = { node: this.nodeId, n, files, positions, bytes };
    for (let attempt = 0; attempt < 5; attempt++) {
      const e = await this.kv.get(CHECKPOINT_KEY);
      const current = e === null || e.operation !== 'PUT' ? null : e.json<CheckpointTag>();
      // Only ever forward: a checkpoint behind the current one on some stream is not announced.
      if (current !== null && Object.entries(current.positions).some(([s, seq]) => (positions[s] ?? 0) < seq)) return false;
      try {
        if (e === null || e.operation !== 'PUT') await this.kv.create(CHECKPOINT_KEY, JSON.stringify(tag));
        else await this.kv.update(CHECKPOINT_KEY, JSON.stringify(tag), e.revision);
        this.published++;
        this.log(`checkpoint ${n} published (${bytes} bytes, ${files.length} files) at ${JSON.stringify(positions)}; ${batchesOf(doc)}`);
        return true;
      } catch {
        // another node announced one meanwhile: look again
      }
    }
    return false;
  }

  /** The manifest of checkpoint `n` in this node's folder. */
  private manifestOf(n: number): Promise<Manifest> {
    return readManifest(this.local.dir, n, (path) => new Error(`checkpoint manifest ${path} is damaged`));
  }

  /**
   * Purges each stream below the checkpoint's position once every node that reported within
   * TRIM_HOLD_MS has applied past it; a stream some node is still behind on is tried again on the
   * next check.
   */
  private async trim(positions: Record<string, number>): Promise<void> {
    const nodes = await this.registry.reported(TRIM_HOLD_MS);
    const left: Record<string, number> = {};
    for (const [stream, seq] of Object.entries(positions)) {
      if (seq <= 0) continue;
      if (nodes.some((n) => (n.applied[stream] ?? 0) < seq)) {
        left[stream] = seq;
        continue;
      }
      await this.jsm.streams.purge(stream, { seq: seq + 1 });
      this.trimmed++;
    }
    this.untrimmed = Object.keys(left).length === 0 ? null : left;
  }
}

/**
 * An object's bytes (null when it does not exist). The client reads an object through a push
 * consumer whose only liveness check is a 30 s idle heartbeat: a consumer placed on a NATS server
 * that is killed, or still catching up after a restart, can leave the read waiting a minute or
 * more — a restarted node printed no ready line within 60 s. A read that gets no data for
 * `stallMs` is cancelled and fails, so the restore is asked again (on a new consumer).
 */
export async function readObject(store: ObjectStore, name: string, stallMs: number): Promise<Uint8Array | null> {
  const r = await store.get(name);
  if (r === null) return null;
  const reader = r.data.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`object ${name}: no data for ${stallMs} ms after ${size} bytes`)), stallMs);
    });
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await Promise.race([reader.read(), stalled]);
    } catch (e) {
      void reader.cancel().catch(() => undefined);
      throw e;
    } finally {
      clearTimeout(timer);
    }
    if (chunk.done) break;
    parts.push(chunk.value);
    size += chunk.value.length;
  }
  const error = await r.error;
  if (error !== null && error !== undefined) throw error;
  return Buffer.concat(parts, size);
}

/**
 * Each table's batches as a checkpoint's manifest names them — file#index, rows, time range —
 * for the log: which files a loaded state reads its rows from (the first 8 batches per table).
 */
function batchesOf(doc: Manifest): string {
  return doc.tables.filter((t) => t.batches.length > 0).map((t) => {
    const shown = t.batches.slice(0, 8).map((b) => `${b.file}#${b.index} ${b.stats[0].count} rows ${String(b.stats[0].min)}..${String(b.stats[0].max)}`);
    return `${t.name}: ${shown.join(', ')}${t.batches.length > 8 ? ` and ${t.batches.length - 8} more` : ''}`;
  }).join('; ');
}
