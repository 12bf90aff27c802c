// The scalar functions of the query language on one value at a time: the kernels loop over these,
// and constant folding calls them, so a folded `round(2.5)` and a computed one always agree.
// Doubles follow IEEE 754 as JavaScript does (sqrt(-1) = NaN, ln(0) = -Infinity, NaN stays
// NaN); int64 values keep their type where the result is whole (abs, ceil, floor, sign, round).

/** C's round(): to the nearest integer, halves away from zero (Math.round sends -2.5 to -2). */
export function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  // x - t is exact for doubles, so there is no rounding of the half itself.
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

/**
 * `round(x, digits)` of a double: halves away from zero at `digits` decimals (negative: tens,
 * hundreds, …), computed as round(x · 10^d) / 10^d like SQL engines do; where that overflows,
 * x itself (or 0 for a negative `digits`).
 */
export function roundDouble(x: number, digits: number): number {
  if (digits === 0) return roundHalfAway(x);
  if (digits < 0) {
    const m = 10 ** -digits;
    const r = roundHalfAway(x / m) * m;
    return Number.isFinite(r) ? r : 0;
  }
  const m = 10 ** digits;
  const r = roundHalfAway(x * m) / m;
  return Number.isFinite(r) ? r : x;
}

/** `round(x, digits)` of an int64 with digits < 0: to a multiple of 10^-digits, halves away from zero (wrapping). */
export function roundInt64(x: bigint, digits: number): bigint {
  if (digits >= 0) return x;
  if (digits < -18) return 0n;
  const m = 10n ** BigInt(-digits);
  const q = x / m;
  const r = x - q * m;
  const away = 2n * (r < 0n ? -r : r) >= m ? (x < 0n ? -1n : 1n) : 0n;
  return BigInt.asIntN(64, (q + away) * m);
}

/** -1, 0 or 1; NaN stays NaN, and ±0 gives 0. */
export function signOf(x: number): number {
  return x > 0 ? 1 : x < 0 ? -1 : x === 0 ? 0 : NaN;
}

/** The double functions of one argument. */
export const UNARY_DOUBLE: Readonly<Record<'abs' | 'ceil' | 'floor' | 'sqrt' | 'exp' | 'ln' | 'log10' | 'sign', (x: number) => number>> = {
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  sqrt: Math.sqrt,
  exp: Math.exp,
  ln: Math.log,
  log10: Math.log10,
  sign: signOf,
};
