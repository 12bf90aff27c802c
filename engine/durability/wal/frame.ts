// WAL framing: [u32 length][u32 crc32c(length bytes ‖ payload)][payload], little-endian. The
// checksum covers the length too, so a damaged length is caught like a damaged payload.
import { crc32c } from '@node-rs/crc32';

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
  | { readonly kind: 'ok'; readonly payload: Buffer; readonly next: number }
  | { readonly kind: 'torn' } //  the file ends inside this frame
  | { readonly kind: 'bad' }; //   the frame is complete but its checksum fails

/** Reads the frame starting at `offset` of `buf`. */
export function readFrame(buf: Buffer, offset: number): FrameRead {
  if (buf.length - offset < FRAME_HEADER) return { kind: 'torn' };
  const length = buf.readUInt32LE(offset);
  const end = offset + FRAME_HEADER + length;
  if (end > buf.length) return { kind: 'torn' };
  const payload = buf.subarray(offset + FRAME_HEADER, end);
  const expected = crc32c(payload, crc32c(buf.subarray(offset, offset + 4))) >>> 0;
  if (expected !== buf.readUInt32LE(offset + 4)) return { kind: 'bad' };
  return { kind: 'ok', payload, next: end };
}
