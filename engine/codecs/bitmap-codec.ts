// Bitmaps — validity (bit set = valid) and BOOLEAN values — in blocks of BLOCK bits: a block
// whose bits are all 0 or all 1 (all valid, all null, constant) is one byte, any other is its
// bytes as they are. Bits past the count in the last byte decode as the block's constant or as
// written (Arrow leaves them undefined).
//
// Stream: u32 bit count, then per block u8 kind (0 all zeros, 1 all ones, 2 bytes) and its bytes.
import { ByteReader, encoded } from './byte-stream.js';
import type { ByteWriter } from './byte-stream.js';
import { BLOCK } from './delta-for.js';

const ZEROS = 0;
const ONES = 1;
const BYTES = 2;
const BLOCK_BYTES = BLOCK / 8;

/** Whether bits [from, to) of `bits` are all `bit`. */
function isConstant(bits: Uint8Array, from: number, to: number, bit: 0 | 1): boolean {
  const full = bit === 1 ? 0xff : 0;
  let i = from;
  for (; i + 8 <= to; i += 8) if (bits[i >> 3] !== full) return false;
  for (; i < to; i++) if (((bits[i >> 3] >> (i & 7)) & 1) !== bit) return false;
  return true;
}

/**
 * Encodes the first `n` bits of `bits` (least significant bit first).
 * @example
 * const bytes = encodeBitmap(Uint8Array.of(0xff, 0xff), 16); // one block, all ones: 5 bytes
 * decodeBitmap(bytes, new Uint8Array(2)); // 0xff, 0xff
 */
export function encodeBitmap(bits: Uint8Array, n: number): Uint8Array {
  return encoded((out) => encodeBitmapInto(bits, n, out));
}

/** encodeBitmap, appended to `out`. */
export function encodeBitmapInto(bits: Uint8Array, n: number, out: ByteWriter): void {
  out.u32(n);
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    if (isConstant(bits, start, end, 1)) out.u8(ONES);
    else if (isConstant(bits, start, end, 0)) out.u8(ZEROS);
    else {
      out.u8(BYTES);
      out.raw(bits.subarray(start >> 3, (end + 7) >> 3));
    }
  }
}

/** Decodes what encodeBitmap wrote into `into` (at least ⌈n / 8⌉ bytes). */
export function decodeBitmap(bytes: Uint8Array, into: Uint8Array): void {
  const input = new ByteReader(bytes);
  const n = input.u32();
  if (into.length < (n + 7) >> 3) throw new RangeError(`a bitmap of ${n} bits does not fit in ${into.length} bytes`);
  for (let start = 0; start < n; start += BLOCK) {
    const from = start >> 3;
    const to = Math.min(from + BLOCK_BYTES, (n + 7) >> 3);
    const kind = input.u8();
    if (kind === ONES) into.fill(0xff, from, to);
    else if (kind === ZEROS) into.fill(0, from, to);
    else if (kind === BYTES) into.set(input.raw(to - from), from);
    else throw new RangeError(`unknown bitmap block kind ${kind}`);
  }
  if (!input.isDone) throw new RangeError('bytes left after the last bitmap block');
}
