// LSD radix sort of int64 nanosecond timestamps: no comparator and no BigInt per row. Each
// timestamp becomes its unsigned 64-bit offset from the minimum, held as two 32-bit words, so only
// the bits that vary are sorted on (timestamps of one insert or one shard span far less than
// 2^64 ns), in digits of at most 11 bits (2,048 buckets stay in cache; wider digits measured no
// faster here). The first pass takes the most significant digit; the small buckets it leaves are
// finished by insertion sort, crowded ones by LSD passes, each pass carrying the keys along with
// the row numbers so that it reads its input in order. Every step is stable: equal timestamps
// keep their order.

const SIGN = 0x80000000;
const MAX_DIGIT_BITS = 11;
/** Buckets of the first digit up to this size are finished by insertion sort. */
const SMALL = 48;

/** Stable sort order of rows `rows` of `ts` by time (all rows when null). */
export function radixSort(ts: BigInt64Array, rows: Uint32Array | null): Uint32Array {
  const n = rows === null ? ts.length : rows.length;
  const words = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  const idx = rows === null ? new Uint32Array(n) : rows.slice();
  if (rows === null) for (let i = 0; i < n; i++) idx[i] = i;
  // The minimum, with the low word's sign flipped so that it compares as unsigned.
  let minHi = 0x7fffffff;
  let minLo = 0x7fffffff;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    const hi = words[(i << 1) | 1];
    const lo = words[i << 1] ^ SIGN;
    if (hi < minHi || (hi === minHi && lo < minLo)) { minHi = hi; minLo = lo; }
  }
  const keyLo = new Uint32Array(n);
  const keyHi = new Uint32Array(n);
  let orHi = 0;
  let orLo = 0;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    const lo = words[i << 1] ^ SIGN;
    const dLo = (lo - minLo) >>> 0;
    const dHi = (words[(i << 1) | 1] - minHi - (lo < minLo ? 1 : 0)) >>> 0;
    keyLo[k] = dLo;
    keyHi[k] = dHi;
    orLo |= dLo;
    orHi |= dHi;
  }
  const bits = orHi !== 0 ? 64 - Math.clz32(orHi) : 32 - Math.clz32(orLo);
  const outLo = new Uint32Array(n);
  const outHi = new Uint32Array(n);
  const outIdx = new Uint32Array(n);
  if (bits <= MAX_DIGIT_BITS) return lsd(keyLo, keyHi, idx, outLo, outHi, outIdx, bits);
  // Most significant digit first: spread timestamps fill its buckets evenly, leaving a few rows
  // each, which an insertion sort orders in place; a crowded bucket gets the LSD passes instead.
  const shift = bits - MAX_DIGIT_BITS;
  const counts = new Uint32Array((1 << MAX_DIGIT_BITS) + 1);
  scatter(keyLo, keyHi, idx, outLo, outHi, outIdx, shift, MAX_DIGIT_BITS, counts, n);
  for (let start = 0, b = 0; b < 1 << MAX_DIGIT_BITS; b++) {
    const end = counts[b]; // After the scatter, counts[b] is where bucket b ends.
    if (end - start <= SMALL) insertionSort(outLo, outHi, outIdx, start, end);
    else {
      const sorted = lsd(outLo.subarray(start, end), outHi.subarray(start, end), outIdx.subarray(start, end),
        keyLo.subarray(start, end), keyHi.subarray(start, end), idx.subarray(start, end), shift);
      if (sorted.buffer !== outIdx.buffer) outIdx.set(sorted, start);
    }
    start = end;
  }
  return outIdx;
}

/** LSD passes over the low `bits` bits; returns the sorted row numbers (in `idx` or `outIdx`). */
function lsd(
  keyLo: Uint32Array, keyHi: Uint32Array, idx: Uint32Array, outLo: Uint32Array, outHi: Uint32Array, outIdx: Uint32Array, bits: number,
): Uint32Array {
  const passes = Math.ceil(bits / MAX_DIGIT_BITS);
  const width = Math.ceil(bits / Math.max(1, passes));
  const counts = new Uint32Array(1 << width);
  for (let shift = 0; shift < bits; shift += width) {
    scatter(keyLo, keyHi, idx, outLo, outHi, outIdx, shift, width, counts, idx.length);
    [keyLo, outLo] = [outLo, keyLo];
    [keyHi, outHi] = [outHi, keyHi];
    [idx, outIdx] = [outIdx, idx];
  }
  return idx;
}

/** Stable insertion sort of rows [start, end) of the parallel arrays by (hi, lo). */
function insertionSort(lo: Uint32Array, hi: Uint32Array, idx: Uint32Array, start: number, end: number): void {
  for (let k = start + 1; k < end; k++) {
    const l = lo[k];
    const h = hi[k];
    const i = idx[k];
    let j = k - 1;
    while (j >= start && (hi[j] > h || (hi[j] === h && lo[j] > l))) {
      lo[j + 1] = lo[j];
      hi[j + 1] = hi[j];
      idx[j + 1] = idx[j];
      j--;
    }
    lo[j + 1] = l;
    hi[j + 1] = h;
    idx[j + 1] = i;
  }
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
  shift: number, width: number, counts: Uint32Array, n: number,
): void {
  const mask = (1 << width) - 1;
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
