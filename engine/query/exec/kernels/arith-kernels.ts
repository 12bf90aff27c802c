// Arithmetic over Vecs (SPEC §6): int64 ⊕ int64 → int64 (wrapping, truncating division, ÷ 0 →
// null), anything with a double → double (÷ 0 → NaN, as the spec says, not ±Infinity). Nulls
// propagate. Double loops are plain numbers; int64 arithmetic uses BigInt per row because
// products and quotients need the full width (it never sits on a scan-only path).
import type { ArithOp, PlanExpr } from '../../plan/plan-expr.js';
import type { Frame } from '../scan/frame.js';
import type { Rows, Validity, Vec } from '../../vector/vec.js';
import { isValidAt, setValid, TWO_32 } from '../../vector/vec.js';

type Arith = PlanExpr & { kind: 'arith' };

/** Validity of a result from its inputs' validity (null when every input is fully valid). */
export function combineValidity(id: number, a: Vec, b: Vec | null, frame: Frame, rows: Rows, extra: Validity = null): Validity {
  const va = validityOf(a);
  const vb = b === null ? null : validityOf(b);
  if (va === null && vb === null && extra === null) return null;
  const bits = frame.scratch.bits(id, frame.size);
  const { sel, lo, hi } = rows;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    setValid(bits, i, isValidAt(va, i) && isValidAt(vb, i) && isValidAt(extra, i));
  }
  return bits;
}

function validityOf(v: Vec): Validity {
  return v.kind === 'const' || v.kind === 'list' ? null : v.validity;
}

/** Operand as doubles: an array by position, or a constant. */
export function f64Operand(v: Vec, id: number, frame: Frame, rows: Rows): { arr: Float64Array | null; c: number } {
  switch (v.kind) {
    case 'f64': return { arr: v.values, c: 0 };
    case 'i64': return { arr: i64ToF64(v, id, frame, rows), c: 0 };
    case 'const': return { arr: null, c: typeof v.value === 'bigint' ? Number(v.value) : (v.value as number) };
    default: throw new Error(`planner bug: ${v.kind} in arithmetic`);
  }
}

type RangeLoop = (out: Float64Array, a: Float64Array, b: Float64Array, lo: number, hi: number) => void;
type ConstLoop = (out: Float64Array, a: Float64Array, c: number, lo: number, hi: number) => void;

// Plain ranges (no selection vector) take one small function per operator and operand shape, so
// each loop body is a single operation V8 compiles on its own (about 1 ns a row); the general
// loop below decides the operator and the operand shape at every row.
const RANGE_LOOPS: Readonly<Record<ArithOp, RangeLoop>> = {
  '+': (out, a, b, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] + b[i]; },
  '-': (out, a, b, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] - b[i]; },
  '*': (out, a, b, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] * b[i]; },
  '/': (out, a, b, lo, hi) => { for (let i = lo; i < hi; i++) { const y = b[i]; out[i] = y === 0 ? NaN : a[i] / y; } },
};

/** Array op constant; `isFlipped`: constant op array. */
const CONST_LOOPS: Readonly<Record<ArithOp, readonly [ConstLoop, ConstLoop]>> = {
  '+': [(out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] + c; }, (out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = c + a[i]; }],
  '-': [(out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] - c; }, (out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = c - a[i]; }],
  '*': [(out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = a[i] * c; }, (out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = c * a[i]; }],
  '/': [
    (out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) out[i] = c === 0 ? NaN : a[i] / c; },
    (out, a, c, lo, hi) => { for (let i = lo; i < hi; i++) { const y = a[i]; out[i] = y === 0 ? NaN : c / y; } },
  ],
};

export function arithF64(e: Arith, l: Vec, r: Vec, frame: Frame, rows: Rows): Vec {
  const a = f64Operand(l, e.left.id, frame, rows);
  const b = f64Operand(r, e.right.id, frame, rows);
  const out = frame.scratch.f64(e.id, frame.size);
  const { sel, lo, hi } = rows;
  if (sel === null && (a.arr !== null || b.arr !== null)) {
    if (a.arr !== null && b.arr !== null) RANGE_LOOPS[e.op](out, a.arr, b.arr, lo, hi);
    else if (a.arr !== null) CONST_LOOPS[e.op][0](out, a.arr, b.c, lo, hi);
    else CONST_LOOPS[e.op][1](out, b.arr!, a.c, lo, hi);
    return { kind: 'f64', values: out, validity: combineValidity(e.id, l, r, frame, rows) };
  }
  const aa = a.arr;
  const ba = b.arr;
  const ac = a.c;
  const bc = b.c;
  const op = e.op;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    const x = aa === null ? ac : aa[i];
    const y = ba === null ? bc : ba[i];
    out[i] = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : y === 0 ? NaN : x / y;
  }
  return { kind: 'f64', values: out, validity: combineValidity(e.id, l, r, frame, rows) };
}

export function arithI64(e: Arith, l: Vec, r: Vec, frame: Frame, rows: Rows): Vec {
  const out = frame.scratch.i64(e.id, frame.size);
  const av = l.kind === 'i64' ? l.values : null;
  const bv = r.kind === 'i64' ? r.values : null;
  const ac = l.kind === 'const' ? (l.value as bigint) : 0n;
  const bc = r.kind === 'const' ? (r.value as bigint) : 0n;
  // Division by zero makes a null: collect it as an extra validity mask.
  let zero: Uint8Array | null = null;
  const { sel, lo, hi } = rows;
  const op = e.op;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    const x = av === null ? ac : av[i];
    const y = bv === null ? bc : bv[i];
    if (op === '/') {
      if (y === 0n) {
        zero ??= frame.scratch.bits(-e.id - 1, frame.size).fill(255);
        setValid(zero, i, false);
        continue;
      }
      out.values[i] = x / y;
    } else {
      out.values[i] = op === '+' ? x + y : op === '-' ? x - y : x * y;
    }
  }
  return { kind: 'i64', values: out.values, lo: out.lo, hi: out.hi, validity: combineValidity(e.id, l, r, frame, rows, zero) };
}

export function negate(e: PlanExpr, v: Vec, frame: Frame, rows: Rows): Vec {
  const { sel, lo, hi } = rows;
  if (v.kind === 'f64') {
    const out = frame.scratch.f64(e.id, frame.size);
    for (let k = lo; k < hi; k++) { const i = sel === null ? k : sel[k]; out[i] = -v.values[i]; }
    return { kind: 'f64', values: out, validity: v.validity };
  }
  if (v.kind === 'i64') {
    const out = frame.scratch.i64(e.id, frame.size);
    for (let k = lo; k < hi; k++) { const i = sel === null ? k : sel[k]; out.values[i] = -v.values[i]; }
    return { kind: 'i64', values: out.values, lo: out.lo, hi: out.hi, validity: v.validity };
  }
  throw new Error(`planner bug: negate of ${v.kind}`);
}

/** Values of an int64 Vec at `rows` as doubles, into a scratch buffer (int64 ⊕ double → double). */
export function i64ToF64(v: Vec & { kind: 'i64' }, id: number, frame: Frame, rows: Rows): Float64Array {
  const out = frame.scratch.f64(id, frame.size, 'aux');
  const { sel, lo, hi } = rows;
  const vl = v.lo;
  const vh = v.hi;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    out[i] = vh[(i << 1) | 1] * TWO_32 + vl[i << 1];
  }
  return out;
}
