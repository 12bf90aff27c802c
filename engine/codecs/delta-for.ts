// Delta / delta-of-delta + frame-of-reference bit packing with patched exceptions, for one block
// of exact integers held as numbers (|x| < 2^50, so every delta of delta stays exact): the core
// of the integer, timestamp, ALP, dictionary-code and series-id codecs. The encoder transforms the
// block by order 0 (values), 1 (deltas) or 2 (deltas of deltas: constant steps cost 0 bits),
// subtracts a base and packs what is left at width w; values that do not fit in w bits (a counter
// reset, a jump between two series, an outlier) are exceptions, stored apart by position, so one
// of them does not widen the whole block (PFOR, as in FastLanes and Parquet's DELTA_BINARY_PACKED
// miniblocks). Order, base and width are chosen by the bits they cost, measured on the block.
//
// Block: u8 order, u8 w, u16 exceptions, f64 base, [f64 first value], [f64 first delta], the
// packed values, then the exceptions: positions packed, f64 their base, u8 their width, values.
import { bitWidth, GROUP, pack, unpack } from './bit-pack.js';
import type { ByteReader, ByteWriter } from './byte-stream.js';

/** Magnitude every value (and so every delta of delta) of a block stays under. */
export const EXACT_LIMIT = 2 ** 50;
/** Values per block of every block codec: a few thousand, decoded in tight loops that stay in the CPU's L1/L2 cache. */
export const BLOCK = 2048;
const SAMPLE = 64;
/** A large block's order is chosen on WINDOWS windows of WINDOW consecutive values. */
const WINDOW = 32;
const WINDOWS = 8;
const windowed = new Float64Array(WINDOW * WINDOWS);

let ys = new Float64Array(0);
let us = new Float64Array(0);

function scratch(n: number): void {
  if (ys.length < n) {
    ys = new Float64Array(n);
    us = new Float64Array(n);
  }
}

/** `x` transformed by `order` into `y` (the first `order` slots are placeholders: 0). */
function transform(x: ArrayLike<number>, n: number, order: number, y: Float64Array): void {
  if (order === 0) {
    for (let i = 0; i < n; i++) y[i] = x[i];
  } else if (order === 1) {
    y[0] = 0;
    for (let i = 1; i < n; i++) y[i] = x[i] - x[i - 1];
  } else {
    y[0] = 0;
    if (n > 1) y[1] = 0;
    for (let i = 2; i < n; i++) y[i] = x[i] - 2 * x[i - 1] + x[i - 2];
  }
}

/** Bits order `order` would spend on WINDOWS windows of `x` (a cheap look before transforming all of it): the plan of their values. */
function sampledBits(x: ArrayLike<number>, n: number, order: number): number {
  let m = 0;
  for (let w = 0; w < WINDOWS; w++) {
    const from = Math.max(order, Math.floor((w * (n - WINDOW)) / (WINDOWS - 1)));
    for (let i = from; i < from + WINDOW; i++) windowed[m++] = order === 0 ? x[i] : order === 1 ? x[i] - x[i - 1] : x[i] - 2 * x[i - 1] + x[i - 2];
  }
  return plan(windowed, m, 0).bits;
}

interface Plan {
  readonly base: number;
  readonly w: number;
  readonly exceptions: number;
  readonly bits: number;
}

/** The cheapest base and width for `y[order..n)`: every value a candidate base would leave outside w bits is an exception. */
function plan(y: Float64Array, n: number, order: number): Plan {
  let min = Infinity;
  let max = -Infinity;
  for (let i = order; i < n; i++) {
    const v = y[i];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Infinity) return { base: 0, w: 0, exceptions: 0, bits: 0 };
  const full = bitWidth(max - min);
  let best: Plan = { base: min, w: full, exceptions: 0, bits: n * full };
  if (full <= 2 || n - order < SAMPLE) return best;
  // A low sample value as base (past a few outliers): the values below it become exceptions with those above.
  const step = (n - order) / SAMPLE;
  for (let k = 0; k < SAMPLE; k++) sample[k] = y[order + Math.floor(k * step)];
  sample.sort();
  // Values spread over the whole range (random bits), not a few outliers: no exception can pay.
  const trim = SAMPLE / 16;
  if (bitWidth(sample[SAMPLE - 1 - trim] - sample[trim]) >= full) return best;
  const posBits = bitWidth(n - 1);
  const bases = [...new Set([min, sample[1], sample[trim]])];
  for (const base of bases) {
    counts.fill(0);
    let below = 0;
    for (let i = order; i < n; i++) {
      const d = y[i] - base;
      if (d < 0) below++;
      else counts[d < 4294967296 ? 32 - Math.clz32(d) : bitWidth(d)]++;
    }
    // Exceptions at width w: those below the base and those wider than w.
    let wider = below;
    for (let w = 53; w >= 0; w--) {
      const bits = n * w + wider * (posBits + full) + (wider > 0 ? 72 : 0);
      if (wider <= 0xffff && bits < best.bits) best = { base, w, exceptions: wider, bits };
      wider += counts[w];
    }
  }
  return best;
}

const counts = new Int32Array(54);
const sample = new Float64Array(SAMPLE);

/**
 * Writes block `x[0..n)` (exact integers, |x| < EXACT_LIMIT) with the cheapest of `orders`: a
 * block of a few windows' size tries each; a larger one picks by windows of it.
 */
export function encodeDeltaFor(x: ArrayLike<number>, n: number, out: ByteWriter, orders: readonly number[] = [0, 1, 2]): void {
  scratch(n);
  let order = orders[0];
  if (orders.length > 1 && n >= 2 * WINDOW * WINDOWS) {
    let fewest = Infinity;
    for (const o of orders) {
      const bits = sampledBits(x, n, o);
      if (bits < fewest) {
        fewest = bits;
        order = o;
      }
    }
  } else if (orders.length > 1) {
    let fewest = Infinity;
    for (const o of orders) {
      if (o > 0 && o >= n) continue;
      transform(x, n, o, ys);
      const { bits } = plan(ys, n, o);
      if (bits < fewest) {
        fewest = bits;
        order = o;
      }
    }
  }
  if (order > 0 && order >= n) order = 0;
  transform(x, n, order, ys);
  const { base, w, exceptions } = plan(ys, n, order);
  out.u8(order);
  out.u8(w);
  out.u16(exceptions);
  out.f64(base);
  if (order >= 1) out.f64(n > 0 ? x[0] : 0);
  if (order === 2) out.f64(n > 1 ? x[1] - x[0] : 0);
  const limit = 2 ** w;
  const positions: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = i < order ? 0 : ys[i] - base;
    if (d < 0 || d >= limit) {
      positions.push(i);
      us[i] = 0;
    } else {
      us[i] = d;
    }
  }
  pack(us, n, w, out);
  if (exceptions === 0) return;
  let exMin = Infinity;
  let exMax = -Infinity;
  for (const i of positions) {
    exMin = Math.min(exMin, ys[i]);
    exMax = Math.max(exMax, ys[i]);
  }
  const posW = bitWidth(n - 1);
  for (let k = 0; k < exceptions; k++) us[k] = positions[k];
  pack(us, exceptions, posW, out);
  const exW = bitWidth(exMax - exMin);
  out.f64(exMin);
  out.u8(exW);
  for (let k = 0; k < exceptions; k++) us[k] = ys[positions[k]] - exMin;
  pack(us, exceptions, exW, out);
}

let positionScratch = new Float64Array(GROUP);

/**
 * Reads a block of `n` values into `out[0..n)`. `out` must hold `n` rounded up to a group of 32
 * (the last group is unpacked whole).
 */
export function decodeDeltaFor(input: ByteReader, n: number, out: Float64Array): void {
  const order = input.u8();
  const w = input.u8();
  const exceptions = input.u16();
  const base = input.f64();
  const x0 = order >= 1 ? input.f64() : 0;
  const d1 = order === 2 ? input.f64() : 0;
  unpack(input, n, w, out, base);
  if (exceptions > 0) {
    const size = Math.ceil(exceptions / GROUP) * GROUP;
    if (positionScratch.length < 2 * size) positionScratch = new Float64Array(2 * size);
    const positions = positionScratch.subarray(0, size);
    const values = positionScratch.subarray(size);
    unpack(input, exceptions, bitWidth(n - 1), positions, 0);
    const exMin = input.f64();
    const exW = input.u8();
    unpack(input, exceptions, exW, values, exMin);
    for (let k = 0; k < exceptions; k++) {
      const at = positions[k];
      if (at >= n) throw new RangeError(`exception at ${at} of a block of ${n}`);
      out[at] = values[k];
    }
  }
  if (order === 1) {
    let v = x0;
    out[0] = v;
    for (let i = 1; i < n; i++) out[i] = v += out[i];
  } else if (order === 2) {
    let v = x0;
    let d = d1;
    out[0] = v;
    if (n > 1) out[1] = v += d;
    for (let i = 2; i < n; i++) {
      d += out[i];
      out[i] = v += d;
    }
  }
}
