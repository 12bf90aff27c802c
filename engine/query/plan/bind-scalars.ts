// Typing of scalar function calls (SPEC §6): abs ceil floor round sqrt exp ln log10 pow sign and
// coalesce. Each checks its arguments (a wrong count or type is a semantic error at the call),
// picks the result type and folds constant arguments with the same per-value functions the
// kernels run (vector/scalar-math.ts). A null argument makes a null result, except in coalesce.
import { semanticError } from '../query-errors.js';
import { roundDouble, roundInt64, UNARY_DOUBLE } from '../vector/scalar-math.js';
import type { NewId } from './bind-operators.js';
import { constant } from './bind-operators.js';
import type { ScalarName } from './functions.js';
import type { PlanExpr, Scalar } from './plan-expr.js';
import type { ValueType } from './value-type.js';
import { isTextType } from './value-type.js';

/** Digits `round` accepts: beyond them a double has nothing left to round. */
const MAX_DIGITS = 308;

const ARITY: Readonly<Record<ScalarName, readonly [number, number]>> = {
  abs: [1, 1], ceil: [1, 1], floor: [1, 1], round: [1, 2], sqrt: [1, 1], exp: [1, 1], ln: [1, 1], log10: [1, 1],
  pow: [2, 2], sign: [1, 1], coalesce: [1, Infinity],
};

export function bindScalar(id: NewId, fn: ScalarName, args: readonly PlanExpr[], offset: number): PlanExpr {
  const [min, max] = ARITY[fn];
  if (args.length < min || args.length > max) {
    const count = min === max ? `exactly ${min}` : max === Infinity ? `at least ${min}` : `${min} or ${max}`;
    throw semanticError(`${fn}() takes ${count} argument${min === 1 && max === 1 ? '' : 's'}, not ${args.length}`, offset);
  }
  if (fn === 'coalesce') return bindCoalesce(id, args, offset);
  for (const a of args) {
    if (a.type !== 'null' && a.type !== 'double' && a.type !== 'int64') throw semanticError(`${fn}() needs a number, not ${a.type}`, a.offset);
  }
  const digits = fn === 'round' && args.length === 2 ? roundDigits(args[1]) : 0;
  const x = args[0];
  const isWhole = fn === 'abs' || fn === 'ceil' || fn === 'floor' || fn === 'round' || fn === 'sign';
  const type: ValueType = isWhole && x.type === 'int64' ? 'int64' : 'double';
  if (args.some((a) => a.type === 'null')) return constant(id(), type, null, offset);
  const operands = fn === 'round' ? [x] : args;
  if (operands.every((a) => a.kind === 'const')) {
    return constant(id(), type, scalarValue(fn, type, operands.map((a) => (a as PlanExpr & { kind: 'const' }).value), digits), offset);
  }
  return { kind: 'scalar', id: id(), type, offset, fn, args: fn === 'round' ? [x, constant(id(), 'int64', BigInt(digits), offset)] : args };
}

/** The digits of `round(x, digits)`: a whole constant. */
function roundDigits(d: PlanExpr): number {
  if (d.kind !== 'const' || typeof d.value !== 'bigint') throw semanticError('the digits of round() must be a whole number', d.offset);
  const n = Number(d.value);
  if (Math.abs(n) > MAX_DIGITS) throw semanticError(`the digits of round() must be between -${MAX_DIGITS} and ${MAX_DIGITS}`, d.offset);
  return n;
}

/** One value of a scalar function of non-null constant arguments. */
export function scalarValue(fn: Exclude<ScalarName, 'coalesce'>, type: ValueType, args: readonly Scalar[], digits: number): Scalar {
  const x = args[0];
  if (typeof x === 'bigint' && type === 'int64') {
    switch (fn) {
      case 'abs': return BigInt.asIntN(64, x < 0n ? -x : x);
      case 'sign': return x > 0n ? 1n : x < 0n ? -1n : 0n;
      case 'round': return roundInt64(x, digits);
      default: return x;
    }
  }
  const v = Number(x);
  switch (fn) {
    case 'round': return roundDouble(v, digits);
    case 'pow': return Math.pow(v, Number(args[1]));
    default: return UNARY_DOUBLE[fn](v);
  }
}

/** `coalesce(a, b, …)`: the first non-null argument; the arguments must share a type family. */
function bindCoalesce(id: NewId, args: readonly PlanExpr[], offset: number): PlanExpr {
  const types = args.map((a) => a.type).filter((t) => t !== 'null');
  let type: ValueType = 'null';
  for (const [i, t] of types.entries()) {
    const merged: ValueType | null = i === 0 ? t : commonType(type, t);
    if (merged === null) throw semanticError(`coalesce() cannot mix ${type} and ${t}`, args.find((a) => a.type === t)!.offset);
    type = merged;
  }
  if (type === 'bool') throw semanticError('coalesce() needs values, not conditions', offset);
  // Null arguments never answer; a leading non-null constant answers for every row.
  const kept = args.filter((a) => a.type !== 'null');
  if (kept.length === 0) return constant(id(), 'null', null, offset);
  const firstConst = kept.findIndex((a) => a.kind === 'const');
  const live = firstConst < 0 ? kept : kept.slice(0, firstConst + 1);
  if (live.length === 1 && live[0].kind === 'const') return constant(id(), type, asType(live[0].value, type), offset);
  return { kind: 'scalar', id: id(), type, offset, fn: 'coalesce', args: live };
}

/** The type two coalesce arguments share: int64 and double meet as double, strings and symbols as string. */
function commonType(a: ValueType, b: ValueType): ValueType | null {
  if (a === b) return a;
  if ((a === 'int64' || a === 'double') && (b === 'int64' || b === 'double')) return 'double';
  return isTextType(a) && isTextType(b) ? 'string' : null;
}

function asType(v: Scalar, type: ValueType): Scalar {
  return type === 'double' && typeof v === 'bigint' ? Number(v) : v;
}
