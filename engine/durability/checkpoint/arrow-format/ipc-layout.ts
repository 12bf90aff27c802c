// Where each column's bytes lie inside an Arrow IPC record batch message, so a checkpoint can read
// back one column of one batch without the rest. A stream message is `[0xFFFFFFFF][u32 metadata
// length][flatbuffer metadata, padded][body]`; a record batch's metadata lists its body buffers
// (offset and length from the body's start) in field order, each field's buffers next to each
// other: validity then values (fixed width), validity, offsets, values (strings and binaries),
// validity then indices (dictionary-encoded), validity then value bits (Bool). Checkpoints of
// manifest versions 4 and 5 kept those positions in the manifest (BatchPlace); their reader
// (stored-arrow-batch.ts) turns a field's buffers back into Data with this module.
import { DataType, makeData } from 'apache-arrow';
import type { Data, Vector } from 'apache-arrow';

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
