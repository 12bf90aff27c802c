// The table data files of manifest version 6 (`<seq>-<n>.cols`): a head region with the table's
// SYMBOL dictionaries as the checkpoint saw them, then for each batch its series order (when it is
// written in series-major order, batch-codec.ts) and its columns one after the other, each at an
// 8-byte-aligned offset, encoded or raw (column-codec.ts). Where each column lies,
// its codec, its size on disk and in memory and a CRC-32 of its bytes on disk are kept in the
// manifest (ColumnPlace), so a reader reads and checks exactly the columns it needs, and `open`
// reads only the head of one file per table (its dictionaries). Chunks are gathered into writes
// of about WRITE_BYTES: neither one huge buffer nor one write call per column.
//
// Head: 'SVC1', u32 column count, per column u32 dictionary size (0xffffffff: not a SYMBOL
// column) and, for a SYMBOL column, two parts (ByteWriter.part): its strings' lengths
// (encodeInt32) and their UTF-8 bytes (encodeBytes).
import { open } from 'node:fs/promises';
import { crc32 } from '@node-rs/crc32';
import { ByteReader, ByteWriter, decodeBytes, decodeInt32, encodeBytesInto, encodeInt32Into } from '../../codecs/index.js';
import { writeAll } from '../write-all.js';
import type { RegionFileSum } from './file-sums.js';
import type { EncodedBatch } from './batch-codec.js';
import type { ColumnCodec } from './column-codec.js';

const WRITE_BYTES = 1024 * 1024;
const MAGIC = 0x31435653; // 'SVC1'
const NOT_SYMBOL = 0xffffffff;
const ZEROS = new Uint8Array(8);

/** Where a column of a batch lies in its file: codec, file offset, bytes on disk, bytes once read back, CRC-32 of the bytes on disk. */
export type ColumnPlace = [codec: ColumnCodec, at: number, size: number, bytes: number, crc: number];

/** Where a region of a column file lies: file offset, bytes, CRC-32 of them. */
export type RegionPlace = [at: number, size: number, crc: number];

/** Where a batch lies in a column file: its series order (null: time order) and its columns. */
export interface BatchColumns {
  readonly order: RegionPlace | null;
  readonly columns: ColumnPlace[];
}

/** The head of a column file: the SYMBOL dictionaries (null for other columns). */
export function encodeHead(dictionaries: readonly (readonly string[] | null)[]): Uint8Array {
  const out = new ByteWriter(256);
  out.u32(MAGIC);
  out.u32(dictionaries.length);
  const encoder = new TextEncoder();
  for (const d of dictionaries) {
    if (d === null) {
      out.u32(NOT_SYMBOL);
      continue;
    }
    out.u32(d.length);
    const bytes = d.map((s) => encoder.encode(s));
    const lengths = Int32Array.from(bytes, (b) => b.length);
    const all = new Uint8Array(lengths.reduce((n, l) => n + l, 0));
    let at = 0;
    for (const b of bytes) {
      all.set(b, at);
      at += b.length;
    }
    out.part((w) => encodeInt32Into(lengths, w));
    out.part((w) => encodeBytesInto(all, w));
  }
  out.align(8);
  return out.finish();
}

/** The dictionaries of a head encodeHead wrote (`bytes` 8-byte aligned); throws on damage. */
export function decodeHead(bytes: Uint8Array): (string[] | null)[] {
  const input = new ByteReader(bytes);
  if (input.u32() !== MAGIC) throw new RangeError('not a column file head');
  const count = input.u32();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: (string[] | null)[] = [];
  for (let c = 0; c < count; c++) {
    const size = input.u32();
    if (size === NOT_SYMBOL) {
      out.push(null);
      continue;
    }
    const lengths = new Int32Array(size);
    decodeInt32(input.part(), lengths);
    const packed = input.part();
    const all = new Uint8Array(new ByteReader(packed).u32());
    decodeBytes(packed, all);
    const strings: string[] = new Array(size);
    for (let i = 0, at = 0; i < size; at += lengths[i], i++) strings[i] = decoder.decode(all.subarray(at, at + lengths[i]));
    out.push(strings);
  }
  return out;
}

/**
 * Writes `head` then `batches` to `path` (fsynced); returns the file's size and regions (the
 * head's end and CRC-32, then the file's end) and where each batch's columns lie.
 */
export async function writeColumnFile(path: string, head: Uint8Array, batches: AsyncIterable<EncodedBatch>): Promise<RegionFileSum & { places: BatchColumns[] }> {
  const fh = await open(path, 'w');
  /** Releases of the batches whose chunks are not all written yet. */
  let unwritten: (() => void)[] = [];
  const releaseWritten = () => {
    for (const release of unwritten) release();
    unwritten = [];
  };
  try {
    let pending: Uint8Array[] = [head];
    let pendingBytes = head.length;
    let size = head.length;
    let written = 0;
    const places: BatchColumns[] = [];
    /** Appends `chunks` (then zeros to 8 bytes); returns where they start. */
    const put = (chunks: readonly Uint8Array[]): number => {
      const at = size;
      let length = 0;
      for (const c of chunks) {
        pending.push(c);
        length += c.length;
      }
      const pad = (8 - (length % 8)) % 8;
      if (pad > 0) pending.push(ZEROS.subarray(0, pad));
      size += length + pad;
      pendingBytes += length + pad;
      return at;
    };
    const flush = async () => {
      const chunks = pending;
      pending = [];
      pendingBytes = 0;
      written += await writeAll(fh, chunks, written);
      releaseWritten();
    };
    for await (const { order, columns, release } of batches) {
      if (release !== undefined) unwritten.push(release);
      const orderPlace: RegionPlace | null = order === null ? null : [put([order]), order.length, crc32(order) >>> 0];
      const place: ColumnPlace[] = columns.map(({ codec, chunks, size: bytes, decodedBytes }) => {
        let crc = 0;
        for (const c of chunks) crc = crc32(c, crc);
        return [codec, put(chunks), bytes, decodedBytes, crc >>> 0];
      });
      places.push({ order: orderPlace, columns: place });
      if (pendingBytes >= WRITE_BYTES) await flush();
    }
    await flush();
    await fh.sync();
    return { size, crc: 0, ends: [head.length, size], crcs: [crc32(head) >>> 0, 0], places };
  } finally {
    releaseWritten();
    await fh.close();
  }
}
