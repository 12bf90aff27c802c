// Constant folding: operations on two constants are computed once at plan time, with exactly the
// semantics of the executor's kernels (so `now - 1h` or `2 + 3` cost nothing per row).
import { compareValues, satisfies } from './value-order.js';
import type { ArithOp, CompareOp, Scalar } from './plan-expr.js';
import type { ValueType } from './value-type.js';

/** `a op b` for non-null constants, in the result type the planner chose. */
export function foldArith(op: ArithOp, type: ValueType, a: Scalar, b: Scalar): Scalar {
  if (type === 'double') {
    const x = Number(a);
    const y = Number(b);
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return x * y;
      case '/': return y === 0 ? NaN : x / y;
    }
  }
  const x = a as bigint;
  const y = b as bigint;
  switch (op) {
    case '+': return BigInt.asIntN(64, x + y);
    case '-': return BigInt.asIntN(64, x - y);
    case '*': return BigInt.asIntN(64, x * y);
    case '/': return y === 0n ? null : BigInt.asIntN(64, x / y);
  }
}

export function foldNegate(v: Scalar): Scalar {
  if (typeof v === 'number') return -v;
  if (typeof v === 'bigint') return BigInt.asIntN(64, -v);
  return null;
}

/** A comparison of constants; null never compares (SPEC §6: comparisons with null are false). */
export function foldCompare(op: CompareOp, a: Scalar, b: Scalar): boolean {
  if (a === null || b === null) return false;
  return satisfies(op, compareValues(a, b));
}
