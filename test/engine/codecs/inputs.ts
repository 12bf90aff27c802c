// Inputs for the codec property tests: random ones from a seeded generator and adversarial ones
// — every special double (NaN payloads of both signs, signalling NaNs, -0, ±∞, subnormals,
// extremes), runs, one-value and empty arrays, int64 extremes and 2^53 ± 1, huge jumps, and
// lengths around the block and bit-packing group sizes.
import { BLOCK } from '../../../engine/codecs/index.js';
import { prng } from '../../prng.js';
import type { Rng } from '../../prng.js';

/** Array lengths that end blocks and 32-value groups on every side. */
export const LENGTHS = [0, 1, 2, 31, 32, 33, 100, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 17, 5000];

function fromBits(bits: readonly bigint[]): Float64Array {
  return new Float64Array(BigUint64Array.from(bits).buffer);
}

/** Doubles whose bits must survive: NaNs with payloads, -0, ±∞, subnormals, the extremes. */
export const SPECIAL_DOUBLES = fromBits([
  0x7ff8000000000000n, 0xfff8000000000000n, 0x7ff8000000000001n, 0x7ff0000000000001n, 0x7fffffffffffffffn, 0xffffffffffffffffn,
  0x7ff80000deadbeefn, 0x8000000000000000n, 0x0000000000000000n, 0x7ff0000000000000n, 0xfff0000000000000n,
  0x0000000000000001n, 0x8000000000000001n, 0x000fffffffffffffn, 0x0010000000000000n, 0x7fefffffffffffffn, 0xffefffffffffffffn,
]);

const EXTRA = [2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 50, 2 ** 50 - 1, 0.1, 0.2, 0.30000000000000004, 1e-300, 123456789.123, 1 / 3];

/** Named double arrays of length `n`. */
export function doubleCases(n: number, seed: number): [string, Float64Array][] {
  const r = prng(seed);
  const pick = (values: ArrayLike<number>) => Float64Array.from({ length: n }, () => values[Math.floor(r() * values.length)]);
  let walk = 20;
  let walk2 = 1000;
  return [
    ['specials', pick(SPECIAL_DOUBLES)],
    ['specials and decimals', Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? SPECIAL_DOUBLES[i % SPECIAL_DOUBLES.length] : Math.round(r() * 1e4) / 100))],
    ['alternating special, value', Float64Array.from({ length: n }, (_, i) => (i % 2 === 0 ? -0 : 1.5))],
    ['extremes', pick(EXTRA)],
    ['2-decimal walk', Float64Array.from({ length: n }, () => (walk = Math.round((walk + r() - 0.5) * 100) / 100))],
    ['walk with jumps', Float64Array.from({ length: n }, (_, i) => (walk2 = i % 97 === 0 ? r() * 1e9 : Math.round((walk2 + r() - 0.5) * 1000) / 1000))],
    ['uniform 32-bit', Float64Array.from({ length: n }, () => r())],
    ['uniform 16-bit', Float64Array.from({ length: n }, () => Math.floor(r() * 65536) / 65536)],
    ['full precision', Float64Array.from({ length: n }, () => r() * 100 + r() * 1e-10)],
    ['12 digits', Float64Array.from({ length: n }, () => Number((r() * 100).toPrecision(12)))],
    ['random bits', randomBits(n, r)],
    ['subnormals', Float64Array.from({ length: n }, () => r() * 1e-310)],
    ['constant', new Float64Array(n).fill(21.37)],
    ['constant third', new Float64Array(n).fill(1 / 3)],
    ['runs', Float64Array.from({ length: n }, (_, i) => Math.floor(i / 50) * 0.5)],
    ['huge magnitudes', Float64Array.from({ length: n }, () => (r() - 0.5) * 1e300)],
    ['integers', Float64Array.from({ length: n }, () => Math.floor((r() - 0.5) * 2 ** 40))],
  ];
}

function randomBits(n: number, r: Rng): Float64Array {
  const words = Uint32Array.from({ length: 2 * n }, () => Math.floor(r() * 2 ** 32));
  return new Float64Array(words.buffer);
}

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/** Named int64 arrays of length `n`. */
export function int64Cases(n: number, seed: number): [string, BigInt64Array][] {
  const r = prng(seed);
  const big = (bits: number) => BigInt.asIntN(64, BigInt(Math.floor(r() * 2 ** Math.min(bits, 52))) << BigInt(Math.max(0, bits - 52)));
  const from = (f: (i: number) => bigint) => BigInt64Array.from({ length: n }, (_, i) => f(i));
  let walk = 0n;
  return [
    ['extremes', from((i) => [MIN, MAX, 0n, -1n, 2n ** 53n + 1n, 2n ** 53n - 1n, -(2n ** 53n) - 1n][i % 7])],
    ['alternating min, max', from((i) => (i % 2 === 0 ? MIN : MAX))],
    ['timestamps, fixed step', from((i) => 1_700_000_000_000_000_000n + BigInt(i) * 10_000_000_000n)],
    ['timestamps, jitter', from((i) => 1_700_000_000_000_000_000n + BigInt(i) * 10_000_000_000n + BigInt(Math.floor(r() * 1e6)))],
    ['timestamps, repeated', from((i) => 1_700_000_000_000_000_000n + BigInt(Math.floor(i / 7)))],
    ['huge jumps', from((i) => (i % 64 === 0 ? big(63) : BigInt(i)))],
    ['constant', from(() => -123456789012345n)],
    ['walk', from(() => (walk += BigInt(Math.floor(r() * 200) - 100)))],
    ['counter with resets', from((i) => BigInt((i * 37) % 1000))],
    ...[1, 7, 31, 32, 33, 49, 50, 51, 53, 63].map((bits): [string, BigInt64Array] => [`random ${bits} bits`, from(() => big(bits) - (bits > 60 ? 0n : 2n ** BigInt(bits - 1)))]),
    ['around 2^50', from(() => (r() < 0.5 ? -1n : 1n) * (2n ** 50n + BigInt(Math.floor(r() * 5) - 2)))],
  ];
}

/** Named int32 arrays (codes, lengths) of length `n`. */
export function int32Cases(n: number, seed: number): [string, Int32Array][] {
  const r = prng(seed);
  const from = (f: (i: number) => number) => Int32Array.from({ length: n }, (_, i) => f(i));
  return [
    ['codes of 5', from(() => Math.floor(r() * 5))],
    ['codes of 70000', from(() => Math.floor(r() * 70000))],
    ['extremes', from((i) => [-(2 ** 31), 2 ** 31 - 1, 0, -1][i % 4])],
    ['runs', from((i) => Math.floor(i / 100))],
    ['zeros', from(() => 0)],
    ['lengths', from(() => 10 + Math.floor(r() * 3))],
  ];
}

/** Named bitmaps of `n` bits. */
export function bitmapCases(n: number, seed: number): [string, Uint8Array][] {
  const r = prng(seed);
  const bytes = (f: (i: number) => number) => Uint8Array.from({ length: Math.ceil(n / 8) }, (_, i) => f(i));
  return [
    ['all valid', bytes(() => 0xff)],
    ['all null', bytes(() => 0)],
    ['alternating', bytes(() => 0x55)],
    ['random', bytes(() => Math.floor(r() * 256))],
    ['one null in the middle', bytes((i) => (i === Math.floor(n / 16) ? 0xfe : 0xff))],
  ];
}

/** `bytes` as an 8-byte-aligned copy (decoders read encoded bytes in place, as read back from disk). */
export function aligned(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(Math.ceil(bytes.length / 8) * 8 + 8), 8, bytes.length);
  out.set(bytes);
  return out;
}

/** Whether two typed arrays hold the same bytes. */
export function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}
