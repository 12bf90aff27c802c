// WAL replay on open: reads every segment from the checkpoint's start segment on, in order, and
// hands each record to `apply`. A record cut short at the very end of the last segment is a torn
// write from a crash: the file is truncated there. Any other damage stops the open with an error
// naming the file and byte offset — nothing is silently skipped.
import { readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../../errors.js';
import { FRAME_HEADER, readFrame } from './frame.js';
import { decodeRecord } from './records.js';
import { listSegments, segmentName } from './segments.js';
import type { WalRecord } from './records.js';

export interface ReplayResult {
  readonly records: number;
  /** The last segment seen (writing resumes in a new one after it). */
  readonly lastSegment: number;
  /** Set when a torn record was cut off: where. */
  readonly tornAt: { readonly file: string; readonly offset: number } | null;
}

export async function replayWal(dir: string, fromSegment: number, apply: (r: WalRecord) => void): Promise<ReplayResult> {
  const segments = (await listSegments(dir)).filter((s) => s >= fromSegment);
  let records = 0;
  let tornAt: ReplayResult['tornAt'] = null;
  for (let i = 0; i < segments.length; i++) {
    const file = join(dir, segmentName(segments[i]));
    const isLast = i === segments.length - 1;
    const buf = await readFile(file);
    let offset = 0;
    while (offset < buf.length) {
      const frame = readFrame(buf, offset);
      if (frame.kind === 'ok') {
        let record: WalRecord;
        try {
          record = decodeRecord(frame.payload);
        } catch (e) {
          throw corrupt(file, offset, 'its payload does not decode', e);
        }
        apply(record);
        records++;
        offset = frame.next;
        continue;
      }
      if (frame.kind === 'torn' && isLast && !hasFrameAfter(buf, offset)) {
        await truncate(file, offset);
        tornAt = { file, offset };
        break;
      }
      throw corrupt(file, offset, frame.kind === 'bad' ? 'its checksum does not match' : 'its length runs past the end of the file, yet it is not the last record written');
    }
  }
  return { records, lastSegment: segments.length === 0 ? fromSegment - 1 : segments[segments.length - 1], tornAt };
}

const CHECK_BUDGET = 64 * 1024 * 1024;

/**
 * A crash tears only the frame being written: nothing whole follows it. A whole frame after a
 * "torn" one means its length field is damaged (it claims bytes past the end), not a tear.
 * The search checksums at most CHECK_BUDGET bytes, so pathological payloads cannot stall open.
 */
function hasFrameAfter(buf: Buffer, offset: number): boolean {
  let budget = CHECK_BUDGET;
  for (let at = offset + 1; at + FRAME_HEADER <= buf.length && budget > 0; at++) {
    const length = buf.readUInt32LE(at);
    if (at + FRAME_HEADER + length > buf.length) continue;
    budget -= length + 4;
    if (readFrame(buf, at).kind === 'ok') return true;
  }
  return false;
}

function corrupt(file: string, offset: number, why: string, cause?: unknown): SvcError {
  return new SvcError('WalCorrupt', `write-ahead log ${file} is damaged at byte offset ${offset}: ${why}`, { cause });
}
