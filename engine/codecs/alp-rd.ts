// ALP-RD (DuckDB's alprd, from the ALP paper) for doubles that are not decimal-like: the top
// `left` bits of each value (sign, exponent, a few mantissa bits; 12 ≤ left ≤ 16) take few
// distinct values in a block — up to 8 of them get a dictionary index, the others are exceptions
// kept by position — and the remaining 64 − left bits, less the trailing zero bits every value of
// the block shares (a double of 32 significant bits has 20 and more), are bit-packed. Used only
// where it keeps at most MAX_RD_SHARE of a block's bits: it decodes at about a third of ALP's
// speed, so a smaller saving makes a cold scan slower than reading the raw block (the
// larger-than-memory bench's uniform doubles: 54 % of their bits, a cold scan 0.58× the raw
// files'); raw blocks are read straight into the column's buffer.
//
// Block (after its kind byte): u8 left, u8 shared trailing zeros, u8 dictionary size, u16 each
// entry, u16 exceptions, the indexes packed, the right parts (packed as they are when they fit 32
// bits, else a delta-for block), then the exceptions' positions and their top bits (u16 each).
import { bitWidth, pack, unpackU32 } from './bit-pack.js';
import { readPositions, writePositions } from './block-positions.js';
import type { ByteReader, ByteWriter } from './byte-stream.js';
import { BLOCK, decodeDeltaFor, encodeDeltaFor } from './delta-for.js';

export const ALP_RD = 2;
export const MAX_RD_SHARE = 0.5;
const RD_DICTIONARY = 8;
const SAMPLE = 64;
const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
/** Per top-bits value: its count in a block, and its dictionary index + 1 (0 = none); zeroed after each block. */
const topCounts = new Uint32Array(1 << 16);
const topIndex = new Uint8Array(1 << 16);
const ints = new Float64Array(BLOCK);
const spare = new Float64Array(BLOCK);
const indexes = new Uint32Array(BLOCK);
const rights = new Uint32Array(BLOCK);

/** Trailing zero bits of a 64-bit pattern (64 for 0). */
function trailingZeros(lo: number, hi: number): number {
  if (lo !== 0) return 31 - Math.clz32(lo & -lo);
  if (hi !== 0) return 63 - Math.clz32(hi & -hi);
  return 64;
}

/** The `left` top bits of the values of `bits` at `at`, most frequent first (counted in topCounts, zeroed after). */
function frequentTops(bits: Uint32Array, at: readonly number[] | null, m: number, left: number): { tops: number[]; covered: number } {
  const tops: number[] = [];
  const count = at === null ? m : at.length;
  for (let k = 0; k < count; k++) {
    const top = bits[2 * (at === null ? k : at[k]) + 1] >>> (32 - left);
    if (topCounts[top]++ === 0) tops.push(top);
  }
  tops.sort((a, b) => topCounts[b] - topCounts[a] || a - b);
  let covered = 0;
  for (let k = 0; k < Math.min(RD_DICTIONARY, tops.length); k++) covered += topCounts[tops[k]];
  for (const top of tops) topCounts[top] = 0;
  return { tops: tops.slice(0, RD_DICTIONARY), covered };
}

/** Trailing zeros every value of `bits` (m values) shares: those of all of them ORed together. */
function sharedTrailingZeros(bits: Uint32Array, m: number): number {
  let orLo = 0;
  let orHi = 0;
  for (let i = 0; i < 2 * m; i += 2) {
    orLo |= bits[i];
    orHi |= bits[i + 1];
  }
  return trailingZeros(orLo, orHi);
}

/** The best ALP-RD left width for `m` values, and its estimated bits, from the values at `sampled`. */
function rdPlan(bits: Uint32Array, sampled: readonly number[], m: number, tz: number): { left: number; bits: number } {
  let left = 12;
  let fewest = Infinity;
  for (let l = 12; l <= 16; l++) {
    const { tops, covered } = frequentTops(bits, sampled, m, l);
    // The right parts' width: all their bits, or less where the sample spans less (a constant block).
    let min = Infinity;
    let max = -Infinity;
    for (const i of sampled) {
      const right = (bits[2 * i + 1] & (2 ** (32 - l) - 1)) * TWO_32 + bits[2 * i];
      if (right < min) min = right;
      if (right > max) max = right;
    }
    const rightWidth = Math.min(Math.max(0, 64 - l - tz), bitWidth((max - min) * 2 ** -Math.min(tz, 64 - l)));
    const estimate = m * (bitWidth(tops.length - 1) + rightWidth) + ((sampled.length - covered) / sampled.length) * m * (11 + l);
    if (estimate < fewest) {
      fewest = estimate;
      left = l;
    }
  }
  return { left, bits: fewest };
}

/** Whether ALP-RD would keep at most MAX_RD_SHARE of the bits of `values`, judged on a sample of them. */
export function isAlpRdWorth(values: Float64Array): boolean {
  const n = values.length;
  const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const step = Math.max(1, Math.floor(n / (4 * SAMPLE)));
  const sampled: number[] = [];
  for (let i = 0; i < n; i += step) sampled.push(i);
  let orLo = 0;
  let orHi = 0;
  for (const i of sampled) {
    orLo |= bits[2 * i];
    orHi |= bits[2 * i + 1];
  }
  return rdPlan(bits, sampled, n, trailingZeros(orLo, orHi)).bits <= MAX_RD_SHARE * 64 * n;
}

/** Writes the block as ALP-RD, or nothing when its estimate keeps more than MAX_RD_SHARE of its bits (the caller writes it raw). */
export function encodeAlpRd(bits: Uint32Array, m: number, out: ByteWriter): void {
  const tz = sharedTrailingZeros(bits, m);
  const step = Math.max(1, Math.floor(m / SAMPLE));
  const sampled: number[] = [];
  for (let i = 0; i < m; i += step) sampled.push(i);
  const { left, bits: fewest } = rdPlan(bits, sampled, m, tz);
  if (fewest > MAX_RD_SHARE * 64 * m) return;
  const used = Math.min(tz, 64 - left);
  // The block's dictionary by frequency over all of it (the sample chose L only).
  const dictionary = frequentTops(bits, null, m, left).tops;
  dictionary.forEach((top, k) => { topIndex[top] = k + 1; });
  const rightMask = 2 ** (32 - left) - 1;
  const unshift = 2 ** -used;
  const positions: number[] = [];
  const missing: number[] = [];
  for (let i = 0; i < m; i++) {
    const hi = bits[2 * i + 1];
    const top = hi >>> (32 - left);
    const k = topIndex[top];
    if (k === 0) {
      positions.push(i);
      missing.push(top);
      spare[i] = 0;
    } else {
      spare[i] = k - 1;
    }
    ints[i] = ((hi & rightMask) * TWO_32 + bits[2 * i]) * unshift;
  }
  for (const top of dictionary) topIndex[top] = 0;
  out.u8(ALP_RD);
  out.u8(left);
  out.u8(used);
  out.u8(dictionary.length);
  for (const top of dictionary) out.u16(top);
  out.u16(positions.length);
  pack(spare, m, bitWidth(dictionary.length - 1), out);
  // Right parts of up to 32 bits are packed as they are (decoded with integer shifts alone);
  // wider ones through frame of reference.
  if (64 - left - used <= 32) pack(ints, m, 64 - left - used, out);
  else encodeDeltaFor(ints, m, out, [0]);
  if (positions.length === 0) return;
  writePositions(positions, m, out);
  out.align(2);
  for (const top of missing) out.u16(top);
}

export function decodeAlpRd(input: ByteReader, m: number, start: number, words: Uint32Array): void {
  const left = input.u8();
  const tz = input.u8();
  const size = input.u8();
  if (left < 12 || left > 16 || tz > 64 - left || size > RD_DICTIONARY) throw new RangeError('ALP-RD parameters out of range');
  const tops = new Int32Array(RD_DICTIONARY);
  for (let k = 0; k < size; k++) tops[k] = input.u16() << (32 - left);
  const count = input.u16();
  unpackU32(input, m, bitWidth(size - 1), indexes);
  const k0 = 2 * start;
  const rightWidth = 64 - left - tz;
  if (rightWidth > 32) {
    // The right bits shifted back by tz, split into the low and high words in floats.
    decodeDeltaFor(input, m, ints);
    const shift = 2 ** tz;
    for (let i = 0, k = k0; i < m; i++, k += 2) {
      const full = ints[i] * shift;
      const hi = Math.floor(full * INV_TWO_32);
      words[k] = full - hi * TWO_32;
      words[k + 1] = tops[indexes[i]] | hi;
    }
  } else {
    // The right bits fit in 32: integer shifts alone.
    unpackU32(input, m, rightWidth, rights);
    if (tz === 0) {
      for (let i = 0, k = k0; i < m; i++, k += 2) {
        words[k] = rights[i];
        words[k + 1] = tops[indexes[i]];
      }
    } else if (tz < 32) {
      const back = 32 - tz;
      for (let i = 0, k = k0; i < m; i++, k += 2) {
        const r = rights[i];
        words[k] = r << tz;
        words[k + 1] = tops[indexes[i]] | (r >>> back);
      }
    } else {
      const up = tz - 32;
      for (let i = 0, k = k0; i < m; i++, k += 2) {
        words[k] = 0;
        words[k + 1] = tops[indexes[i]] | (rights[i] << up);
      }
    }
  }
  if (count === 0) return;
  const positions = readPositions(input, count, m);
  input.align(2);
  const rightMask = 2 ** (32 - left) - 1;
  for (let k = 0; k < count; k++) {
    const at = 2 * (start + positions[k]) + 1;
    words[at] = (input.u16() << (32 - left)) | (words[at] & rightMask);
  }
}
