// A log entry (one append: the WAL frame of a write's records, applied all or none) travels as
// one JetStream message when it fits the server's message limit (1 MiB by default), else as
// several: each part carries the entry's id, its index and the part count in headers, and its
// own message id `<entry>:<index>`, so a retried publish is dropped by the stream's duplicate
// window (Nats-Msg-Id). The reader reassembles parts in the order they come (they may interleave
// with other writers' entries, and a retry may reorder them), applies an entry when its last
// missing part arrives — at that part's stream sequence, as its parts in order, never joined
// into one copy — and ignores a part it has already seen, so an entry is applied once however
// its parts were repeated. A writer that died between
// parts leaves an entry that never completes: its parts are dropped once the stream's own clock
// (message timestamps, the same on every replica) has moved past the duplicate window, after
// which no retry of it can be stored any more.
import { headers } from '@nats-io/transport-node';
import type { MsgHdrs } from '@nats-io/transport-node';
import { ByteChunks } from '../durability/wal/byte-chunks.js';

export const ENTRY_HEADER = 'Svc-Entry';
export const PART_HEADER = 'Svc-Part';
export const PARTS_HEADER = 'Svc-Parts';

/** Room left in a message for its headers (entry id, part numbers, message id, …). */
const HEADER_ROOM = 1024;

export interface EntryPart {
  readonly msgId: string;
  readonly headers: MsgHdrs;
  readonly data: Uint8Array;
}

/** Splits `body` (the entry's bytes) into parts that fit messages of `maxPayload` bytes. */
export function partsOf(entryId: string, body: Uint8Array, maxPayload: number): EntryPart[] {
  const room = Math.max(1, maxPayload - HEADER_ROOM);
  const count = Math.max(1, Math.ceil(body.length / room));
  const parts: EntryPart[] = [];
  for (let i = 0; i < count; i++) {
    const h = headers();
    h.set(ENTRY_HEADER, entryId);
    h.set(PART_HEADER, String(i));
    h.set(PARTS_HEADER, String(count));
    parts.push({ msgId: `${entryId}:${i}`, headers: h, data: body.subarray(i * room, Math.min(body.length, (i + 1) * room)) });
  }
  return parts;
}

interface OpenEntry {
  readonly parts: (Uint8Array | null)[];
  got: number;
  /** Stream time (ms) of its first part seen. */
  readonly since: number;
}

/** One message as the reader sees it. */
export interface LogMessage {
  readonly seq: number;
  /** Stream time of the message, ms since the epoch (the same on every replica). */
  readonly timeMs: number;
  readonly headers: MsgHdrs | undefined;
  readonly data: Uint8Array;
}

export class Reassembler {
  private readonly open = new Map<string, OpenEntry>();
  /** Entries completed within the window: a repeat of one of their parts is ignored. */
  private readonly done = new Map<string, number>();
  /** Parts seen twice or after their entry completed (for tests and figures). */
  duplicates = 0;
  /** Entries dropped incomplete (their writer died between parts). */
  abandoned = 0;

  constructor(private readonly windowMs: number) {}

  /**
   * The entry's body, as its parts in order (not joined: frame.ts and records.ts read across
   * them), when `m` completes one; null while parts are missing or for a repeat.
   */
  push(m: LogMessage): ByteChunks | null {
    const id = m.headers?.get(ENTRY_HEADER) ?? '';
    if (id === '') return new ByteChunks([m.data]); // not written by svc's log: taken as one whole entry
    this.expire(m.timeMs);
    if (this.done.has(id)) { this.duplicates++; return null; }
    const count = Number(m.headers!.get(PARTS_HEADER));
    if (!(count > 1)) {
      this.done.set(id, m.timeMs);
      return new ByteChunks([m.data]);
    }
    const index = Number(m.headers!.get(PART_HEADER));
    let entry = this.open.get(id);
    if (entry === undefined) {
      entry = { parts: new Array<Uint8Array | null>(count).fill(null), got: 0, since: m.timeMs };
      this.open.set(id, entry);
    }
    if (!(index >= 0 && index < entry.parts.length) || entry.parts[index] !== null) { this.duplicates++; return null; }
    // Kept as it is: the client hands each message its own bytes (a view of a socket read, or
    // of the buffer it assembled the message in), which it never writes again.
    entry.parts[index] = m.data;
    entry.got++;
    if (entry.got < entry.parts.length) return null;
    this.open.delete(id);
    this.done.set(id, m.timeMs);
    return new ByteChunks(entry.parts as Uint8Array[]);
  }

  /** Entries still waiting for parts. */
  get pendingEntries(): number {
    return this.open.size;
  }

  private expire(nowMs: number): void {
    for (const [id, e] of this.open) {
      if (nowMs - e.since <= this.windowMs) break; // insertion order = order of first parts
      this.open.delete(id);
      this.abandoned++;
    }
    for (const [id, t] of this.done) {
      if (nowMs - t <= this.windowMs) break;
      this.done.delete(id);
    }
  }
}
