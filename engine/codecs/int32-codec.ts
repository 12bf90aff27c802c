// Small integers held in Int32Arrays — SYMBOL dictionary codes, string lengths, series ids — in
// blocks of BLOCK values, each by delta-for.ts: frame-of-reference bit packing at the width the
// block's codes span (never more than the dictionary's), or its deltas when those are narrower
// (lengths of generated strings, ids in order).
//
// Stream: u32 count, then one delta-for block per BLOCK values.
import { ByteReader, encoded } from './byte-stream.js';
import type { ByteWriter } from './byte-stream.js';
import { BLOCK, decodeDeltaFor, encodeDeltaFor } from './delta-for.js';

/**
 * Encodes `values` block by block; `orders` limits the transforms tried (0: values, 1: deltas,
 * 2: deltas of deltas).
 * @example
 * const bytes = encodeInt32(Int32Array.of(3, 1, 2, 3));
 * decodeInt32(bytes, new Int32Array(4)); // 3, 1, 2, 3
 */
export function encodeInt32(values: Int32Array, orders: readonly number[] = [0, 1]): Uint8Array {
  return encoded((out) => encodeInt32Into(values, out, orders));
}

/** encodeInt32, appended to `out`. */
export function encodeInt32Into(values: Int32Array, out: ByteWriter, orders: readonly number[] = [0, 1]): void {
  const n = values.length;
  out.u32(n);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    encodeDeltaFor(values.subarray(start, start + m), m, out, orders);
  }
}

const scratch = new Float64Array(BLOCK);

/** into[start…] = scratch[0…m) (a function of its own, as int64-codec.ts's addOffsets: faster than inlined). */
function copyInto(into: Int32Array, start: number, m: number): void {
  for (let i = 0; i < m; i++) into[start + i] = scratch[i];
}

/** Decodes what encodeInt32 wrote into `into` (its length must be the encoded count). */
export function decodeInt32(bytes: Uint8Array, into: Int32Array): void {
  const input = new ByteReader(bytes);
  const n = input.u32();
  if (n !== into.length) throw new RangeError(`encoded ${n} values, expected ${into.length}`);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    decodeDeltaFor(input, m, scratch);
    copyInto(into, start, m);
  }
  if (!input.isDone) throw new RangeError('bytes left after the last int32 block');
}
