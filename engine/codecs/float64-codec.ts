// DOUBLE values: blocks of BLOCK values, each ALP, ALP-RD or raw, whichever is smallest (ALP:
// Afroozeh & Boncz, SIGMOD 2024; DuckDB's src/storage/compression/alp and alprd).
// - ALP: decimal-like doubles become integers n = round(v · 10^e / 10^f) that give v back exactly
//   as n · 10^f · 10^-e (the same two multiplications, in the same order, on decode); those are
//   packed by delta-for.ts (so a random walk packs its steps, not its values). Values that do
//   not come back bit-exactly (NaN with any payload, -0, ±∞, too many digits, |n| ≥ 2^50) are
//   exceptions: position and raw bits, their integer replaced by the previous one's.
// - ALP-RD (alp-rd.ts), for other doubles where it keeps at most half their bits: the top bits
//   of each value from a small dictionary, the rest bit-packed.
// - raw: 8 bytes a value.
// (e, f) candidates are found once per column on a sample, then each block tries the best few
// on a sample of its own; ALP-RD's L is chosen per block the same way.
//
// Stream: u32 count, then per block u8 kind (0 raw, 1 ALP, 2 ALP-RD) and its body.
import { ALP_RD, decodeAlpRd, encodeAlpRd, isAlpRdWorth } from './alp-rd.js';
import { bitWidth, GROUP } from './bit-pack.js';
import { readPositions, writePositions } from './block-positions.js';
import { ByteReader, encoded } from './byte-stream.js';
import type { ByteWriter } from './byte-stream.js';
import { BLOCK, decodeDeltaFor, encodeDeltaFor, EXACT_LIMIT } from './delta-for.js';

const RAW = 0;
const ALP = 1;
const MAX_E = 18;
/** x + SWEET − SWEET rounds x (|x| < 2^51) to the nearest integer, ties to even, without a call. */
const SWEET = 2 ** 52 + 2 ** 51;
const F10 = Array.from({ length: MAX_E + 1 }, (_, i) => 10 ** i);
const IF10 = Array.from({ length: MAX_E + 1 }, (_, i) => 10 ** -i);
const SAMPLE = 64;
const CANDIDATES = 3;
/** ALP is tried on a block when at most this share of its sample are exceptions. */
const MAX_EXCEPTION_SHARE = 1 / 8;

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
  writePositions(positions, m, out);
  const raw = new Uint32Array(block.buffer, block.byteOffset, 2 * m);
  out.align(4);
  for (const i of positions) {
    out.u32(raw[2 * i]);
    out.u32(raw[2 * i + 1]);
  }
}


const tail = new Float64Array(BLOCK);

/**
 * Whether encoding `values` can pay: ALP suits a sample of them, or ALP-RD would keep at most
 * MAX_RD_SHARE of their bits. False: every block would be raw — the caller stores the column
 * raw without encoding it (what most of a checkpoint's time went to on random doubles).
 */
export function isFloat64Compressible(values: Float64Array): boolean {
  if (values.length === 0) return false;
  return bestCombo(values, candidates(values, values.length)) !== null || isAlpRdWorth(values);
}

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

