// WAL replay on open: streams every segment from the checkpoint's start segment on, in order,
// through a chunked window (never a whole file in memory), and hands each record to `apply`.
// Each segment's header (segment-header.ts) says where its frames start; a header cut short in
// the last segment is a tear like any other (the segment was being started when the crash came).
// The last segment may end in a torn write from a crash or a power cut: a short frame, zeros
// (the file size reached the disk, the data did not) or garbage. If no whole frame follows the
// first bad one, that tail is cut off (the file is truncated there and fsynced). Damage followed
// by a whole frame, or damage in an earlier segment, stops the open with an error naming the
// file and byte offset — nothing is silently skipped. (The writer fsyncs a segment before it
// writes to the next one, so only the last segment can hold a torn write.)
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../../errors.js';
import { FileWindow } from '../file-window.js';
import { hasWholeFrameAfter, readFrame } from './frame.js';
import { decodeRecords } from './records.js';
import { readSegmentHeader, SEGMENT_HEADER_BYTES } from './segment-header.js';
import { listSegments, segmentName } from './segments.js';
import type { WalRecord } from './records.js';

export interface ReplayResult {
  readonly records: number;
  /** The last segment seen (writing resumes in a new one after it). */
  readonly lastSegment: number;
  /** Set when a torn record was cut off: where. */
  readonly tornAt: { readonly file: string; readonly offset: number } | null;
}

/**
 * Replays the WAL from `fromSegment`: each payload's records are handed to `prepare` (the work
 * that may wait: a DELETE reading rows back from disk) and then, in one synchronous step, to `apply`.
 */
export async function replayWal(
  dir: string, fromSegment: number, apply: (r: WalRecord) => void, prepare: (records: readonly WalRecord[]) => Promise<void> = async () => undefined,
): Promise<ReplayResult> {
  const segments = (await listSegments(dir)).filter((s) => s >= fromSegment);
  let records = 0;
  let tornAt: ReplayResult['tornAt'] = null;
  for (let i = 0; i < segments.length; i++) {
    const file = join(dir, segmentName(segments[i]));
    const isLast = i === segments.length - 1;
    let cutAt = -1;
    const fh = await open(file, 'r');
    try {
      const size = (await fh.stat()).size;
      const win = new FileWindow(fh, size);
      const header = readSegmentHeader(size === 0 ? Buffer.alloc(0) : await win.load(0, Math.min(size, SEGMENT_HEADER_BYTES)), size);
      if (header.kind === 'bad') throw corrupt(file, 0, header.why);
      if (header.kind === 'torn' && !isLast) throw corrupt(file, 0, 'its segment header is cut short, and it is not the last segment');
      let offset = header.kind === 'ok' ? header.framesAt : size;
      if (header.kind === 'torn') cutAt = 0;
      while (offset < size) {
        const frame = await readFrame(win, offset);
        if (frame.kind === 'ok') {
          let decoded: WalRecord[];
          try {
            decoded = decodeRecords(frame.payload);
          } catch (e) {
            throw corrupt(file, offset, 'its payload does not decode', e);
          }
          await prepare(decoded);
          for (const r of decoded) apply(r);
          records += decoded.length;
          offset = frame.next;
          continue;
        }
        if (isLast && !(await hasWholeFrameAfter(fh, size, offset))) {
          cutAt = offset;
          break;
        }
        const why = frame.kind === 'bad' ? 'its checksum does not match' : 'its length runs past the end of the file';
        throw corrupt(file, offset, `${why}, and ${isLast ? 'a whole record follows it' : 'it is not in the last segment'}`);
      }
    } finally {
      await fh.close();
    }
    if (cutAt >= 0) {
      await cutTail(file, cutAt);
      tornAt = { file, offset: cutAt };
    }
  }
  return { records, lastSegment: segments.length === 0 ? fromSegment - 1 : segments[segments.length - 1], tornAt };
}

/** Truncates a torn tail durably: if the cut were lost, the tail would reappear mid-log. */
async function cutTail(file: string, offset: number): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.truncate(offset);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function corrupt(file: string, offset: number, why: string, cause?: unknown): SvcError {
  return new SvcError('WalCorrupt', `write-ahead log ${file} is damaged at byte offset ${offset}: ${why}`, { cause });
}
