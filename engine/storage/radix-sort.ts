// Stable sort order of int64 nanosecond timestamps by LSD radix sort: no comparator and no BigInt
// per row. Each int64 is read as its two 32-bit words (little-endian), each word as three digits
// of 11, 11 and 10 bits (the high word with its sign bit flipped, so signed order becomes
// unsigned order). All six histograms are counted in one pass, and a digit that every key
// shares is skipped: timestamps of one insert or one shard share their top bits, so four or
// five scatter passes usually do. LSD passes are stable, so equal timestamps keep their order.

const SHIFTS = [0, 11, 22] as const;
const MASKS = [0x7ff, 0x7ff, 0x3ff] as const;
const BUCKETS = 2048;
const SIGN = 0x80000000;

/** Stable sort order of `ts` (perm[i] = source row of sorted row i), or null when already sorted. */
export function sortPermutation(ts: BigInt64Array): Uint32Array | null {
  const n = ts.length;
  const words = new Uint32Array(ts.buffer, ts.byteOffset, n * 2);
  if (isSorted(words, n)) return null;
  const counts = new Uint32Array(6 * BUCKETS);
  for (let i = 0; i < n; i++) {
    const lo = words[i << 1];
    const hi = (words[(i << 1) | 1] ^ SIGN) >>> 0;
    counts[lo & 0x7ff]++;
    counts[BUCKETS + ((lo >>> 11) & 0x7ff)]++;
    counts[2 * BUCKETS + (lo >>> 22)]++;
    counts[3 * BUCKETS + (hi & 0x7ff)]++;
    counts[4 * BUCKETS + ((hi >>> 11) & 0x7ff)]++;
    counts[5 * BUCKETS + (hi >>> 22)]++;
  }
  let src = new Uint32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let dst = new Uint32Array(n);
  for (let pass = 0; pass < 6; pass++) {
    const base = pass * BUCKETS;
    if (isOneBucket(counts, base, n)) continue;
    // Counts become each bucket's first output position.
    let at = 0;
    for (let b = 0; b < BUCKETS; b++) { const c = counts[base + b]; counts[base + b] = at; at += c; }
    const word = pass < 3 ? 0 : 1;
    const flip = pass < 3 ? 0 : SIGN;
    const shift = SHIFTS[pass % 3];
    const mask = MASKS[pass % 3];
    for (let k = 0; k < n; k++) {
      const i = src[k];
      const d = (((words[(i << 1) | word] ^ flip) >>> shift) & mask) + base;
      dst[counts[d]++] = i;
    }
    const t = src; src = dst; dst = t;
  }
  return src;
}

function isSorted(words: Uint32Array, n: number): boolean {
  for (let i = 1; i < n; i++) {
    const a = (words[((i - 1) << 1) | 1] ^ SIGN) >>> 0;
    const b = (words[(i << 1) | 1] ^ SIGN) >>> 0;
    if (b < a || (b === a && words[i << 1] < words[(i - 1) << 1])) return false;
  }
  return true;
}

function isOneBucket(counts: Uint32Array, base: number, n: number): boolean {
  for (let b = 0; b < BUCKETS; b++) {
    const c = counts[base + b];
    if (c !== 0) return c === n;
  }
  return true;
}
