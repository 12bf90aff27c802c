// The hot loops over double columns, one small function per shape (plain range or selection
// vector, with or without nulls). Keeping each shape in its own function keeps every call site
// monomorphic: one function handling all four shapes runs several times slower once V8 has seen
// them all. Results land in `out` (no object per call).
import type { Rows, Validity } from '../vector/vec.js';

/** Results of the last call: sum/count, or min, min position, max, max position. */
export const out = new Float64Array(4);

export function sumF64(x: Float64Array, valid: Validity, rows: Rows): void {
  if (rows.sel === null) {
    if (valid === null) sumRange(x, rows.lo, rows.hi);
    else sumRangeValid(x, valid, rows.lo, rows.hi);
  } else if (valid === null) sumSel(x, rows.sel, rows.lo, rows.hi);
  else sumSelValid(x, valid, rows.sel, rows.lo, rows.hi);
}

function sumRange(x: Float64Array, lo: number, hi: number): void {
  // Four partial sums break the add-latency chain (about 3× faster than one running sum).
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = lo;
  for (; i + 3 < hi; i += 4) { s0 += x[i]; s1 += x[i + 1]; s2 += x[i + 2]; s3 += x[i + 3]; }
  for (; i < hi; i++) s0 += x[i];
  out[0] = (s0 + s1) + (s2 + s3);
  out[1] = hi - lo;
}

function sumRangeValid(x: Float64Array, valid: Uint8Array, lo: number, hi: number): void {
  let s = 0;
  let n = 0;
  for (let i = lo; i < hi; i++) {
    if (((valid[i >> 3] >> (i & 7)) & 1) === 1) { s += x[i]; n++; }
  }
  out[0] = s;
  out[1] = n;
}

function sumSel(x: Float64Array, sel: Int32Array, lo: number, hi: number): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = lo;
  for (; k + 3 < hi; k += 4) { s0 += x[sel[k]]; s1 += x[sel[k + 1]]; s2 += x[sel[k + 2]]; s3 += x[sel[k + 3]]; }
  for (; k < hi; k++) s0 += x[sel[k]];
  out[0] = (s0 + s1) + (s2 + s3);
  out[1] = hi - lo;
}

function sumSelValid(x: Float64Array, valid: Uint8Array, sel: Int32Array, lo: number, hi: number): void {
  let s = 0;
  let n = 0;
  for (let k = lo; k < hi; k++) {
    const i = sel[k];
    if (((valid[i >> 3] >> (i & 7)) & 1) === 1) { s += x[i]; n++; }
  }
  out[0] = s;
  out[1] = n;
}

/** min and max skipping NaN and nulls; positions are -1 when nothing was found. */
export function minMaxF64(x: Float64Array, valid: Validity, rows: Rows): void {
  if (rows.sel === null && valid === null) minMaxRange(x, rows.lo, rows.hi);
  else minMaxGeneral(x, valid, rows.sel, rows.lo, rows.hi);
}

function minMaxRange(x: Float64Array, lo: number, hi: number): void {
  let m = Infinity;
  let M = -Infinity;
  let mi = -1;
  let xi = -1;
  for (let i = lo; i < hi; i++) {
    const v = x[i];
    if (v < m) { m = v; mi = i; }
    if (v > M) { M = v; xi = i; }
  }
  // ±Infinity itself never passes the strict tests: find its first row if it is the extreme.
  if (mi < 0 || xi < 0) minMaxGeneral(x, null, null, lo, hi);
  else { out[0] = m; out[1] = mi; out[2] = M; out[3] = xi; }
}

function minMaxGeneral(x: Float64Array, valid: Validity, sel: Int32Array | null, lo: number, hi: number): void {
  let m = Infinity;
  let M = -Infinity;
  let mi = -1;
  let xi = -1;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    if (valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0) continue;
    const v = x[i];
    if (v < m || (mi < 0 && v === m)) { m = v; mi = i; }
    if (v > M || (xi < 0 && v === M)) { M = v; xi = i; }
  }
  out[0] = m; out[1] = mi; out[2] = M; out[3] = xi;
}
