// The header every WAL segment file starts with: 8 bytes of magic (`svc-wal\n`), the format
// version (u32 LE) and a crc32c of those 12 bytes (u32 LE). Frames follow it. A segment written
// before the header existed (format 0) starts directly with a frame; it is still read. A frame
// can never be mistaken for the magic: as a length, its first 4 bytes would announce a
// 1.9 GB record, past any record svc writes.
import { crc32c } from '@node-rs/crc32';

export const SEGMENT_MAGIC = Buffer.from('svc-wal\n', 'latin1');
/** The format this svc writes; segments of a higher version were written by a newer svc. */
export const SEGMENT_VERSION = 1;
export const SEGMENT_HEADER_BYTES = 16;

export function segmentHeader(version = SEGMENT_VERSION): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  SEGMENT_MAGIC.copy(header, 0);
  header.writeUInt32LE(version, 8);
  header.writeUInt32LE(crc32c(header.subarray(0, 12)) >>> 0, 12);
  return header;
}

export type SegmentHeaderRead =
  /** Frames start at `framesAt`; version 0 = a headerless segment of an earlier svc. */
  | { readonly kind: 'ok'; readonly version: number; readonly framesAt: number }
  /** The file ends inside the header (a crash while the segment was being started). */
  | { readonly kind: 'torn' }
  /** The magic is there but the checksum fails, or the version is one this svc cannot read. */
  | { readonly kind: 'bad'; readonly why: string };

/** Reads a segment's header from its first bytes (`head`, up to SEGMENT_HEADER_BYTES of them). */
export function readSegmentHeader(head: Buffer, fileSize: number): SegmentHeaderRead {
  const magicBytes = Math.min(head.length, SEGMENT_MAGIC.length);
  const isMagic = head.subarray(0, magicBytes).equals(SEGMENT_MAGIC.subarray(0, magicBytes));
  if (!isMagic || fileSize === 0) return { kind: 'ok', version: 0, framesAt: 0 };
  if (fileSize < SEGMENT_HEADER_BYTES) return { kind: 'torn' };
  if ((crc32c(head.subarray(0, 12)) >>> 0) !== head.readUInt32LE(12)) return { kind: 'bad', why: 'its segment header checksum does not match' };
  const version = head.readUInt32LE(8);
  if (version > SEGMENT_VERSION) return { kind: 'bad', why: `its format version ${version} is newer than this svc reads (${SEGMENT_VERSION}); open it with a newer svc` };
  return { kind: 'ok', version, framesAt: SEGMENT_HEADER_BYTES };
}
