// The log of one table group on NATS JetStream: a RecordLog whose `append` resolves once the
// group's R3 stream has stored the entry on a quorum (fsynced there: the servers run with
// `sync_interval: always`), with the stream sequence of the entry as its position. The entry is
// the records of one write as one WAL frame (frame.ts, records.ts: the WAL's own format), cut into parts under the message
// limit (entry-chunks.ts). Each part is published with its message id and retried with that same
// id until the deadline (leader elections take ~5 s), so a retry after a failover is dropped as a
// duplicate by the stream instead of being stored twice (a "duplicate" answer counts only with
// the sequence of the stored message: see `publish`); the deadline is kept well inside the
// stream's duplicate window, past which the stream would no longer recognise a retry.
import { randomBytes } from 'node:crypto';
import type { JetStreamClient, JetStreamManager, PubAck } from '@nats-io/jetstream';
import { DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { SvcError } from '../errors.js';
import { frameHeader } from '../durability/wal/frame.js';
import { encodeRecords } from '../durability/wal/records.js';
import type { WalRecord } from '../durability/wal/records.js';
import type { LogPosition, RecordLog } from '../durability/wal/record-log.js';
import { partsOf } from './entry-chunks.js';
import type { EntryPart } from './entry-chunks.js';
import { retrying, START_DEADLINE_MS } from './start-steps.js';

/** The stream's duplicate window; entries' parts left incomplete are dropped after it too. */
export const DUPLICATE_WINDOW_MS = 120_000;
/** How long an append keeps retrying before it fails (well inside the duplicate window). */
export const PUBLISH_DEADLINE_MS = 30_000;
/**
 * One publish attempt waits this long for the stream's acknowledgement, then publishes again with
 * the same message id: an attempt sent to a leader that was just killed is given up quickly (a
 * 5 s wait made the write pause on a leader kill ~10 s, election included).
 */
const ATTEMPT_TIMEOUT_MS = 2_000;

export interface StreamSpec {
  readonly name: string;
  readonly subjects: readonly string[];
  readonly replicas: number;
}

/**
 * Creates the stream if it is missing (every node may race to: the first wins, the others find
 * it). Right after the servers start, JetStream may not know all its peers yet ("no suitable
 * peers"), or a request may time out: `ensureStream` asks again for up to `deadlineMs`.
 */
export function ensureStream(jsm: JetStreamManager, spec: StreamSpec, deadlineMs = START_DEADLINE_MS): Promise<void> {
  return retrying(() => addStream(jsm, spec), deadlineMs);
}

export async function addStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  try {
    await jsm.streams.info(spec.name);
    return;
  } catch (e) {
    if (!/stream not found/i.test((e as Error).message)) throw e;
  }
  try {
    await jsm.streams.add({
      name: spec.name,
      subjects: [...spec.subjects],
      num_replicas: spec.replicas,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      allow_direct: true,
    });
  } catch (e) {
    if (!/already in use/i.test((e as Error).message)) throw e;
  }
}

/** The bytes of one entry: the records of one write as one WAL frame (replayed all or none). */
export function entryBody(records: readonly WalRecord[]): Buffer {
  const payload = encodeRecords(records);
  return Buffer.concat([frameHeader(payload), ...payload]);
}

export class JetStreamLog implements RecordLog {
  /** Unique per writer (process and log): entry ids never repeat across writers or restarts. */
  private readonly writerId = randomBytes(9).toString('base64url');
  private counter = 0;
  private inFlight = new Set<Promise<unknown>>();
  /** Parts retried after a failed attempt (a figure for tests and the bench). */
  retries = 0;
  /** Acknowledgements that said "duplicate": a retry whose first attempt had been stored. */
  duplicates = 0;
  /** Answers "duplicate" without a sequence: a retry whose first attempt was not stored (yet). */
  unstoredDuplicates = 0;
  private isClosed = false;

  /** Appends go to `subject`, one of the subjects of `stream`. */
  constructor(
    private readonly js: JetStreamClient,
    readonly stream: string,
    readonly subject: string,
    private readonly maxPayload: number,
    private readonly deadlineMs = PUBLISH_DEADLINE_MS,
  ) {}

  get hasFailed(): boolean {
    return false; // an append that fails leaves nothing half-applied: the next one may succeed
  }

  append(records: readonly WalRecord[]): Promise<LogPosition> {
    if (this.isClosed) return Promise.reject(new SvcError('DatabaseClosed', 'the cluster log is closed'));
    if (records.length === 0) return Promise.resolve(0);
    const body = entryBody(records);
    const parts = partsOf(`${this.writerId}.${(this.counter++).toString(36)}`, body, this.maxPayload);
    const done = this.publishAll(parts);
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done)).catch(() => undefined);
    return done;
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.isClosed = true;
    await this.drain();
  }

  /** Every part stored; the entry's position is the highest sequence among its parts. */
  private async publishAll(parts: EntryPart[]): Promise<LogPosition> {
    const deadline = Date.now() + this.deadlineMs;
    const acks = await Promise.all(parts.map((p) => this.publish(p, deadline)));
    let seq = 0;
    for (const a of acks) seq = Math.max(seq, a.seq);
    return seq;
  }

  private async publish(part: EntryPart, deadline: number): Promise<PubAck> {
    let delay = 50;
    for (;;) {
      try {
        const ack = await this.js.publish(this.subject, part.data, {
          msgID: part.msgId,
          headers: part.headers,
          timeout: Math.max(100, Math.min(ATTEMPT_TIMEOUT_MS, deadline - Date.now())),
          expect: { streamName: this.stream },
        });
        if (!(ack.seq > 0)) {
          // "Duplicate, sequence 0": the stream leader holds this message id from an earlier
          // attempt that it has proposed but not stored (nats-server 2.10 stages the id before
          // its quorum stores the message). Sequence 0 means nothing is stored yet, and that
          // attempt may never be: a proposal lost in a leader change, or refused ("last sequence
          // mismatch"), leaves the id staged for the whole duplicate window (2.11 answers an error
          // instead, nats-server PR 5827). Never an acknowledgement: ask again until the stream
          // answers with the message's sequence, or fail at the deadline (the write's outcome is
          // then unknown, as after any timeout).
          this.unstoredDuplicates++;
          throw new Error(`the stream answered "duplicate" without a sequence for ${part.msgId}: its first attempt is not stored`);
        }
        if (ack.duplicate) this.duplicates++;
        return ack;
      } catch (e) {
        if (Date.now() + delay >= deadline) {
          throw new SvcError('ClusterUnavailable', `the cluster log (stream ${this.stream}) did not acknowledge a write within ${this.deadlineMs} ms: ${(e as Error).message}`, { cause: e });
        }
        this.retries++;
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 1_000);
      }
    }
  }
}
