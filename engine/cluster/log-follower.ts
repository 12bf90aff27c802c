// Applies a table group's stream in order: an ordered consumer (the client recreates it from the
// last sequence it delivered when the server side is lost — a leader change, a restarted server)
// from a start sequence, each message through the Reassembler, each complete entry decoded (the
// WAL's frames and records) and handed to `apply` with its sequence. `appliedSeq` is the highest
// sequence whose messages have all been applied; read-your-writes waits on it (`waitFor`).
//
// Caught up: decided from the consumer's own pending count (the messages it has not delivered
// yet), as delivered with each message and as its info reports — never from a stream-info reply,
// which a server may answer from a stale state for ~1 s after a restart.
import type { Consumer, ConsumerMessages, JetStreamClient } from '@nats-io/jetstream';
import { DeliverPolicy } from '@nats-io/jetstream';
import { framesOf } from '../durability/wal/frame.js';
import { decodeRecords } from '../durability/wal/records.js';
import type { WalRecord } from '../durability/wal/records.js';
import { Reassembler } from './entry-chunks.js';
import { DUPLICATE_WINDOW_MS } from './jetstream-log.js';

/** Applies one entry (`bytes`: its size as logged), synchronously. */
export type ApplyEntry = (records: WalRecord[], seq: number, bytes: number) => void;

/**
 * Null when an entry of `bytes` may be applied now, else a promise to wait for first (memory): the
 * follower then takes no further message until it resolves — its consumer, not the stream, waits.
 */
export type AdmitEntry = (bytes: number, records: readonly WalRecord[]) => Promise<void> | null;

/** A consumer that delivers nothing this long while someone waits is replaced. */
const STALL_MS = 1_500;

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export class LogFollower {
  appliedSeq: number;
  /** Messages the consumer had not delivered yet when it delivered the last one. */
  pending = Number.POSITIVE_INFINITY;
  /** Bytes of message data applied (for the bench's replay figure). */
  bytesApplied = 0;
  entriesApplied = 0;
  /** When the follower started, and how long it took to catch up the first time (ms; null until then). */
  private startedAt = 0;
  catchUpMs: number | null = null;
  private readonly reassembler = new Reassembler(DUPLICATE_WINDOW_MS);
  private waiters: Waiter[] = [];
  private caughtUpWaiters: (() => void)[] = [];
  private messages: ConsumerMessages | null = null;
  private consumer: Consumer | null = null;
  private running: Promise<void> | null = null;
  /** Set when following failed for good (waits then fail at once). */
  failure: unknown = null;
  private isStopped = false;
  private watchdog: NodeJS.Timeout | null = null;
  /** When the current consumer last delivered (or was made). */
  private lastProgressAt = 0;
  /** Which consumer is current: a replaced one's messages are not applied. */
  private generation = 0;
  /** Consumers replaced after missed heartbeats (a figure for tests). */
  reopens = 0;
  /** Messages delivered again at or below the applied sequence, and skipped (a figure for tests). */
  redelivered = 0;
  /** An entry waits to be applied (memory): the consumer is paused on purpose, not stuck. */
  private isApplying = false;

  /** `fromSeq`: the first sequence to apply (1 for a whole stream); `subject`: only messages of it. */
  constructor(
    private readonly js: JetStreamClient,
    readonly stream: string,
    fromSeq: number,
    private readonly apply: ApplyEntry,
    private readonly subject: string | null = null,
    private readonly admit: AdmitEntry = () => null,
  ) {
    this.appliedSeq = fromSeq - 1;
  }

  /** Entries cut into parts whose last part has not arrived yet. */
  get partsPending(): number {
    return this.reassembler.pendingEntries;
  }

  get isCaughtUp(): boolean {
    return this.pending === 0 && this.reassembler.pendingEntries === 0;
  }

  /** Parts repeated or late (ignored), entries abandoned by a writer that died between parts. */
  get reassembly(): { duplicates: number; abandoned: number } {
    return { duplicates: this.reassembler.duplicates, abandoned: this.reassembler.abandoned };
  }

  get hasFailed(): boolean {
    return this.failure !== null;
  }

  async start(): Promise<void> {
    this.startedAt = performance.now();
    await this.open();
    void this.checkPending();
    this.watchdog = setInterval(() => this.checkStall(), 1_000);
    this.watchdog.unref();
  }

  /**
   * Someone waits for a sequence the stream has (it was acknowledged, or the stream reported it),
   * yet nothing arrived for STALL_MS: the consumer is stuck — typically it lived on a server that
   * was killed, and the client went on asking that consumer after reconnecting elsewhere, so no
   * heartbeat was ever reported missing. Replace it.
   */
  private checkStall(): void {
    if (this.waiters.length === 0 || this.isStopped || this.isApplying) return;
    const now = Date.now();
    if (now - this.lastProgressAt > STALL_MS) {
      this.lastProgressAt = now;
      void this.reopen(this.generation);
    }
  }

  /**
   * A consumer from the next sequence to apply. Short pulls with heartbeats: the client notices a
   * lost consumer within seconds. It recreates an ordered consumer whose server still answers,
   * but one that lived on a server that was killed only answers timeouts until that server is back,
   * and the client keeps asking it: after two missed heartbeats this side drops it and makes a new
   * one (placed on a live server) from the last sequence it applied.
   */
  private async open(): Promise<void> {
    const generation = ++this.generation;
    this.lastProgressAt = Date.now();
    this.consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.appliedSeq + 1,
      ...(this.subject === null ? {} : { filter_subjects: [this.subject] }),
    });
    const messages = await this.consumer.consume({ max_bytes: 16 * 1024 * 1024, expires: 4_000, idle_heartbeat: 1_000 });
    this.messages = messages;
    this.running = this.loop(messages, generation);
    void (async () => {
      for await (const s of messages.status()) {
        if (s.type === 'heartbeats_missed' && s.count >= 2 && generation === this.generation && !this.isApplying) {
          void this.reopen(generation);
          return;
        }
      }
    })().catch(() => undefined);
  }

  /**
   * After the connection moved to another server: the consumer may have lived on the one that
   * went away, so make a new one at once rather than wait for the stall check.
   */
  renew(): void {
    void this.reopen(this.generation);
  }

  /** Replaces the consumer of `generation` (unless replaced already), retrying until it works. */
  private async reopen(generation: number): Promise<void> {
    if (generation !== this.generation || this.isStopped) return;
    this.reopens++;
    this.generation++; // the old loop stops applying from now on
    await this.messages?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
    for (let delay = 250; !this.isStopped; delay = Math.min(delay * 2, 2_000)) {
      try {
        await this.open();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Resolves once every entry up to `seq` is applied here (rejects after `timeoutMs`). */
  waitFor(seq: number, timeoutMs: number): Promise<void> {
    if (this.appliedSeq >= seq) return Promise.resolve();
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`stream ${this.stream}: sequence ${seq} not applied within ${timeoutMs} ms (applied ${this.appliedSeq})`));
      }, timeoutMs);
      const waiter: Waiter = { seq, resolve: () => { clearTimeout(timer); resolve(); }, reject: (e) => { clearTimeout(timer); reject(e); } };
      this.waiters.push(waiter);
    });
  }

  /** Resolves once caught up (see the header), or after `timeoutMs` with false. */
  whenCaughtUp(timeoutMs: number): Promise<boolean> {
    if (this.isCaughtUp) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.caughtUpWaiters.push(() => { clearTimeout(timer); resolve(true); });
    });
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.watchdog !== null) clearInterval(this.watchdog);
    await this.messages?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  private async loop(messages: ConsumerMessages, generation: number): Promise<void> {
    try {
      for await (const m of messages) {
        if (this.isStopped || generation !== this.generation) break;
        if (m.seq <= this.appliedSeq) {
          // Applied here already. A consumer made on a server whose copy of the stream is behind
          // starts below the sequence asked for: nats-server clamps the start to that copy's last
          // sequence + 1, or to 1 while the copy is empty (consumer.go, selectStartingSeqNo). A
          // node that had loaded a checkpoint then applied the entries before its tag a second
          // time (seen: 405 entries, back to where the stream was trimmed), and a live node moved
          // its position back, so that its next checkpoint tagged less than it held.
          this.redelivered++;
          this.lastProgressAt = Date.now();
          continue;
        }
        if (this.subject === null && m.seq > this.appliedSeq + 1) {
          // The stream was trimmed past this node's position: what lies between is lost to it.
          throw new Error(`stream ${this.stream} starts at sequence ${m.seq}, after ${this.appliedSeq + 1} which this node needs next: restart it to load the newest checkpoint`);
        }
        const body = this.reassembler.push({ seq: m.seq, timeMs: m.info.timestampNanos / 1e6, headers: m.headers, data: m.data });
        if (body !== null) {
          const records = framesOf(body).flatMap((payload) => decodeRecords(payload));
          const waiting = this.admit(body.length, records);
          if (waiting !== null) {
            // Applied once admitted, even if the consumer was replaced meanwhile (the new one
            // starts after the sequence set below).
            this.isApplying = true;
            try {
              await waiting;
            } finally {
              this.isApplying = false;
            }
          }
          // The entry and its sequence in one synchronous step: a checkpoint, taken at any moment
          // between two steps, says exactly which entries its state holds. (Applied inside the
          // wait's promise instead, a checkpoint could run between the two, hold the entry and
          // tag the sequence before it: every node loading it applied the entry twice.)
          this.apply(records, m.seq, body.length);
          this.bytesApplied += body.length;
          this.entriesApplied++;
        }
        this.appliedSeq = m.seq;
        this.pending = m.info.pending;
        this.lastProgressAt = Date.now();
        this.wake();
      }
    } catch (e) {
      if (!this.isStopped && generation === this.generation) this.fail(e);
    }
  }

  /**
   * A stream with nothing after the start delivers no message, hence no pending count: ask the
   * consumer. Its num_pending counts what it has not delivered; what it delivered and this side
   * has not applied yet is compared by sequence.
   */
  private async checkPending(): Promise<void> {
    for (let delay = 100; !this.isStopped && !this.isCaughtUp; delay = Math.min(delay * 2, 1_000)) {
      if (this.pending !== Number.POSITIVE_INFINITY) return; // messages carry the count from now on
      try {
        const info = await this.consumer!.info();
        // Nothing delivered by this consumer yet, or nothing delivered that is not applied.
        const isAllApplied = info.delivered.consumer_seq === 0 || info.delivered.stream_seq <= this.appliedSeq;
        if (info.num_pending === 0 && isAllApplied && this.pending === Number.POSITIVE_INFINITY) {
          this.pending = 0;
          this.wake();
          return;
        }
      } catch {
        // the ordered consumer is being (re)created: ask again
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private wake(): void {
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => w.seq <= this.appliedSeq);
      if (ready.length > 0) {
        this.waiters = this.waiters.filter((w) => w.seq > this.appliedSeq);
        for (const w of ready) w.resolve();
      }
    }
    if (this.isCaughtUp && this.catchUpMs === null) this.catchUpMs = performance.now() - this.startedAt;
    if (this.isCaughtUp && this.caughtUpWaiters.length > 0) for (const f of this.caughtUpWaiters.splice(0)) f();
  }

  private fail(e: unknown): void {
    this.failure = e;
    for (const w of this.waiters.splice(0)) w.reject(e);
  }
}
