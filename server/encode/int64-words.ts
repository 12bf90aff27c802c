// Exact int64 reading without a BigInt per value: a BigInt64Array seen as 32-bit words. Reading
// `array[i]` allocates a heap BigInt; at millions of values per second that allocation, not the
// formatting, is the cost. The two halves are plain int32 numbers, and whenever hi·2^32 + lo is
// within ±2^53 that sum is computed exactly in a double (both terms and the sum are integers
// below 2^53), so its digits are the int64's digits; callers take anything wider through BigInt.
import { endianness } from 'node:os';

const IS_LITTLE_ENDIAN = endianness() === 'LE';
/** hi words in [-2^21, 2^21) give |hi·2^32 + lo| ≤ 2^53: exact as a double. */
const SAFE_HI = 2 ** 21;
const TWO_32 = 4294967296;

/** The 32-bit words of an int64 array (word 2i is the low half of value i), or null on big-endian machines. */
export function int64Words(values: BigInt64Array): Int32Array | null {
  return IS_LITTLE_ENDIAN ? new Int32Array(values.buffer, values.byteOffset, values.length * 2) : null;
}

/** Value i as an exact number when |value| ≤ 2^53; NaN when wider (then format the BigInt). */
export function exactInt64(words: Int32Array, i: number): number {
  const hi = words[2 * i + 1];
  return hi >= -SAFE_HI && hi < SAFE_HI ? hi * TWO_32 + (words[2 * i] >>> 0) : NaN;
}
