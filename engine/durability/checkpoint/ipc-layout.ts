// Where each column's bytes lie inside an Arrow IPC record batch message, so a checkpoint can read
// back one column of one batch without the rest. A stream message is `[0xFFFFFFFF][u32 metadata
// length][flatbuffer metadata, padded][body]`; a record batch's metadata lists its body buffers
// (offset and length from the body's start) in field order, each field's buffers next to each
// other: validity then values (fixed width), validity, offsets, values (strings and binaries),
// validity then indices (dictionary-encoded), validity then value bits (Bool). The writer parses what it wrote with this module
// and keeps the positions in the manifest; the reader turns a field's buffers back into Data.
import { DataType, makeData, Message } from 'apache-arrow';
import type { Data, Vector } from 'apache-arrow';

/** A record batch's body within a region, and its buffers. */
export interface BatchLayout {
  /** Offset of the body from the region's start. */
  readonly body: number;
  /** [offset, length] of every body buffer, relative to the body, in field order (flattened). */
  readonly buffers: number[];
}

const CONTINUATION = 0xffffffff;

/** The layout of the record batch message in a region made of `chunks` (after any schema or dictionary messages). */
export function recordBatchLayout(chunks: readonly Uint8Array[]): BatchLayout {
  const bytes = new ChunkBytes(chunks);
  for (let at = 0; at + 8 <= bytes.length;) {
    const head = bytes.read(at, 8);
    const view = new DataView(head.buffer, head.byteOffset, 8);
    if (view.getUint32(0, true) !== CONTINUATION) throw new Error(`no IPC message at region offset ${at}`);
    const metadataLength = view.getUint32(4, true);
    if (metadataLength === 0) break;
    const message = Message.decode(bytes.read(at + 8, metadataLength));
    const body = at + 8 + metadataLength;
    if (message.isRecordBatch()) {
      const header = message.header();
      return { body, buffers: header.buffers.flatMap((b) => [Number(b.offset), Number(b.length)]) };
    }
    at = body + Number(message.bodyLength);
  }
  throw new Error('the region holds no record batch message');
}

/** How many body buffers a field of `type` has. */
export function bufferCount(type: DataType): number {
  return DataType.isUtf8(type) || DataType.isBinary(type) ? 3 : 2;
}

/** Per field, the index of its first buffer in a layout's buffer list (and the total at the end). */
export function firstBuffers(types: readonly DataType[]): number[] {
  const out = [0];
  for (const t of types) out.push(out[out.length - 1] + bufferCount(t));
  return out;
}

/**
 * Field `field`'s bytes [start, end) relative to the body: from its first buffer's start to its
 * last buffer's end.
 */
export function fieldSpan(buffers: readonly number[], first: readonly number[], field: number): [number, number] {
  const a = first[field];
  const b = first[field + 1] - 1;
  return [buffers[2 * a], buffers[2 * b] + buffers[2 * b + 1]];
}

/**
 * The Data of a field whose buffers (as `buffers` places them, relative to the body) are in
 * `bytes`, which holds the body from `bytesAt` on. Views of `bytes`, no copy: a read-back buffer
 * starts 8-byte aligned and the writer aligns every buffer to 8 bytes.
 */
export function fieldData(
  type: DataType, rows: number, nullCount: number, bytes: Uint8Array, bytesAt: number,
  buffers: readonly number[], firstBuffer: number, dictionary: Vector | null,
): Data {
  const view = (k: number): Uint8Array => {
    const offset = buffers[2 * (firstBuffer + k)] - bytesAt;
    return bytes.subarray(offset, offset + buffers[2 * (firstBuffer + k) + 1]);
  };
  const typed = <T>(k: number, Ctor: { new (b: ArrayBufferLike, o: number, n: number): T }, n: number): T => {
    const v = view(k);
    return new Ctor(v.buffer, v.byteOffset, n);
  };
  const validity = view(0);
  const nullBitmap = nullCount > 0 && validity.length > 0 ? validity : undefined;
  if (DataType.isUtf8(type) || DataType.isBinary(type)) {
    return makeData({ type, length: rows, nullCount, nullBitmap, valueOffsets: typed(1, Int32Array, rows + 1), data: view(2) } as never);
  }
  if (dictionary !== null) return makeData({ type, length: rows, nullCount, nullBitmap, data: typed(1, Int32Array, rows), dictionary } as never);
  // A Bool column's values are a bitmap, like validity.
  if (DataType.isBool(type)) return makeData({ type, length: rows, nullCount, nullBitmap, data: view(1) } as never);
  const Values = DataType.isFloat(type) ? Float64Array : BigInt64Array;
  return makeData({ type, length: rows, nullCount, nullBitmap, data: typed(1, Values as never, rows) } as never);
}

/** Random access to bytes spread over a list of chunks (an IPC region as the writer produced it). */
export class ChunkBytes {
  readonly length: number;
  private readonly starts: number[] = [];

  constructor(private readonly chunks: readonly Uint8Array[]) {
    let n = 0;
    for (const c of chunks) {
      this.starts.push(n);
      n += c.length;
    }
    this.length = n;
  }

  /** A copy of bytes [at, at + length). */
  read(at: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    this.each(at, length, (part, to) => out.set(part, to));
    return out;
  }

  /** Calls `visit` with the pieces of [at, at + length) in order, each with its offset in the range. */
  each(at: number, length: number, visit: (part: Uint8Array, offset: number) => void): void {
    if (at < 0 || at + length > this.length) throw new Error(`bytes [${at}, ${at + length}) are outside the region`);
    let k = upperBound(this.starts, at) - 1;
    for (let done = 0; done < length; k++) {
      const chunk = this.chunks[k];
      const from = at + done - this.starts[k];
      const take = Math.min(chunk.length - from, length - done);
      visit(chunk.subarray(from, from + take), done);
      done += take;
    }
  }
}

function upperBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (sorted[m] <= x) lo = m + 1;
    else hi = m;
  }
  return lo;
}
