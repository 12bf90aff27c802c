// Scalar functions over Vecs (plan/bind-scalars.ts types them): one plain-number loop per call
// for doubles, 32-bit halves for int64 (abs, sign) so no BigInt is made per row, and a per-value
// path only where values are text or a rare int64 rounding. Nulls propagate; coalesce takes, at
// each position, the first argument that is not null.
import type { PlanExpr } from '../../plan/plan-expr.js';
import { roundDouble, roundInt64, UNARY_DOUBLE } from '../../vector/scalar-math.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, setValid } from '../../vector/vec.js';
import { combineValidity, f64Operand } from './arith-kernels.js';
import type { Frame } from '../scan/frame.js';

type ScalarCall = PlanExpr & { kind: 'scalar' };

export function evalScalar(e: ScalarCall, args: readonly Vec[], frame: Frame, rows: Rows): Vec {
  if (e.fn === 'coalesce') return coalesce(e, args, frame, rows);
  const x = args[0];
  if (e.type === 'int64' && x.kind === 'i64') return int64Scalar(e, x, frame, rows);
  const out = frame.scratch.f64(e.id, frame.size);
  const a = f64Operand(x, e.args[0].id, frame, rows);
  const { sel, lo, hi } = rows;
  if (e.fn === 'pow') {
    const b = f64Operand(args[1], e.args[1].id, frame, rows);
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      out[i] = Math.pow(a.arr === null ? a.c : a.arr[i], b.arr === null ? b.c : b.arr[i]);
    }
    return { kind: 'f64', values: out, validity: combineValidity(e.id, x, args[1], frame, rows) };
  }
  const f = e.fn === 'round' ? roundTo(digitsOf(e)) : UNARY_DOUBLE[e.fn];
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    out[i] = f(a.arr === null ? a.c : a.arr[i]);
  }
  return { kind: 'f64', values: out, validity: combineValidity(e.id, x, null, frame, rows) };
}

function digitsOf(e: ScalarCall): number {
  const d = e.args[1];
  return d !== undefined && d.kind === 'const' ? Number(d.value) : 0;
}

function roundTo(digits: number): (x: number) => number {
  return (x) => roundDouble(x, digits);
}

/** abs, sign and round of int64 (ceil and floor of an int64 are the value itself). */
function int64Scalar(e: ScalarCall, x: Vec & { kind: 'i64' }, frame: Frame, rows: Rows): Vec {
  const digits = digitsOf(e);
  if (e.fn === 'ceil' || e.fn === 'floor' || (e.fn === 'round' && digits >= 0)) return x;
  const out = frame.scratch.i64(e.id, frame.size);
  const { sel, lo, hi } = rows;
  const xl = x.lo;
  const xh = x.hi;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    const l = xl[i << 1];
    const h = xh[(i << 1) | 1];
    if (e.fn === 'round') {
      out.values[i] = roundInt64(x.values[i], digits);
    } else if (e.fn === 'sign') {
      out.lo[i << 1] = h < 0 ? 0xffffffff : h === 0 && l === 0 ? 0 : 1;
      out.hi[(i << 1) | 1] = h < 0 ? -1 : 0;
    } else if (h < 0) {
      // abs: two's complement negation by halves (INT64_MIN wraps to itself).
      const nl = (~l + 1) >>> 0;
      out.lo[i << 1] = nl;
      out.hi[(i << 1) | 1] = (~h + (nl === 0 ? 1 : 0)) | 0;
    } else {
      out.lo[i << 1] = l;
      out.hi[(i << 1) | 1] = h;
    }
  }
  return { kind: 'i64', values: out.values, lo: out.lo, hi: out.hi, validity: combineValidity(e.id, x, null, frame, rows) };
}

/** The first non-null argument at each position, in the call's type. */
function coalesce(e: ScalarCall, args: readonly Vec[], frame: Frame, rows: Rows): Vec {
  const { sel, lo, hi } = rows;
  const valid = frame.scratch.bits(e.id, frame.size);
  if (e.type === 'double' || e.type === 'boolean' || e.type === 'int64' || e.type === 'timestamp') {
    // Booleans are 0/1 doubles.
    const isDouble = e.type === 'double' || e.type === 'boolean';
    const f = isDouble ? frame.scratch.f64(e.id, frame.size) : null;
    const n = isDouble ? null : frame.scratch.i64(e.id, frame.size);
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      let a = 0;
      while (a < args.length && !hasValue(args[a], i)) a++;
      setValid(valid, i, a < args.length);
      if (a === args.length) continue;
      const v = args[a];
      if (f !== null) f[i] = v.kind === 'f64' ? v.values[i] : Number(scalarAt(v, i, false));
      else if (v.kind === 'i64') { n!.lo[i << 1] = v.lo[i << 1]; n!.hi[(i << 1) | 1] = v.hi[(i << 1) | 1]; }
      else n!.values[i] = scalarAt(v, i, false) as bigint;
    }
    return f !== null ? { kind: 'f64', values: f, validity: valid } : { kind: 'i64', values: n!.values, lo: n!.lo, hi: n!.hi, validity: valid };
  }
  const isText = e.type !== 'blob';
  const list: (string | Uint8Array | null)[] = new Array(frame.size).fill(null);
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    for (const v of args) {
      const value = scalarAt(v, i, isText);
      if (value !== null) { list[i] = value as string | Uint8Array; break; }
    }
  }
  return { kind: 'list', values: list };
}

function hasValue(v: Vec, i: number): boolean {
  switch (v.kind) {
    case 'const': return v.value !== null;
    case 'list': return v.values[i] !== null;
    default: return isValidAt(v.validity, i);
  }
}
