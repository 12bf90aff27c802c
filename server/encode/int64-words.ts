// Exact int64 reading without a BigInt per value: a BigInt64Array seen as 32-bit words. Reading
// `array[i]` allocates a heap BigInt; at millions of values per second that allocation, not the
// formatting, is the cost. The two halves are plain int32 numbers, and whenever hi·2^32 + lo is
// within ±2^53 that sum is computed exactly in a double (both terms and the sum are integers
// below 2^53), so its digits are the int64's digits; callers take anything wider through BigInt.
import { endianness } from 'node:os';

const IS_LITTLE_ENDIAN = endianness() === 'LE';

/** The 32-bit words of an int64 array (word 2i is the low half of value i), or null on big-endian machines. */
export function int64Words(values: BigInt64Array): Int32Array | null {
  return IS_LITTLE_ENDIAN ? new Int32Array(values.buffer, values.byteOffset, values.length * 2) : null;
}
