// Sum of x[i] over the rows where x[i] <op> c, and how many rows pass, in one branch-free pass:
// each value is multiplied by the 0/1 outcome of its test (`+(a > c)` is a flag move; a branch
// would mispredict on every other row of random data). Four partial sums break the add-latency
// chain; each value is loaded once (a second column to sum would be a second stream of loads and
// bounds checks, noticeably slower). A ±Infinity or NaN gives 0 × x = NaN when rejected, so a
// NaN sum is not an answer: the caller then takes the exact selection-vector path. One function
// per operator keeps each monomorphic. Results land in `out`: [sum, passing rows].
import type { CompareOp } from '../../plan/plan-expr.js';

export const out = new Float64Array(2);

type Loop = (x: Float64Array, c: number, lo: number, hi: number) => void;

function gt(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a > c), fb = +(b > c), fd = +(d > c), fe = +(e > c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a > c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

function ge(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a >= c), fb = +(b >= c), fd = +(d >= c), fe = +(e >= c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a >= c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

function lt(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a < c), fb = +(b < c), fd = +(d < c), fe = +(e < c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a < c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

function le(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a <= c), fb = +(b <= c), fd = +(d <= c), fe = +(e <= c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a <= c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

function eq(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a === c), fb = +(b === c), fd = +(d === c), fe = +(e === c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a === c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

function ne(x: Float64Array, c: number, lo: number, hi: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = lo;
  for (; i + 3 < hi; i += 4) {
    const a = x[i], b = x[i + 1], d = x[i + 2], e = x[i + 3];
    const fa = +(a !== c), fb = +(b !== c), fd = +(d !== c), fe = +(e !== c);
    s0 += a * fa; s1 += b * fb; s2 += d * fd; s3 += e * fe; n += fa + fb + fd + fe;
  }
  for (; i < hi; i++) { const a = x[i]; const f = +(a !== c); s0 += a * f; n += f; }
  out[0] = (s0 + s1) + (s2 + s3); out[1] = n;
}

export const MASKED_SUM_LOOPS: Readonly<Record<CompareOp, Loop>> = { '=': eq, '!=': ne, '<': lt, '<=': le, '>': gt, '>=': ge };
