// WAL framing: [u32 length][u32 crc32c(length bytes ‖ payload)][payload], little-endian. The
// checksum covers the length too, so a damaged length is caught like a damaged payload.
import { crc32c } from '@node-rs/crc32';
import type { FileWindow } from '../file-window.js';

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
