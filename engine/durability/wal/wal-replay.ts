// WAL replay on open: streams every segment from the checkpoint's start segment on, in order,
// through a chunked window (never a whole file in memory), and hands each record to `apply`.
// The last segment may end in a torn write from a crash or a power cut: a short frame, zeros
// (the file size reached the disk, the data did not) or garbage. If no whole frame follows the
// first bad one, that tail is cut off (the file is truncated there and fsynced). Damage followed
// by a whole frame, or damage in an earlier segment, stops the open with an error naming the
// file and byte offset — nothing is silently skipped. (The writer fsyncs a segment before it
// writes to the next one, so only the last segment can hold a torn write.)
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from '@node-rs/crc32';
import { SvcError } from '../../errors.js';
import { crcOfRange, FileWindow } from '../file-window.js';
import { FRAME_HEADER, isWholeFrame, readFrame } from './frame.js';
import { decodeRecords } from './records.js';
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
    let cutAt = -1;
    const fh = await open(file, 'r');
    try {
      const size = (await fh.stat()).size;
      const win = new FileWindow(fh, size);
      let offset = 0;
      while (offset < size) {
        const frame = await readFrame(win, offset);
        if (frame.kind === 'ok') {
          let decoded: WalRecord[];
          try {
            decoded = decodeRecords(frame.payload);
          } catch (e) {
            throw corrupt(file, offset, 'its payload does not decode', e);
          }
          for (const r of decoded) apply(r);
          records += decoded.length;
          offset = frame.next;
          continue;
        }
        if (isLast && !(await hasFrameAfter(fh, size, offset))) {
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

/** The only valid header of an empty payload; an all-zero header never passes its checksum. */
const EMPTY_FRAME_CRC = crc32c(Buffer.alloc(4)) >>> 0;
const CHECK_BUDGET = 256 * 1024 * 1024;

/**
 * A crash tears only the frame being written: nothing whole follows it. A whole frame after a
 * damaged one means damage in the middle (or a damaged length field), not a tear. Every offset
 * after the damage is tried as a frame start; at most CHECK_BUDGET payload bytes are
 * checksummed, so pathological contents cannot stall the open.
 */
async function hasFrameAfter(fh: FileHandle, size: number, offset: number): Promise<boolean> {
  const win = new FileWindow(fh, size);
  let budget = CHECK_BUDGET;
  let at = offset + 1;
  while (at + FRAME_HEADER <= size && budget > 0) {
    const base = at;
    await win.load(base, FRAME_HEADER);
    // One view per window: the loop below runs once per byte of the tail.
    const view = win.peek(base, win.end - base);
    for (; at + FRAME_HEADER <= win.end && budget > 0; at++) {
      const length = view.readUInt32LE(at - base);
      if (at + FRAME_HEADER + length > size) continue;
      if (length === 0) {
        if (view.readUInt32LE(at - base + 4) === EMPTY_FRAME_CRC) return true;
        continue;
      }
      budget -= length;
      if (win.holds(at, FRAME_HEADER + length)) {
        if (isWholeFrame(view.subarray(at - base, at - base + FRAME_HEADER + length))) return true;
      } else if (await isWholeFrameOnDisk(fh, at, length)) {
        return true;
      }
    }
  }
  return false;
}

async function isWholeFrameOnDisk(fh: FileHandle, at: number, length: number): Promise<boolean> {
  const header = Buffer.alloc(FRAME_HEADER);
  await fh.read(header, 0, FRAME_HEADER, at);
  const crc = await crcOfRange(fh, at + FRAME_HEADER, length, crc32c(header.subarray(0, 4)));
  return crc === header.readUInt32LE(4);
}

function corrupt(file: string, offset: number, why: string, cause?: unknown): SvcError {
  return new SvcError('WalCorrupt', `write-ahead log ${file} is damaged at byte offset ${offset}: ${why}`, { cause });
}
