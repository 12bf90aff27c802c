// Stable sort order of int64 nanosecond timestamps by LSD radix sort: no comparator and no BigInt
// per row. Each timestamp is read as two 32-bit words and turned into its unsigned 64-bit offset
// from the minimum, so only the bits that vary are sorted on: timestamps of one insert or one
// shard span far less than 2^64 ns, and five 11-bit passes usually cover them. Each pass carries
// the keys along with the row numbers, so every pass reads its input in order. LSD passes are
// stable, so equal timestamps keep their order.

const BITS = 11;
const BUCKETS = 1 << BITS;
const SIGN = 0x80000000;

/** Stable sort order of `ts` (perm[i] = source row of sorted row i), or null when already sorted. */
export function sortPermutation(ts: BigInt64Array): Uint32Array | null {
  const n = ts.length;
  const words = new Uint32Array(ts.buffer, ts.byteOffset, n * 2);
  // Minimum (high words with the sign flipped compare as unsigned) and whether already sorted.
  let minHi = (words[1] ^ SIGN) >>> 0;
  let minLo = words[0];
  let isSorted = true;
  let prevHi = minHi;
  let prevLo = minLo;
  for (let i = 1; i < n; i++) {
    const hi = (words[(i << 1) | 1] ^ SIGN) >>> 0;
    const lo = words[i << 1];
    if (hi < prevHi || (hi === prevHi && lo < prevLo)) isSorted = false;
    if (hi < minHi || (hi === minHi && lo < minLo)) { minHi = hi; minLo = lo; }
    prevHi = hi;
    prevLo = lo;
  }
  if (isSorted) return null;
  let keyLo = new Uint32Array(n);
  let keyHi = new Uint32Array(n);
  let orLo = 0;
  let orHi = 0;
  for (let i = 0; i < n; i++) {
    const hi = (words[(i << 1) | 1] ^ SIGN) >>> 0;
    const lo = words[i << 1];
    const dLo = (lo - minLo) >>> 0;
    const dHi = (hi - minHi - (lo < minLo ? 1 : 0)) >>> 0;
    keyLo[i] = dLo;
    keyHi[i] = dHi;
    orLo |= dLo;
    orHi |= dHi;
  }
  let idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  let outLo = new Uint32Array(n);
  let outHi = new Uint32Array(n);
  let outIdx = new Uint32Array(n);
  const counts = new Uint32Array(BUCKETS);
  const loBits = orHi !== 0 ? 32 : bitLength(orLo);
  const hiBits = bitLength(orHi);
  // Passes over the low word carry both words; passes over the high word need only it.
  for (let shift = 0; shift < loBits; shift += BITS) {
    scatter(keyLo, keyLo, keyHi, idx, outLo, outHi, outIdx, shift, counts, n);
    [keyLo, outLo] = [outLo, keyLo];
    [keyHi, outHi] = [outHi, keyHi];
    [idx, outIdx] = [outIdx, idx];
  }
  for (let shift = 0; shift < hiBits; shift += BITS) {
    scatter(keyHi, keyHi, null, idx, outHi, null, outIdx, shift, counts, n);
    [keyHi, outHi] = [outHi, keyHi];
    [idx, outIdx] = [outIdx, idx];
  }
  return idx;
}

/** One stable counting pass on bits [shift, shift + 11) of `digits`, moving keys and rows along. */
function scatter(
  digits: Uint32Array, a: Uint32Array, b: Uint32Array | null, idx: Uint32Array,
  outA: Uint32Array, outB: Uint32Array | null, outIdx: Uint32Array, shift: number, counts: Uint32Array, n: number,
): void {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(digits[i] >>> shift) & (BUCKETS - 1)]++;
  let at = 0;
  for (let d = 0; d < BUCKETS; d++) { const c = counts[d]; counts[d] = at; at += c; }
  if (b === null || outB === null) {
    for (let i = 0; i < n; i++) { const p = counts[(a[i] >>> shift) & (BUCKETS - 1)]++; outA[p] = a[i]; outIdx[p] = idx[i]; }
    return;
  }
  for (let i = 0; i < n; i++) {
    const p = counts[(digits[i] >>> shift) & (BUCKETS - 1)]++;
    outA[p] = a[i];
    outB[p] = b[i];
    outIdx[p] = idx[i];
  }
}

function bitLength(x: number): number {
  return 32 - Math.clz32(x);
}
