// Bit packing: non-negative integers below 2^w (w ≤ 53) stored in w bits each, least significant
// bit first, in little-endian 32-bit words, in groups of 32 values (a group of width w is exactly
// w words, FastLanes' and DuckDB's layout without their interleaving); a value wider than 32 bits
// is its low 32 bits then its high w − 32 bits. Unpacking is the hot loop
// of every cold scan, so it is generated per width at load time: one straight-line function per
// w that reads the group's w words once and shifts each value out of them — no per-value branch
// on word boundaries, no loop-carried bit position (FastLanes' unrolled kernels, in JavaScript).
// Values come out as doubles (plus a base: frame of reference), or as 32-bit words for callers
// that combine bits (ALP-RD): converting doubles back to integers costs more than the unpacking.
import type { ByteReader, ByteWriter } from './byte-stream.js';

export const GROUP = 32;
const TWO_32 = 4294967296;

/** Bits needed for an integer in [0, x] (x < 2^53). */
export function bitWidth(x: number): number {
  if (x < TWO_32) return 32 - Math.clz32(x);
  return 64 - Math.clz32(Math.floor(x / TWO_32));
}

/** Words `n` values of width `w` (≤ 32) take: whole groups. */
function wordCount(n: number, w: number): number {
  return Math.ceil(n / GROUP) * w;
}

/** Writes `n` values of `values` (each in [0, 2^w)) packed at width `w`. */
export function pack(values: Float64Array, n: number, w: number, out: ByteWriter): void {
  if (w === 0 || n === 0) return;
  const words = out.words(wordCount(n, w));
  if (w === 32) {
    for (let i = 0; i < n; i++) words[i] = values[i];
    return;
  }
  for (let i = 0, bit = 0; i < n; i++, bit += w) {
    const v = values[i];
    if (w < 32) {
      put(words, bit, v, w);
    } else {
      const high = Math.floor(v / TWO_32);
      put(words, bit, v - high * TWO_32, 32);
      put(words, bit + 32, high, w - 32);
    }
  }
}

/** ORs the `w` (≤ 32) low bits of `v` into `words` at bit `bit`. */
function put(words: Uint32Array, bit: number, v: number, w: number): void {
  const k = bit >>> 5;
  const sh = bit & 31;
  words[k] |= v << sh;
  if (sh !== 0 && sh + w > 32) words[k + 1] |= v >>> (32 - sh);
}

type Unpack = (src: Uint32Array, n: number, out: Float64Array, base: number) => void;

/** The expression of the `w` (≤ 32) bits at bit `bit` of a group whose words are s0, s1, … */
function field(bit: number, w: number): string {
  const k = bit >>> 5;
  const sh = bit & 31;
  const mask = w === 32 ? '' : ` & ${2 ** w - 1}`;
  if (sh === 0) return w === 32 ? `s${k}` : `(s${k}${mask})`;
  if (sh + w <= 32) return sh + w === 32 ? `(s${k} >>> ${sh})` : `((s${k} >>> ${sh})${mask})`;
  const joined = `((s${k} >>> ${sh}) | (s${k + 1} << ${32 - sh}))`;
  return w === 32 ? `(${joined} >>> 0)` : `(${joined}${mask})`;
}

/** The straight-line unpacker of width `w` (1 … 53): `out[i] = base + value i`, whole groups. */
function generate(w: number): Unpack {
  const lines: string[] = [];
  for (let k = 0; k < w; k++) lines.push(`const s${k} = src[p + ${k}];`);
  for (let j = 0; j < GROUP; j++) {
    const bit = j * w;
    const value = w <= 32 ? field(bit, w) : `${field(bit + 32, w - 32)} * ${TWO_32} + ${field(bit, 32)}`;
    lines.push(`out[o + ${j}] = base + ${value};`);
  }
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('src', 'n', 'out', 'base', `for (let o = 0, p = 0; o < n; o += ${GROUP}, p += ${w}) {\n${lines.join('\n')}\n}`) as Unpack;
}

type UnpackU32 = (src: Uint32Array, n: number, out: Uint32Array) => void;

/** The straight-line unpacker of width `w` (1 … 32) into 32-bit words: no float, no base. */
function generateU32(w: number): UnpackU32 {
  const lines: string[] = [];
  for (let k = 0; k < w; k++) lines.push(`const s${k} = src[p + ${k}];`);
  for (let j = 0; j < GROUP; j++) lines.push(`out[o + ${j}] = ${field(j * w, w)};`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('src', 'n', 'out', `for (let o = 0, p = 0; o < n; o += ${GROUP}, p += ${w}) {\n${lines.join('\n')}\n}`) as UnpackU32;
}

const UNPACK: Unpack[] = [];
const UNPACK_U32: UnpackU32[] = [];
for (let w = 1; w <= 53; w++) UNPACK[w] = generate(w);
for (let w = 1; w <= 32; w++) UNPACK_U32[w] = generateU32(w);

/** unpack for widths up to 32, into 32-bit words (`out` holds `n` rounded up to a group). */
export function unpackU32(input: ByteReader, n: number, w: number, out: Uint32Array): void {
  if (w === 0 || n === 0) {
    out.fill(0, 0, n);
    return;
  }
  if (w > 32) throw new RangeError(`bit width ${w} is over 32`);
  UNPACK_U32[w](input.words(wordCount(n, w)), n, out);
}

/**
 * Reads `n` values packed at width `w` from `input` into `out` (plus `base`). `out` must hold
 * `n` rounded up to a group (the last group is unpacked whole).
 */
export function unpack(input: ByteReader, n: number, w: number, out: Float64Array, base: number): void {
  if (w === 0 || n === 0) {
    out.fill(base, 0, n);
    return;
  }
  if (w > 53) throw new RangeError(`bit width ${w} is over 53`);
  UNPACK[w](input.words(wordCount(n, w)), n, out, base);
}
