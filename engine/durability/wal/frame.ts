// WAL framing, and every scan over frames: [u32 length][u32 crc32c(length bytes ‖ payload)]
// [payload], little-endian. The checksum covers the length too, so a damaged length is caught like
// a damaged payload. The same frames make a segment file's body (after its header,
// segment-header.ts) and the body of a log entry held elsewhere (a JetStream message, see
// engine/cluster/): one reader for both.
import type { FileHandle } from 'node:fs/promises';
import { crc32c } from '@node-rs/crc32';
import { crcOfRange, FileWindow } from '../file-window.js';
import type { ByteChunks } from './byte-chunks.js';

export const FRAME_HEADER = 8;

/** The 8-byte header of a frame whose payload is the concatenation of `chunks`. */
export function frameHeader(chunks: readonly Uint8Array[]): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER);
  let length = 0;
  for (const c of chunks) length += c.length;
  header.writeUInt32LE(length, 0);
  let crc = crc32c(header.subarray(0, 4));
  for (const c of chunks) crc = crc32c(c, crc);
  header.writeUInt32LE(crc >>> 0, 4);
  return header;
}

export type FrameRead =
  | { readonly kind: 'ok'; readonly payload: Buffer; readonly frame: Buffer; readonly next: number }
  | { readonly kind: 'torn' } //  the file ends inside this frame
  | { readonly kind: 'bad' }; //   the frame is complete but its checksum fails

/**
 * Reads the frame starting at file offset `offset` through `win`. The payload is a view of the
 * window: decode it before the next read.
 */
export async function readFrame(win: FileWindow, offset: number): Promise<FrameRead> {
  if (win.size - offset < FRAME_HEADER) return { kind: 'torn' };
  const length = (win.holds(offset, 4) ? win.peek(offset, 4) : await win.load(offset, 4)).readUInt32LE(0);
  const next = offset + FRAME_HEADER + length;
  if (next > win.size) return { kind: 'torn' };
  const frame = win.holds(offset, next - offset) ? win.peek(offset, next - offset) : await win.load(offset, next - offset);
  if (!isWholeFrame(frame)) return { kind: 'bad' };
  return { kind: 'ok', payload: frame.subarray(FRAME_HEADER), frame, next };
}

/** True when `frame` (header and exactly its payload) passes its checksum. */
export function isWholeFrame(frame: Buffer): boolean {
  const expected = crc32c(frame.subarray(FRAME_HEADER), crc32c(frame.subarray(0, 4))) >>> 0;
  return expected === frame.readUInt32LE(4);
}

/**
 * The payloads of a body made only of whole frames (an entry of a replicated log, given as the
 * chunks it arrived in), as views of it; throws naming the offset of the first frame that is torn
 * or fails its checksum.
 */
export function framesOf(body: ByteChunks): ByteChunks[] {
  const out: ByteChunks[] = [];
  for (let at = 0; at < body.length;) {
    if (body.length - at < FRAME_HEADER) throw new Error(`a frame at byte ${at} is cut short`);
    const next = at + FRAME_HEADER + body.u32(at);
    if (next > body.length) throw new Error(`a frame at byte ${at} runs past the end`);
    if (body.crc32c(at + FRAME_HEADER, next, body.crc32c(at, at + 4)) !== body.u32(at + 4)) throw new Error(`a frame at byte ${at} fails its checksum`);
    out.push(body.slice(at + FRAME_HEADER, next));
    at = next;
  }
  return out;
}

/** The only valid header of an empty payload; an all-zero header never passes its checksum. */
const EMPTY_FRAME_CRC = crc32c(Buffer.alloc(4)) >>> 0;
const CHECK_BUDGET = 256 * 1024 * 1024;

/**
 * True when a whole frame starts somewhere after `offset` in the file. A crash tears only the
 * frame being written: nothing whole follows it. A whole frame after a damaged one means damage
 * in the middle (or a damaged length field), not a tear. Every offset after the damage is tried as
 * a frame start; at most CHECK_BUDGET payload bytes are checksummed, so pathological contents
 * cannot stall the open.
 */
export async function hasWholeFrameAfter(fh: FileHandle, size: number, offset: number): Promise<boolean> {
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
