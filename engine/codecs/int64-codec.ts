// INT64 and TIMESTAMP values (and `$timestamp`): blocks of BLOCK values, each either
// delta / delta-of-delta + frame-of-reference bit packing of the values relative to the block's
// first one (delta-for.ts; a fixed step costs 0 bits a value, a run too), or raw 8 bytes a value
// when the block spans more than ±2^50 (int64 extremes, huge jumps) or packing would not be
// smaller. Values are handled as 32-bit halves, never as BigInts: a value relative to the
// block's first is exact as a number, and decoding adds it back with a carry into the high half.
//
// Stream: u32 count, then per block u8 kind (0 raw, 1 packed); raw: the 8-byte values; packed:
// the first value's two halves (u32 low, u32 high) and a delta-for block of the offsets.
import { ByteReader, encoded } from './byte-stream.js';
import type { ByteWriter } from './byte-stream.js';
import { BLOCK, decodeDeltaFor, encodeDeltaFor } from './delta-for.js';

const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
/** Blocks whose high halves differ from the first's by less than this keep offsets within ±2^50. */
const HIGH_SPAN = 2 ** 18;
const RAW = 0;
const PACKED = 1;

/**
 * Encodes `values` (a BigInt64Array, or any 8-byte-per-value view) block by block.
 * @example
 * const bytes = encodeInt64(new BigInt64Array([1n, 2n, 3n]));
 * decodeInt64(bytes, new BigInt64Array(3)); // 1n, 2n, 3n
 */
export function encodeInt64(values: BigInt64Array): Uint8Array {
  return encoded((out) => encodeInt64Into(values, out));
}

const offsets = new Float64Array(BLOCK);

/** encodeInt64, appended to `out`. */
export function encodeInt64Into(values: BigInt64Array, out: ByteWriter): void {
  const n = values.length;
  const words = new Int32Array(values.buffer, values.byteOffset, 2 * n);
  out.u32(n);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    const lo0 = words[2 * start] >>> 0;
    const hi0 = words[2 * start + 1];
    let isPackable = true;
    for (let i = 0; i < m; i++) {
      const k = 2 * (start + i);
      const dh = words[k + 1] - hi0;
      if (dh >= HIGH_SPAN || dh <= -HIGH_SPAN) {
        isPackable = false;
        break;
      }
      offsets[i] = dh * TWO_32 + ((words[k] >>> 0) - lo0);
    }
    const mark = out.length;
    if (isPackable) {
      out.u8(PACKED);
      out.u32(lo0);
      out.u32(hi0);
      encodeDeltaFor(offsets, m, out);
      if (out.length - mark <= 1 + 8 * m) continue;
      out.length = mark;
    }
    out.u8(RAW);
    out.raw(new Uint8Array(values.buffer, values.byteOffset + 8 * start, 8 * m));
  }
}

const scratch = new Float64Array(BLOCK);

/**
 * words[k…] = (hi0, lo0) + scratch[i] (|offset| < 2^50): the sum split into 32-bit words in floats.
 * A function of its own: inlined in decodeInt64's block loop it ran at half the speed.
 */
function addOffsets(words: Int32Array, k: number, m: number, lo0: number, hi0: number): void {
  for (let i = 0; i < m; i++, k += 2) {
    const t = lo0 + scratch[i];
    const carry = Math.floor(t * INV_TWO_32);
    words[k] = t - carry * TWO_32;
    words[k + 1] = hi0 + carry;
  }
}

/** Decodes what encodeInt64 wrote into `into` (its length must be the encoded count). */
export function decodeInt64(bytes: Uint8Array, into: BigInt64Array): void {
  const input = new ByteReader(bytes);
  const n = input.u32();
  if (n !== into.length) throw new RangeError(`encoded ${n} values, expected ${into.length}`);
  const words = new Int32Array(into.buffer, into.byteOffset, 2 * n);
  const raw = new Uint8Array(into.buffer, into.byteOffset, 8 * n);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    const kind = input.u8();
    if (kind === RAW) {
      raw.set(input.raw(8 * m), 8 * start);
      continue;
    }
    if (kind !== PACKED) throw new RangeError(`unknown int64 block kind ${kind}`);
    const lo0 = input.u32();
    const hi0 = input.u32() | 0;
    decodeDeltaFor(input, m, scratch);
    addOffsets(words, 2 * start, m, lo0, hi0);
  }
  if (!input.isDone) throw new RangeError('bytes left after the last int64 block');
}
