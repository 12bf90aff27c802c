// DOUBLE values: blocks of BLOCK values, each ALP, ALP-RD or raw, whichever is smallest (ALP:
// Afroozeh & Boncz, SIGMOD 2024; DuckDB's src/storage/compression/alp and alprd).
// - ALP: decimal-like doubles become integers n = round(v · 10^e / 10^f) that give v back exactly
//   as n · 10^f · 10^-e (the same two multiplications, in the same order, on decode); those are
//   packed by delta-for.ts (so a random walk packs its steps, not its values). Values that do
//   not come back bit-exactly (NaN with any payload, -0, ±∞, too many digits, |n| ≥ 2^50) are
//   exceptions: position and raw bits, their integer replaced by the previous one's.
// - ALP-RD, for real doubles: the top L bits of each value (sign, exponent, a few mantissa
//   bits) take few distinct values in a block — up to 8 of them get a dictionary index, the rest
//   are exceptions — and the remaining 64 − L bits, less the trailing zero bits every value of
//   the block shares (a float of 32 significant bits has 20 and more), are bit-packed.
// - raw: 8 bytes a value.
// (e, f) candidates are found once per column on a sample, then each block tries the best few
// on a sample of its own; ALP-RD's L is chosen per block the same way.
//
// Stream: u32 count, then per block u8 kind (0 raw, 1 ALP, 2 ALP-RD) and its body.
import { bitWidth, GROUP, pack, unpack, unpackU32 } from './bit-pack.js';
import { ByteReader, encoded } from './byte-stream.js';
import type { ByteWriter } from './byte-stream.js';
import { BLOCK, decodeDeltaFor, encodeDeltaFor, EXACT_LIMIT } from './delta-for.js';

const RAW = 0;
const ALP = 1;
const ALP_RD = 2;
const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
const MAX_E = 18;
/** x + SWEET − SWEET rounds x (|x| < 2^51) to the nearest integer, ties to even, without a call. */
const SWEET = 2 ** 52 + 2 ** 51;
const F10 = Array.from({ length: MAX_E + 1 }, (_, i) => 10 ** i);
const IF10 = Array.from({ length: MAX_E + 1 }, (_, i) => 10 ** -i);
const SAMPLE = 64;
const CANDIDATES = 3;
/** ALP is tried on a block when at most this share of its sample are exceptions. */
const MAX_EXCEPTION_SHARE = 1 / 8;
/**
 * ALP-RD is used only where it keeps at most this share of a block's bits: it decodes at about a
 * third of ALP's speed (bench `codecs: decode`), so a smaller saving makes a cold scan slower than
 * reading the raw block (the larger-than-memory bench's uniform doubles: 54 % of their bits,
 * a cold scan 0.58× the raw files'). Raw blocks are read straight into the column's buffer.
 */
const MAX_RD_SHARE = 0.5;
const RD_DICTIONARY = 8;

interface Combo {
  readonly e: number;
  readonly f: number;
}

/** The ALP integer of `v` under (e, f), or NaN when v does not come back bit-exactly from it. */
function alpInt(v: number, e: number, f: number): number {
  const n = v * F10[e] * IF10[f] + SWEET - SWEET;
  if (!(n > -EXACT_LIMIT && n < EXACT_LIMIT)) return NaN;
  const back = n * F10[f] * IF10[e];
  return back === v && (v !== 0 || 1 / v > 0) ? n : NaN;
}

/** The best (e, f) pairs for `values` by exceptions and integer width on an even sample. */
function candidates(values: Float64Array, n: number): Combo[] {
  const step = Math.max(1, Math.floor(n / 128));
  const scored: { combo: Combo; score: number }[] = [];
  for (let e = 0; e <= MAX_E; e++) {
    for (let f = 0; f <= e; f++) {
      let exceptions = 0;
      let min = Infinity;
      let max = -Infinity;
      let count = 0;
      for (let i = 0; i < n; i += step) {
        count++;
        const k = alpInt(values[i], e, f);
        if (Number.isNaN(k)) exceptions++;
        else {
          if (k < min) min = k;
          if (k > max) max = k;
        }
      }
      const width = min === Infinity ? 64 : bitWidth(max - min);
      scored.push({ combo: { e, f }, score: (count - exceptions) * width + exceptions * 80 });
    }
  }
  scored.sort((a, b) => a.score - b.score || b.combo.e - a.combo.e);
  return scored.slice(0, CANDIDATES).map((s) => s.combo);
}

/**
 * Encodes `values` block by block (every bit pattern comes back as it was).
 * @example
 * const bytes = encodeFloat64(Float64Array.of(21.5, 21.55, NaN, -0));
 * decodeFloat64(bytes, new Float64Array(4)); // 21.5, 21.55, NaN, -0 (bit for bit)
 */
export function encodeFloat64(values: Float64Array): Uint8Array {
  return encoded((out) => encodeFloat64Into(values, out));
}

/** encodeFloat64, appended to `out`. */
export function encodeFloat64Into(values: Float64Array, out: ByteWriter): void {
  const n = values.length;
  out.u32(n);
  const combos = n > 0 ? candidates(values, n) : [];
  const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    const block = values.subarray(start, start + m);
    const mark = out.length;
    const combo = bestCombo(block, combos);
    if (combo !== null) encodeAlp(block, combo, out);
    else encodeAlpRd(bits.subarray(2 * start, 2 * (start + m)), m, out);
    if (out.length - mark <= 1 + 8 * m && out.length > mark) continue;
    out.length = mark;
    out.u8(RAW);
    out.raw(new Uint8Array(values.buffer, values.byteOffset + 8 * start, 8 * m));
  }
}

/** The candidate with fewest exceptions on a sample of `block`, or null when ALP does not suit it. */
function bestCombo(block: Float64Array, combos: readonly Combo[]): Combo | null {
  const step = Math.max(1, Math.floor(block.length / SAMPLE));
  let best: Combo | null = null;
  let fewest = Infinity;
  let count = 0;
  for (let i = 0; i < block.length; i += step) count++;
  for (const c of combos) {
    let exceptions = 0;
    for (let i = 0; i < block.length; i += step) if (Number.isNaN(alpInt(block[i], c.e, c.f))) exceptions++;
    if (exceptions < fewest) {
      fewest = exceptions;
      best = c;
    }
  }
  return fewest <= count * MAX_EXCEPTION_SHARE ? best : null;
}

const ints = new Float64Array(BLOCK);
/** Per top-bits value of ALP-RD: its count in a block, and its dictionary index + 1 (0 = none); zeroed after each block. */
const topCounts = new Uint32Array(1 << 16);
const topIndex = new Uint8Array(1 << 16);
const spare = new Float64Array(BLOCK);

function encodeAlp(block: Float64Array, { e, f }: Combo, out: ByteWriter): void {
  const m = block.length;
  const positions: number[] = [];
  let previous = 0;
  for (let i = 0; i < m; i++) {
    const k = alpInt(block[i], e, f);
    if (Number.isNaN(k)) {
      positions.push(i);
      ints[i] = previous;
    } else {
      ints[i] = previous = k;
    }
  }
  if (positions.length > 0xffff) throw new Error('unreachable: a block has at most 2048 values');
  out.u8(ALP);
  out.u8(e);
  out.u8(f);
  out.u16(positions.length);
  encodeDeltaFor(ints, m, out);
  if (positions.length === 0) return;
  writeExceptions(positions, m, out);
  const raw = new Uint32Array(block.buffer, block.byteOffset, 2 * m);
  out.align(4);
  for (const i of positions) {
    out.u32(raw[2 * i]);
    out.u32(raw[2 * i + 1]);
  }
}

function writeExceptions(positions: readonly number[], m: number, out: ByteWriter): void {
  for (let k = 0; k < positions.length; k++) spare[k] = positions[k];
  pack(spare, positions.length, bitWidth(m - 1), out);
}

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

/**
 * Whether encoding `values` can pay: ALP suits a sample of them, or ALP-RD would keep at most
 * MAX_RD_SHARE of their bits. False: every block would be raw — the caller stores the column
 * raw without encoding it (what most of a checkpoint's time went to on random doubles).
 */
export function isFloat64Compressible(values: Float64Array): boolean {
  const n = values.length;
  if (n === 0) return false;
  if (bestCombo(values, candidates(values, n)) !== null) return true;
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
function encodeAlpRd(bits: Uint32Array, m: number, out: ByteWriter): void {
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
  writeExceptions(positions, m, out);
  out.align(2);
  for (const top of missing) out.u16(top);
}

const positionsOut = new Float64Array(BLOCK);
const indexes = new Uint32Array(BLOCK);
const rights = new Uint32Array(BLOCK);
const tail = new Float64Array(BLOCK);

/** Decodes what encodeFloat64 wrote into `into` (its length must be the encoded count). */
export function decodeFloat64(bytes: Uint8Array, into: Float64Array): void {
  const input = new ByteReader(bytes);
  const n = input.u32();
  if (n !== into.length) throw new RangeError(`encoded ${n} values, expected ${into.length}`);
  const words = new Uint32Array(into.buffer, into.byteOffset, 2 * n);
  const raw = new Uint8Array(into.buffer, into.byteOffset, 8 * n);
  for (let start = 0; start < n; start += BLOCK) {
    const m = Math.min(BLOCK, n - start);
    const kind = input.u8();
    if (kind === RAW) raw.set(input.raw(8 * m), 8 * start);
    else if (kind === ALP) decodeAlp(input, m, into, start, words);
    else if (kind === ALP_RD) decodeAlpRd(input, m, start, words);
    else throw new RangeError(`unknown float64 block kind ${kind}`);
  }
  if (!input.isDone) throw new RangeError('bytes left after the last float64 block');
}

/** Where a block of `m` values at `start` is unpacked: in place when whole groups fit, else a scratch block. */
function target(into: Float64Array, start: number, m: number): Float64Array {
  return m % GROUP === 0 ? into.subarray(start, start + m) : tail;
}

function readPositions(input: ByteReader, count: number, m: number): Float64Array {
  unpack(input, count, bitWidth(m - 1), positionsOut, 0);
  return positionsOut;
}

function decodeAlp(input: ByteReader, m: number, into: Float64Array, start: number, words: Uint32Array): void {
  const e = input.u8();
  const f = input.u8();
  if (e > MAX_E || f > e) throw new RangeError(`ALP exponents ${e}, ${f} out of range`);
  const count = input.u16();
  const out = target(into, start, m);
  decodeDeltaFor(input, m, out);
  const a = F10[f];
  const b = IF10[e];
  if (out === tail) {
    for (let i = 0; i < m; i++) into[start + i] = out[i] * a * b;
  } else {
    for (let i = 0; i < m; i++) out[i] = out[i] * a * b;
  }
  if (count === 0) return;
  const positions = readPositions(input, count, m);
  input.align(4);
  for (let k = 0; k < count; k++) {
    const at = 2 * (start + positions[k]);
    words[at] = input.u32();
    words[at + 1] = input.u32();
  }
}

function decodeAlpRd(input: ByteReader, m: number, start: number, words: Uint32Array): void {
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
