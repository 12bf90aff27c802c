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

export type ApplyEntry = (records: WalRecord[], seq: number) => void;

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
  private readonly reassembler = new Reassembler(DUPLICATE_WINDOW_MS);
  private waiters: Waiter[] = [];
  private caughtUpWaiters: (() => void)[] = [];
  private messages: ConsumerMessages | null = null;
  private consumer: Consumer | null = null;
  private running: Promise<void> | null = null;
  private failure: unknown = null;
  private isStopped = false;

  /** `fromSeq`: the first sequence to apply (1 for a whole stream). */
  constructor(
    private readonly js: JetStreamClient,
    readonly stream: string,
    fromSeq: number,
    private readonly apply: ApplyEntry,
  ) {
    this.appliedSeq = fromSeq - 1;
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
    this.consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.appliedSeq + 1,
    });
    // Short pulls with heartbeats: a consumer lost with its server (a killed leader) is noticed and
    // recreated from the last delivered sequence within seconds, not after the default 30 s pull.
    this.messages = await this.consumer.consume({ max_bytes: 8 * 1024 * 1024, expires: 4_000, idle_heartbeat: 1_000 });
    this.running = this.loop(this.messages);
    void this.checkPending();
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
    await this.messages?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  private async loop(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const m of messages) {
        if (this.isStopped) break;
        const body = this.reassembler.push({ seq: m.seq, timeMs: m.info.timestampNanos / 1e6, headers: m.headers, data: m.data });
        if (body !== null) {
          const records = framesOf(body).flatMap((payload) => decodeRecords(payload));
          this.apply(records, m.seq);
          this.bytesApplied += body.length;
          this.entriesApplied++;
        }
        this.appliedSeq = m.seq;
        this.pending = m.info.pending;
        this.wake();
      }
    } catch (e) {
      if (!this.isStopped) this.fail(e);
    }
  }

  /**
   * A stream with nothing after the start delivers no message, hence no pending count: ask the
   * consumer. Its num_pending counts what it has not delivered; what it delivered and this side
   * has not applied yet is compared by sequence.
   */
  private async checkPending(): Promise<void> {
    for (let attempt = 0; attempt < 50 && !this.isStopped && !this.isCaughtUp; attempt++) {
      try {
        const info = await this.consumer!.info();
        if (info.num_pending === 0 && info.delivered.stream_seq <= this.appliedSeq) {
          this.pending = 0;
          this.wake();
          return;
        }
        if (this.pending !== Number.POSITIVE_INFINITY) return; // messages carry the count from now on
      } catch {
        // the ordered consumer is being (re)created: ask again
      }
      await new Promise((r) => setTimeout(r, 100));
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
    if (this.isCaughtUp && this.caughtUpWaiters.length > 0) for (const f of this.caughtUpWaiters.splice(0)) f();
  }

  private fail(e: unknown): void {
    this.failure = e;
    for (const w of this.waiters.splice(0)) w.reject(e);
  }
}
