// Number scanners of the line-protocol parser, over raw bytes: int64 values (timestamps, `i` and
// `u` fields) written straight into the two 32-bit words of a BigInt64Array slot without a BigInt
// per row, and floats by Clinger's fast path (exact: a mantissa below 2^53 times or divided by an
// exact power of ten ≤ 1e22 is one correctly rounded operation), else by parseFloat on the bytes.

const TWO32 = 4294967296;
const TWO53 = 9007199254740992;
const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const ZERO = 48;

/**
 * Writes the integer |x| ≤ 2^53 (sign included) into words[2 * slot] (low) and words[2 * slot + 1]
 * (high), the little-endian halves of a BigInt64Array element.
 */
function storeSafeInt(words: Int32Array, slot: number, x: number): void {
  const hi = Math.floor(x / TWO32);
  words[2 * slot] = (x - hi * TWO32) | 0;
  words[2 * slot + 1] = hi | 0;
}

/**
 * Reads the decimal digits b[s..e) (optionally after one '-') as an int64 times `multiplier`
 * into slot `slot` of `words`. Returns false when the text is not an integer or the value is
 * outside int64 (or, with `unsigned`, a '-' is present or the value is over 2^63 − 1).
 */
export function scanInt64(b: Uint8Array, s: number, e: number, multiplier: number, words: Int32Array, slot: number, unsigned: boolean): boolean {
  let negative = false;
  if (s < e && b[s] === 45 /* - */) {
    if (unsigned) return false;
    negative = true;
    s++;
  }
  const n = e - s;
  if (n === 0 || n > 40) return false;
  // Up to 15 digits are exact in a double; the rest of a 16..19-digit number goes into `low`
  // (its last 9 digits) so that both parts stay exact.
  const split = n > 15 ? e - 9 : e;
  const view = viewOf(b);
  let high = 0;
  let i = s;
  for (; i + 4 <= split; i += 4) {
    const v = fourDigits(view.getUint32(i, true));
    if (v < 0) break;
    high = high * 10000 + v;
  }
  for (; i < split; i++) {
    const d = b[i] - ZERO;
    if (d < 0 || d > 9) return false;
    high = high * 10 + d;
  }
  if (split === e) {
    const x = high * multiplier;
    if (x <= TWO53) {
      storeSafeInt(words, slot, negative ? -x : x);
      return true;
    }
    return storeBig(b, s, e, negative, multiplier, words, slot);
  }
  let low = 0;
  i = split;
  for (; i + 4 <= e; i += 4) {
    const v = fourDigits(view.getUint32(i, true));
    if (v < 0) break;
    low = low * 10000 + v;
  }
  for (; i < e; i++) {
    const d = b[i] - ZERO;
    if (d < 0 || d > 9) return false;
    low = low * 10 + d;
  }
  if (multiplier !== 1 || n > 19) return storeBig(b, s, e, negative, multiplier, words, slot);
  // value = high·1e9 + low with high < 1e10: in int64 unless high·1e9 + low > 2^63 − 1 (+1 when negative).
  if (high > 9223372036 || (high === 9223372036 && low > (negative ? 854775808 : 854775807))) return false;
  const h1 = Math.floor(high / 65536);
  const h1e = h1 * 1e9; // < 2^48
  const r = (high - h1 * 65536) * 1e9 + low; // < 2^47
  let hi = Math.floor(h1e / 65536);
  let lo = (h1e - hi * 65536) * 65536 + r;
  const carry = Math.floor(lo / TWO32);
  hi += carry;
  lo -= carry * TWO32;
  storeWords(words, slot, hi, lo, negative);
  return true;
}

/** Stores the 64-bit magnitude hi·2^32 + lo (0 ≤ lo < 2^32), negated when `negative`. */
function storeWords(words: Int32Array, slot: number, hi: number, lo: number, negative: boolean): void {
  if (negative) {
    // Two's complement of the 64-bit value (hi, lo).
    lo = TWO32 - lo;
    hi = lo === TWO32 ? -hi : ~hi;
    if (lo === TWO32) lo = 0;
  }
  words[2 * slot] = lo | 0;
  words[2 * slot + 1] = hi | 0;
}

/**
 * Stores x·m exactly for an integer |x| ≤ 2^53 and an integer 0 < m < 2^21 (ms → ns: 1e6);
 * false when the product is outside int64.
 */
export function storeScaledInt(words: Int32Array, slot: number, x: number, m: number): boolean {
  const negative = x < 0;
  const ax = negative ? -x : x;
  const xa = Math.floor(ax / TWO32);
  const low = (ax - xa * TWO32) * m; // < 2^53
  const carry = Math.floor(low / TWO32);
  const hi = xa * m + carry;
  const lo = low - carry * TWO32;
  if (hi > 0x7fffffff && !(negative && hi === 0x80000000 && lo === 0)) return false;
  storeWords(words, slot, hi, lo, negative);
  return true;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The rare exact path (a coarse precision times a long number): one BigInt. */
function storeBig(b: Uint8Array, s: number, e: number, negative: boolean, multiplier: number, words: Int32Array, slot: number): boolean {
  let v = BigInt(latin1(b, s, e)) * BigInt(multiplier);
  if (negative) v = -v;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  new BigInt64Array(words.buffer, words.byteOffset, words.length >> 1)[slot] = v;
  return true;
}

/**
 * The float of b[s..e), or NaN when it is not a number of the form `-?digits[.digits][e[+-]digits]`
 * (a leading or trailing '.' allowed, as strconv.ParseFloat does). No NaN or Infinity words.
 */
export function scanFloat(b: Uint8Array, s: number, e: number): number {
  return scanFloatInto(b, s, e) && floatEnd === e ? floatValue[0] : NaN;
}

/** scanFloatInto's value (a typed array slot: no number boxed per value). */
export const floatValue = new Float64Array(1);

/**
 * Where the last scanFloatPrefix stopped: the first byte after the number (its value is NaN
 * when no number starts at s, floatEnd then being meaningless).
 */
export let floatEnd = 0;

/**
 * The float that starts at b[s] and runs at most to e, stopping at the first byte that cannot
 * continue it (floatEnd). NaN when there is no digit, or an 'e' has no exponent digits.
 * Up to 15 significant digits (16 below 2^53) and a power of ten ≤ 22 take Clinger's exact
 * path; up to 19 digits the product or quotient is taken in double-double arithmetic and kept
 * when no rounding boundary is within its error; anything else goes to parseFloat.
 */
export function scanFloatPrefix(b: Uint8Array, s: number, e: number): number {
  return scanFloatInto(b, s, e) ? floatValue[0] : NaN;
}

/** scanFloatPrefix with its value in floatValue[0]; false (and no value) where it gives NaN. */
export function scanFloatInto(b: Uint8Array, s: number, e: number): boolean {
  let i = s;
  let negative = false;
  if (i < e && b[i] === 45) {
    negative = true;
    i++;
  }
  let high = 0; // the first 15 significant digits (exact)
  let low = 0; // the next 4 at most
  let lowDigits = 0;
  let digits = 0; // significant digits in high and low
  let dropped = false; // a non-zero digit past the 19th
  let seen = 0; // digits seen, leading zeros included
  let scale = 0; // power of ten to apply
  const view = viewOf(b);
  for (; i < e; i++) {
    if (digits !== 0 && digits <= 11 && i + 4 <= e) {
      const v = fourDigits(view.getUint32(i, true));
      if (v >= 0) {
        high = high * 10000 + v;
        digits += 4;
        seen += 4;
        i += 3;
        continue;
      }
    }
    const d = b[i] - ZERO;
    if (d < 0 || d > 9) break;
    seen++;
    if (digits !== 0 || d !== 0) {
      if (digits < 15) { high = high * 10 + d; digits++; }
      else if (digits < 19) { low = low * 10 + d; lowDigits++; digits++; }
      else { scale++; if (d !== 0) dropped = true; }
    }
  }
  if (i < e && b[i] === 46 /* . */) {
    for (i++; i < e; i++) {
      if (digits !== 0 && digits <= 11 && i + 4 <= e) {
        const v = fourDigits(view.getUint32(i, true));
        if (v >= 0) {
          high = high * 10000 + v;
          digits += 4;
          seen += 4;
          scale -= 4;
          i += 3;
          continue;
        }
      }
      const d = b[i] - ZERO;
      if (d < 0 || d > 9) break;
      seen++;
      if (digits !== 0 || d !== 0) {
        if (digits < 15) { high = high * 10 + d; digits++; scale--; }
        else if (digits < 19) { low = low * 10 + d; lowDigits++; digits++; scale--; }
        else if (d !== 0) dropped = true;
      } else scale--;
    }
  }
  floatEnd = i;
  if (seen === 0) return false;
  if (i < e && (b[i] | 32) === 101 /* e */) {
    i++;
    let expNegative = false;
    if (i < e && (b[i] === 43 || b[i] === 45)) {
      expNegative = b[i] === 45;
      i++;
    }
    const start = i;
    let exp = 0;
    for (; i < e; i++) {
      const d = b[i] - ZERO;
      if (d < 0 || d > 9) break;
      if (exp < 100000) exp = exp * 10 + d;
    }
    floatEnd = i;
    if (i === start) return false;
    scale += expNegative ? -exp : exp;
  }
  if (digits === 0) {
    floatValue[0] = negative ? -0 : 0;
    return true;
  }
  if (!dropped && scale >= -22 && scale <= 22) {
    // Clinger: an exact mantissa (< 1e15, or 16 digits below 2^53) times or divided by an exact
    // power of ten is one correctly rounded operation.
    const m = lowDigits === 0 ? high : lowDigits === 1 ? high * 10 + low : Infinity;
    if (m < TWO53) { // a sum past 2^53 may round down to it, never below
      const v = scale < 0 ? m / POW10[-scale] : m * POW10[scale];
      floatValue[0] = negative ? -v : v;
      return true;
    }
    if (doubleDouble(high, low, lowDigits, scale)) {
      floatValue[0] = negative ? -ddOut[0] : ddOut[0];
      return true;
    }
  }
  floatValue[0] = Number.parseFloat(latin1(b, s, i));
  return true;
}

let lastBody: Uint8Array | null = null;
let lastView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

/** A DataView of `b` (the last one made is kept: a parser scans one body many times). */
function viewOf(b: Uint8Array): DataView {
  if (b !== lastBody) {
    lastBody = b;
    lastView = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  return lastView;
}

/**
 * The value of four ASCII digits read as a little-endian word (the first digit in the low
 * byte), or -1 when a byte is not a digit: every high nibble 3, and none past 9 (+6 would carry).
 */
function fourDigits(w: number): number {
  if ((w & 0xf0f0f0f0) !== 0x30303030 || ((w + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) return -1;
  let v = w - 0x30303030;
  v = (v & 0x000f000f) * 10 + ((v >>> 8) & 0x000f000f); // d0d1 in the low half, d2d3 in the high
  return (v & 0xffff) * 100 + (v >>> 16);
}

const SPLITTER = 134217729; // 2^27 + 1 (Veltkamp)
const INV_POW10 = POW10.map((p) => 1 / p);
const PHI = 2 ** -53 * (1 + 2 ** -52);
/** doubleDouble's result (a typed array slot: no number boxed per call). */
const ddOut = new Float64Array(1);

/** The exact error of the product a·b (= p rounded): a·b − p (Dekker's TwoProduct). */
function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/**
 * (high·10^lowDigits + low) · 10^scale correctly rounded into ddOut[0]; false when that cannot
 * be decided here (the value is within 2^-90 of it of a halfway point between two doubles).
 */
function doubleDouble(high: number, low: number, lowDigits: number, scale: number): boolean {
  // The mantissa M < 10^19 exactly as mh + ml (integers; ml only the low bits lost by mh).
  const m = high * POW10[lowDigits];
  const me = productError(high, POW10[lowDigits], m);
  const sum = m + low;
  const bv = sum - m;
  const se = (m - (sum - bv)) + (low - bv);
  let mh = sum;
  let ml = me + se;
  const t0 = mh + ml;
  ml -= t0 - mh;
  mh = t0;
  // x = M · 10^scale as qh + ql, relative error below 2^-100.
  let qh: number;
  let ql: number;
  if (scale >= 0) {
    const p = POW10[scale];
    qh = mh * p;
    ql = productError(mh, p, qh) + ml * p;
  } else {
    // Multiplying by 1/p (rounded) instead of dividing: qh within 2 ulps of mh/p keeps
    // mh − qh·p exact (Sterbenz), and ql needs only its first bits.
    const p = POW10[-scale];
    const inverse = INV_POW10[-scale];
    qh = mh * inverse;
    const t = qh * p;
    const te = productError(qh, p, t);
    ql = (((mh - t) - te) + ml) * inverse;
  }
  const r = qh + ql;
  const rest = ql - (r - qh); // qh + ql − r, exactly
  // r is the rounding of x unless x may lie on the other side of a halfway point. r's
  // neighbours by Rump, Zimmermann, Boldo and Melquiond (2009): fl(r ± fl(φ·r)), φ = 2^-53(1 + 2^-52),
  // exact for r > 2^-969 (here r > 1e-23).
  const step = r * PHI;
  const halfUp = ((r + step) - r) / 2;
  const halfDown = (r - (r - step)) / 2;
  const tolerance = r * 8.077935669463161e-28; // 2^-90
  if (rest >= 0 ? halfUp - rest > tolerance : halfDown + rest > tolerance) {
    ddOut[0] = r;
    return true;
  }
  return false;
}

/** The bytes b[s..e) as a latin1 string (no wrapper when `b` already is a Buffer). */
export function latin1(b: Uint8Array, s: number, e: number): string {
  return (b instanceof Buffer ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)).toString('latin1', s, e);
}
