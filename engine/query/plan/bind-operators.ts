// Typing of operators (SPEC §6): arithmetic on numbers and times, comparisons, regex and logic.
// Each function checks operand types (a mismatch is a semantic error at the operator), folds
// constants, and returns the typed node. Nulls fold early: `x + NULL` is NULL, `x = NULL` false.
import { addDuration } from '../../../grammar/index.js';
import type { Duration } from '../../../grammar/index.js';
import { semanticError } from '../query-errors.js';
import { foldArith, foldCompare, foldNegate } from './fold.js';
import type { ArithOp, CompareOp, PlanExpr, Scalar, ValueType } from './plan-expr.js';
import { isBytesType, isNumericType, isTextType } from './plan-expr.js';

export type NewId = () => number;

export function constant(id: number, type: ValueType, value: Scalar, offset: number): PlanExpr {
  return { kind: 'const', id, type, offset, value };
}

/** Result type of `l op r` for numbers and timestamps, or null when the types do not mix. */
function arithType(op: ArithOp, l: ValueType, r: ValueType): ValueType | null {
  if (l === 'timestamp' || r === 'timestamp') {
    if (op === '-' && l === 'timestamp' && r === 'timestamp') return 'int64';
    if ((op === '+' || op === '-') && l === 'timestamp' && (r === 'int64' || r === 'null')) return 'timestamp';
    if (op === '+' && r === 'timestamp' && (l === 'int64' || l === 'null')) return 'timestamp';
    return null;
  }
  if (l === 'double' || r === 'double') return 'double';
  return 'int64';
}

export function bindArith(id: NewId, op: ArithOp, l: PlanExpr, r: PlanExpr, offset: number): PlanExpr {
  const isOk = (t: ValueType): boolean => isNumericType(t) || t === 'null';
  const type = isOk(l.type) && isOk(r.type) ? arithType(op, l.type, r.type) : null;
  if (type === null) throw semanticError(`operator '${op}' cannot combine ${l.type} and ${r.type}`, offset);
  if (l.type === 'null' || r.type === 'null') return constant(id(), type, null, offset);
  if (l.kind === 'const' && r.kind === 'const') return constant(id(), type, foldArith(op, type, l.value, r.value), offset);
  return { kind: 'arith', id: id(), type, offset, op, left: l, right: r };
}

/** `time ± duration`: fixed durations are int64 nanoseconds; calendar months need a shift node. */
export function bindShift(id: NewId, time: PlanExpr, d: Duration, sign: 1 | -1, offset: number): PlanExpr {
  if (time.type === 'null') return constant(id(), 'timestamp', null, offset);
  if (time.type !== 'timestamp') throw semanticError(`a duration can only be added to or subtracted from a time, not ${time.type}`, offset);
  if (d.months === 0) {
    const nanos = constant(id(), 'int64', d.nanos, d.offset);
    return bindArith(id, sign === 1 ? '+' : '-', time, nanos, offset);
  }
  const node: PlanExpr = { kind: 'shift', id: id(), type: 'timestamp', offset, operand: time, duration: d, sign };
  return time.kind === 'const' ? foldShift(id, node, time.value as bigint | null) : node;
}

function foldShift(id: NewId, node: PlanExpr & { kind: 'shift' }, v: bigint | null): PlanExpr {
  if (v === null) return constant(id(), 'timestamp', null, node.offset);
  return constant(id(), 'timestamp', BigInt.asIntN(64, addDuration(v, node.duration, node.sign)), node.offset);
}

export function bindNegate(id: NewId, v: PlanExpr, offset: number): PlanExpr {
  if (v.type === 'null') return v;
  if (v.type !== 'double' && v.type !== 'int64') throw semanticError(`cannot negate a ${v.type}`, offset);
  if (v.kind === 'const') return constant(id(), v.type, foldNegate(v.value), offset);
  return { kind: 'negate', id: id(), type: v.type, offset, operand: v };
}

function isComparable(a: ValueType, b: ValueType): boolean {
  if (isNumericType(a) && isNumericType(b)) return true;
  if (isTextType(a) && isTextType(b)) return true;
  return (a === 'blob' && (b === 'blob' || b === 'string')) || (b === 'blob' && a === 'string');
}

export function bindCompare(id: NewId, op: CompareOp, l: PlanExpr, r: PlanExpr, offset: number): PlanExpr {
  if (l.type === 'null' || r.type === 'null') {
    if (l.type === 'bool' || r.type === 'bool') throw semanticError(`operator '${op}' cannot compare conditions`, offset);
    return constant(id(), 'bool', false, offset);
  }
  if (!isComparable(l.type, r.type)) throw semanticError(`cannot compare ${l.type} with ${r.type}`, offset);
  if (l.kind === 'const' && r.kind === 'const') return constant(id(), 'bool', foldCompare(op, l.value, r.value), offset);
  return { kind: 'compare', id: id(), type: 'bool', offset, op, left: l, right: r };
}

/** `x ~ 'pattern'`: the pattern must be a string literal and a valid JavaScript regex. */
export function bindRegex(id: NewId, op: '~' | '!~' | '~*' | '!~*', v: PlanExpr, pattern: PlanExpr, offset: number): PlanExpr {
  if (v.type !== 'null' && !isBytesType(v.type)) throw semanticError(`regex operator '${op}' needs a string, symbol or blob, not ${v.type}`, offset);
  if (pattern.kind !== 'const' || typeof pattern.value !== 'string') {
    throw semanticError(`the pattern of '${op}' must be a string literal`, pattern.offset);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern.value, op.endsWith('*') ? 'i' : '');
  } catch (e) {
    throw semanticError(`invalid regular expression: ${(e as Error).message}`, pattern.offset);
  }
  const isNegated = op.startsWith('!');
  if (v.type === 'null') return constant(id(), 'bool', false, offset);
  if (v.kind === 'const') return constant(id(), 'bool', regex.test(String(v.value)) !== isNegated, offset);
  return { kind: 'regex', id: id(), type: 'bool', offset, operand: v, regex, isNegated };
}

export function bindLogic(id: NewId, op: 'AND' | 'OR', l: PlanExpr, r: PlanExpr, offset: number): PlanExpr {
  for (const side of [l, r]) {
    if (side.type !== 'bool') throw semanticError(`${op} needs conditions on both sides, not ${side.type}`, side.offset);
  }
  const isAnd = op === 'AND';
  // A constant side decides or drops out: false AND x = false, true AND x = x, and dually for OR.
  for (const [c, other] of [[l, r], [r, l]] as const) {
    if (c.kind !== 'const') continue;
    return c.value === isAnd ? other : constant(id(), 'bool', !isAnd, offset);
  }
  return { kind: isAnd ? 'and' : 'or', id: id(), type: 'bool', offset, left: l, right: r };
}

export function bindNot(id: NewId, v: PlanExpr, offset: number): PlanExpr {
  if (v.type !== 'bool') throw semanticError(`NOT needs a condition, not ${v.type}`, offset);
  if (v.kind === 'const') return constant(id(), 'bool', v.value !== true, offset);
  return { kind: 'not', id: id(), type: 'bool', offset, operand: v };
}
