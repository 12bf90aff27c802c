// Radix sort of int64 nanosecond timestamps: no comparator and no BigInt per row. Each timestamp
// becomes its unsigned 64-bit offset from the minimum, held as two 32-bit words, so only the bits
// that vary are sorted on. Rows spanning less than 2^53 ns (104 days: any shard of a day) have
// offsets exact as doubles: they are spread by their leading bits into n to 2n buckets, each
// finished by an insertion sort on plain double compares (a crowded bucket is spread again by
// the bits varying within it). Wider spans get LSD passes over both words, in digits of at most
// 11 bits. Every step is stable: equal timestamps keep their order. Each loop sits in its own
// small function with its arrays allocated before it: V8 optimizes a hot loop in the middle of a
// function on the fly and then threw that code away on every call at the first statement after
// the loop, running the sort 5× slower.

import { scratchF64, scratchI32, scratchU32 } from './scratch.js';

const SIGN = 0x80000000;
const TWO_32 = 4294967296;
/** High words below this: the offset from the minimum is below 2^53, exact as a double. */
const SPAN_53 = 1 << 21;
/** The widest digit of the double-key spread (65,536 buckets). */
const MAX_SPREAD_BITS = 16;
/** Buckets up to this size are finished by insertion sort. */
const SMALL = 32;
const MAX_DIGIT_BITS = 11;

/**
 * Stable sort order of rows `rows` of `ts` by time (all rows when null), in `out` when given (a
 * caller's scratch: a fresh order array per sort of an insert was new memory each time).
 */
export function radixSort(ts: BigInt64Array, rows: Uint32Array | null, out: Uint32Array | null = null): Uint32Array {
  const n = rows === null ? ts.length : rows.length;
  const words = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  if (rows === null && n > 0) {
    // All rows: one pass makes each key, relative to the first row, and finds the keys' range.
    const key = scratchF64('radix.key', n);
    if (relativeOffsets(words, key)) {
      const outIdx = out ?? new Uint32Array(n);
      spread(key, null, scratchF64('radix.outKey', n), outIdx, 0, n, keyMin, keyMax - keyMin);
      return outIdx;
    }
  }
  const minLo = bounds(words, rows, n);
  const minHi = boundHi[0];
  const span = (boundHi[1] - minHi) * TWO_32 + (boundLo - minLo);
  if (span < 2 ** 53) {
    // Offsets below 2^53 are exact as doubles: one pass makes the keys.
    const key = scratchF64('radix.key', n);
    const outKey = scratchF64('radix.outKey', n);
    const outIdx = out ?? new Uint32Array(n);
    doubleOffsets(words, rows, minHi, minLo, key);
    spread(key, rows, outKey, outIdx, 0, n, 0, span);
    return outIdx;
  }
  const idx = scratchU32('radix.idx', n);
  if (rows === null) identity(idx); else idx.set(rows);
  const keyLo = scratchU32('radix.keyLo', n);
  const keyHi = scratchU32('radix.keyHi', n);
  const orHi = offsets(words, idx, minHi, minLo, keyLo, keyHi);
  const sorted = lsd(keyLo, keyHi, idx, scratchU32('radix.outLo', n), scratchU32('radix.outHi', n), scratchU32('radix.outIdx', n), 64 - Math.clz32(orHi));
  if (out === null) return sorted.slice();
  out.set(sorted);
  return out;
}

function identity(idx: Uint32Array): void {
  for (let i = 0; i < idx.length; i++) idx[i] = i;
}

/** The high words of the last bounds() (least, greatest) and the low word of the greatest. */
const boundHi = new Int32Array(2);
let boundLo = 0;

/**
 * The least and greatest timestamp of the first n `rows` (rows 0..n-1 when null): returns the
 * least's low word; see boundHi. Low words have their sign flipped (they compare as unsigned).
 */
function bounds(words: Int32Array, rows: Uint32Array | null, n: number): number {
  let minHi = 0x7fffffff;
  let minLo = 0x7fffffff;
  let maxHi = -0x80000000;
  let maxLo = -0x80000000;
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k];
    const hi = words[(i << 1) | 1];
    const lo = words[i << 1] ^ SIGN;
    if (hi < minHi || (hi === minHi && lo < minLo)) { minHi = hi; minLo = lo; }
    if (hi > maxHi || (hi === maxHi && lo > maxLo)) { maxHi = hi; maxLo = lo; }
  }
  boundHi[0] = minHi;
  boundHi[1] = maxHi;
  boundLo = maxLo;
  return minLo;
}

/** The least and greatest key of the last relativeOffsets(). */
let keyMin = 0;
let keyMax = 0;
/** Rows whose high words differ from the first row's by less than this have keys below 2^51 + 2^32: exact, and so is their range. */
const NEAR_HI = 1 << 19;

/**
 * Each row's time minus the first row's, as a double, with the least and greatest (keyMin,
 * keyMax); false when some row is too far from the first for that to be exact.
 */
function relativeOffsets(words: Int32Array, key: Float64Array): boolean {
  const hi0 = words[1];
  const lo0 = words[0] ^ SIGN;
  let min = 0;
  let max = 0;
  for (let i = 0; i < key.length; i++) {
    const dh = words[(i << 1) | 1] - hi0;
    if (dh >= NEAR_HI || dh <= -NEAR_HI) return false;
    const k = dh * TWO_32 + ((words[i << 1] ^ SIGN) - lo0);
    key[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  keyMin = min;
  keyMax = max;
  return true;
}

/** Each row's offset from the minimum as a double (exact: the caller checked the span). */
function doubleOffsets(words: Int32Array, rows: Uint32Array | null, minHi: number, minLo: number, key: Float64Array): void {
  for (let k = 0; k < key.length; k++) {
    const i = rows === null ? k : rows[k];
    key[k] = (words[(i << 1) | 1] - minHi) * TWO_32 + ((words[i << 1] ^ SIGN) - minLo);
  }
}

/** Each row's offset from the minimum into keyHi/keyLo; returns the OR of the high words. */
function offsets(words: Int32Array, idx: Uint32Array, minHi: number, minLo: number, keyLo: Uint32Array, keyHi: Uint32Array): number {
  let orHi = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    const lo = words[i << 1] ^ SIGN;
    const dHi = words[(i << 1) | 1] - minHi - (lo < minLo ? 1 : 0);
    keyLo[k] = lo - minLo;
    keyHi[k] = dHi;
    orHi |= dHi;
  }
  return orHi;
}

/**
 * Sorts rows [start, end) of key/idx into outKey/outIdx (the same positions); key/idx become
 * scratch. `idx` null: row k is row k (the first call, on all rows). `known`: the keys' range,
 * from `least` (the first call knows them), or -1 to find them.
 */
function spread(
  key: Float64Array, idx: Uint32Array | null, outKey: Float64Array, outIdx: Uint32Array, start: number, end: number, least: number, known: number,
): void {
  const min = known >= 0 ? least : rangeMin(key, start, end);
  const range = known >= 0 ? known : rangeMax(key, start, end) - min;
  if (range === 0) {
    outKey.set(key.subarray(start, end), start);
    if (idx === null) for (let k = start; k < end; k++) outIdx[k] = k;
    else outIdx.set(idx.subarray(start, end), start);
    return;
  }
  const bits = range < TWO_32 ? 32 - Math.clz32(range) : 64 - Math.clz32(Math.floor(range / TWO_32));
  // About one bucket per row: with two or more the insertion sort mispredicted its branches
  // often enough to cost more than the wider scatter; with one, most rows need no move.
  const width = Math.min(MAX_SPREAD_BITS, 32 - Math.clz32(end - start), bits);
  // The top call's counts are scratch (a fresh 64 KiB array per sort was new memory each time);
  // a crowded bucket's spread (known < 0) runs while its caller still reads them: its own.
  const counts = known >= 0 ? scratchI32('radix.counts', (1 << width) + 1).fill(0) : new Int32Array((1 << width) + 1);
  const digits = scratchI32('radix.digits', end - start);
  const crowded = scatterDoubles(key, idx, outKey, outIdx, start, end, min, 2 ** (width - bits), counts, digits);
  // counts[d] now ends bucket d. Crowded buckets (many equal or clustered times) are spread again
  // on the bits varying within them; the rest are finished by one insertion pass over all rows,
  // which moves a row only within its bucket since the buckets are already in order.
  if (crowded > SMALL) {
    const rows = idx ?? scratchU32('radix.idx', key.length);
    for (let d = 0, from = start; d < 1 << width; d++) {
      const to = counts[d];
      if (to - from > SMALL) {
        key.set(outKey.subarray(from, to), from);
        rows.set(outIdx.subarray(from, to), from);
        spread(key, rows, outKey, outIdx, from, to, 0, -1);
      }
      from = to;
    }
  }
  insertionPass(outKey, outIdx, start, end);
}

/** Insertion sort of rows [start, end) of key/idx, stable; cheap when each row is near its place. */
function insertionPass(key: Float64Array, idx: Uint32Array, start: number, end: number): void {
  for (let k = start + 1; k < end; k++) {
    const v = key[k];
    if (key[k - 1] <= v) continue;
    const i = idx[k];
    let j = k - 1;
    do { key[j + 1] = key[j]; idx[j + 1] = idx[j]; j--; } while (j >= start && key[j] > v);
    key[j + 1] = v;
    idx[j + 1] = i;
  }
}

function rangeMin(key: Float64Array, start: number, end: number): number {
  let min = key[start];
  for (let k = start + 1; k < end; k++) if (key[k] < min) min = key[k];
  return min;
}

function rangeMax(key: Float64Array, start: number, end: number): number {
  let max = key[start];
  for (let k = start + 1; k < end; k++) if (key[k] > max) max = key[k];
  return max;
}

/**
 * Stable counting scatter of rows [start, end) by floor((key - min) * scale), each row's bucket
 * computed once into `digits`; counts has a slot per bucket + 1. Returns the largest bucket's size.
 * Each loop is a function of its own, for the reason the header gives.
 */
function scatterDoubles(
  key: Float64Array, idx: Uint32Array | null, outKey: Float64Array, outIdx: Uint32Array, start: number, end: number,
  min: number, scale: number, counts: Int32Array, digits: Int32Array,
): number {
  countDigits(key, start, end, min, scale, counts, digits);
  const crowded = bucketStarts(counts, start);
  if (idx === null) placeRows(key, outKey, outIdx, start, end, counts, digits);
  else placeIndexed(key, idx, outKey, outIdx, start, end, counts, digits);
  return crowded;
}

/** Each row's bucket into digits, and the rows per bucket into counts[bucket + 1]. */
function countDigits(key: Float64Array, start: number, end: number, min: number, scale: number, counts: Int32Array, digits: Int32Array): void {
  for (let k = start; k < end; k++) {
    // Non-negative and below 2^16: truncating to int32 is the floor, with no Math.floor call.
    const d = ((key[k] - min) * scale) | 0;
    digits[k - start] = d;
    counts[d + 1]++;
  }
}

/** Turns counts into each bucket's first row (from `start`); returns the largest bucket's size. */
function bucketStarts(counts: Int32Array, start: number): number {
  let crowded = 0;
  counts[0] = start;
  for (let d = 1; d < counts.length; d++) {
    const c = counts[d];
    if (c > crowded) crowded = c;
    counts[d] = c + counts[d - 1];
  }
  return crowded;
}

/** Row k to the next place of its bucket, as row number k. */
function placeRows(key: Float64Array, outKey: Float64Array, outIdx: Uint32Array, start: number, end: number, counts: Int32Array, digits: Int32Array): void {
  for (let k = start; k < end; k++) {
    const p = counts[digits[k - start]]++;
    outKey[p] = key[k];
    outIdx[p] = k;
  }
}

/** placeRows for rows numbered by idx. */
function placeIndexed(key: Float64Array, idx: Uint32Array, outKey: Float64Array, outIdx: Uint32Array, start: number, end: number, counts: Int32Array, digits: Int32Array): void {
  for (let k = start; k < end; k++) {
    const p = counts[digits[k - start]]++;
    outKey[p] = key[k];
    outIdx[p] = idx[k];
  }
}

/** LSD passes over the low `bits` bits; returns the sorted row numbers (in `idx` or `outIdx`). */
function lsd(
  keyLo: Uint32Array, keyHi: Uint32Array, idx: Uint32Array, outLo: Uint32Array, outHi: Uint32Array, outIdx: Uint32Array, bits: number,
): Uint32Array {
  const passes = Math.ceil(bits / MAX_DIGIT_BITS);
  const width = Math.ceil(bits / passes);
  const counts = new Uint32Array(1 << width);
  for (let shift = 0; shift < bits; shift += width) {
    scatter(keyLo, keyHi, idx, outLo, outHi, outIdx, shift, width, counts);
    const lo = keyLo; keyLo = outLo; outLo = lo;
    const hi = keyHi; keyHi = outHi; outHi = hi;
    const ix = idx; idx = outIdx; outIdx = ix;
  }
  return idx;
}

/** Digit [shift, shift + width) of the 64-bit key hi·2^32 + lo. */
function digit(lo: number, hi: number, shift: number, mask: number): number {
  if (shift >= 32) return (hi >>> (shift - 32)) & mask;
  if (shift === 0) return lo & mask;
  return ((lo >>> shift) | (hi << (32 - shift))) & mask;
}

/** One stable counting pass on one digit, moving both key words and the row numbers along. */
function scatter(
  lo: Uint32Array, hi: Uint32Array, idx: Uint32Array, outLo: Uint32Array, outHi: Uint32Array, outIdx: Uint32Array,
  shift: number, width: number, counts: Uint32Array,
): void {
  const mask = (1 << width) - 1;
  const n = idx.length;
  counts.fill(0);
  for (let k = 0; k < n; k++) counts[digit(lo[k], hi[k], shift, mask)]++;
  let at = 0;
  for (let d = 0; d <= mask; d++) { const c = counts[d]; counts[d] = at; at += c; }
  for (let k = 0; k < n; k++) {
    const p = counts[digit(lo[k], hi[k], shift, mask)]++;
    outLo[p] = lo[k];
    outHi[p] = hi[k];
    outIdx[p] = idx[k];
  }
}
