// The blobs, tags and tag attachments of a checkpoint: one framed msgpack item per entry (the
// WAL's `[length][crc32c][payload]` frames), written in bounded chunks and split over several
// files by size, and read back through a chunked window. No buffer ever holds every blob. Blobs
// go to files of their own, kept by later checkpoints for as long as their blobs live (see
// checkpoint.ts); tags, attachments and blob expiry changes to a small file written each time.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { crc32c } from '@node-rs/crc32';
import { Packr } from 'msgpackr';
import { FileWindow } from '../file-window.js';
import { ioLimits } from '../io-limits.js';
import { FRAME_HEADER, frameHeader, isWholeFrame, readFrame } from '../wal/frame.js';
import type { FileSum } from './file-sums.js';
import { writeAll } from '../write-all.js';

export type EntryItem =
  | [kind: 'blob', alias: string, data: Uint8Array, mime: string, expiry: number]
  | [kind: 'tag', alias: string]
  | [kind: 'attach', alias: string, tag: string]
  /** A blob kept in an earlier checkpoint's file whose expiry changed since. */
  | [kind: 'expiry', alias: string, expiry: number];

/** One file written: its path, size and checksum, and where each of its items ends. */
export interface WrittenEntries {
  readonly path: string;
  readonly sum: FileSum;
  /** Byte offset just past item k's frame, for each item in the order given. */
  readonly ends: number[];
}

const packr = new Packr({ useRecords: false, moreTypes: false });
/** Frames are gathered up to this many bytes per write call. */
const WRITE_BYTES = 1024 * 1024;

/**
 * Writes `items` into files named by `nameOf(0)`, `nameOf(1)`, … (each fsynced), starting a new
 * file once one holds `ioLimits.checkpointFileBytes`; returns each file's name, checksum and
 * item ends, in order (the items fill the files one after the other).
 */
export async function writeEntryFiles(items: Iterable<EntryItem> | AsyncIterable<EntryItem>, pathOf: (n: number) => string): Promise<WrittenEntries[]> {
  const out: WrittenEntries[] = [];
  // `as`: assigned in closures, so the compiler must not narrow it to null below.
  let file = null as { fh: FileHandle; path: string; size: number; crc: number; ends: number[] } | null;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (file === null) return;
    for (const chunk of pending) file.crc = crc32c(chunk, file.crc);
    file.size += await writeAll(file.fh, pending, file.size);
    pending = [];
    pendingBytes = 0;
  };
  const close = async () => {
    if (file === null) return;
    await flush();
    await file.fh.sync();
    await file.fh.close();
    out.push({ path: file.path, sum: { size: file.size, crc: file.crc >>> 0 }, ends: file.ends });
    file = null;
  };
  try {
    for await (const item of items) {
      if (file === null) {
        const path = pathOf(out.length);
        file = { fh: await open(path, 'w'), path, size: 0, crc: 0, ends: [] };
      }
      const payload = packr.pack(item);
      const header = frameHeader([payload]);
      pending.push(header, payload);
      pendingBytes += header.length + payload.length;
      file.ends.push(file.size + pendingBytes);
      if (pendingBytes >= WRITE_BYTES) await flush();
      if (file.size + pendingBytes >= ioLimits.checkpointFileBytes) await close();
    }
    await close();
  } finally {
    await file?.fh.close().catch(() => undefined);
  }
  return out;
}

/** The item of one whole frame (header included), or null when the frame fails its checksum. */
export function decodeEntryFrame(frame: Buffer): EntryItem | null {
  if (frame.length < FRAME_HEADER || frame.readUInt32LE(0) !== frame.length - FRAME_HEADER || !isWholeFrame(frame)) return null;
  return packr.unpack(frame.subarray(FRAME_HEADER)) as EntryItem;
}

/**
 * Streams the items of one entries file to `onItem` (with each item's index in the file), except
 * those `isSkipped` names, whose blob bytes are not copied; rejects with `damaged()` on any
 * mismatch (every frame is still read and checksummed).
 */
export async function readEntryFile(
  path: string, sum: FileSum, onItem: (item: EntryItem, index: number) => void, damaged: () => Error, isSkipped: (index: number) => boolean = () => false,
): Promise<void> {
  const fh = await open(path, 'r').catch((e: NodeJS.ErrnoException) => { throw e.code === 'ENOENT' ? damaged() : e; });
  try {
    const size = (await fh.stat()).size;
    if (size !== sum.size) throw damaged();
    const win = new FileWindow(fh, size);
    let crc = 0;
    for (let offset = 0, index = 0; offset < size; index++) {
      const frame = await readFrame(win, offset);
      if (frame.kind !== 'ok') throw damaged();
      crc = crc32c(frame.frame, crc);
      offset = frame.next;
      if (isSkipped(index)) continue;
      const item = packr.unpack(frame.payload) as EntryItem;
      // Unpacked binary may be a view of the window, which the next read overwrites.
      if (item[0] === 'blob') item[2] = new Uint8Array(item[2]);
      onItem(item, index);
    }
    if (crc >>> 0 !== sum.crc) throw damaged();
  } finally {
    await fh.close();
  }
}
