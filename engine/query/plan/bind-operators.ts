// Typing of operators (SPEC §6): arithmetic on numbers and times, comparisons, regex and logic.
// Each function checks operand types (a mismatch is a semantic error at the operator), folds
// constants, and returns the typed node. Nulls fold early: `x + NULL` is NULL, `x = NULL` false.
import { addDuration } from '../../../grammar/index.js';
import type { Duration } from '../../../grammar/index.js';
import { semanticError } from '../query-errors.js';
import { foldArith, foldCompare, foldNegate } from './fold.js';
import type { ArithOp, CompareOp, PlanExpr, Scalar } from './plan-expr.js';
import type { ValueType } from './value-type.js';
import { isBytesType, isNumericType, isTextType } from './value-type.js';
import { ValueSet } from './value-set.js';
import type { SetOperand } from './value-set.js';
import { compileQueryRegex } from './query-regex.js';

/** How values of an operand type meet an IN set. */
function setOperand(t: ValueType): SetOperand {
  return t === 'double' || t === 'boolean' ? 'double' : t === 'int64' || t === 'timestamp' ? 'int64' : 'text';
}

export type NewId = () => number;

/** First id of the value nodes inside condition terms (see `termValues`). */
const TERM_VALUE_IDS = 1 << 30;

/**
 * The value operands of one condition term (comparison, regex, IN), their nodes renumbered from
 * TERM_VALUE_IDS. Scratch buffers are keyed by node id, and a term's values are consumed before
 * the next term runs, so every term can share the same few buffers: 10,000 terms `v * 2 > k`
 * need one batch-sized buffer, not 10,000. Condition nodes keep their own ids.
 */
function termValues(...operands: PlanExpr[]): PlanExpr[] {
  let next = TERM_VALUE_IDS;
  const walk = (x: PlanExpr): PlanExpr => {
    switch (x.kind) {
      case 'arith': return { ...x, id: next++, left: walk(x.left), right: walk(x.right) };
      case 'negate':
      case 'shift': return { ...x, id: next++, operand: walk(x.operand) };
      case 'scalar': return { ...x, id: next++, args: x.args.map(walk) };
      default: return { ...x, id: next++ };
    }
  };
  return operands.map(walk);
}

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
  if (a === 'boolean' || b === 'boolean') return a === b;
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
  if (l.type === 'boolean' && op !== '=' && op !== '!=') throw semanticError(`booleans compare with = and != only, not '${op}'`, offset);
  if (l.kind === 'const' && r.kind === 'const') return constant(id(), 'bool', foldCompare(op, l.value, r.value), offset);
  const [left, right] = termValues(l, r);
  return { kind: 'compare', id: id(), type: 'bool', offset, op, left, right };
}

/** `x ~ 'pattern'`: the pattern must be a string literal and a JavaScript regex that runs in linear time (query-regex.ts). */
export function bindRegex(id: NewId, op: '~' | '!~' | '~*' | '!~*', v: PlanExpr, pattern: PlanExpr, offset: number): PlanExpr {
  if (v.type !== 'null' && !isBytesType(v.type)) throw semanticError(`regex operator '${op}' needs a string, symbol or blob, not ${v.type}`, offset);
  if (pattern.kind !== 'const' || typeof pattern.value !== 'string') {
    throw semanticError(`the pattern of '${op}' must be a string literal`, pattern.offset);
  }
  let regex: RegExp;
  try {
    regex = compileQueryRegex(pattern.value, op.endsWith('*'));
  } catch (e) {
    throw semanticError(`invalid regular expression: ${(e as Error).message}`, pattern.offset);
  }
  const isNegated = op.startsWith('!');
  if (v.type === 'null') return constant(id(), 'bool', false, offset);
  if (v.kind === 'const') return constant(id(), 'bool', regex.test(String(v.value)) !== isNegated, offset);
  return { kind: 'regex', id: id(), type: 'bool', offset, operand: termValues(v)[0], regex, isNegated };
}

/**
 * AND / OR over any number of conditions, flattened (an `or` operand of an `or` is spliced in).
 * Constants decide or drop out (false AND x = false, true AND x = x, dually for OR), and the
 * equalities of one column with constants in an OR (inequalities in an AND) become one IN set:
 * `v = 1 OR v = 2 OR …` is one hash probe per row, not one pass per term.
 */
export function bindLogic(id: NewId, op: 'AND' | 'OR', parts: readonly PlanExpr[], offset: number): PlanExpr {
  const isAnd = op === 'AND';
  const kind = isAnd ? 'and' : 'or';
  const operands: PlanExpr[] = [];
  for (const p of parts) {
    if (p.type !== 'bool') throw semanticError(`${op} needs conditions on both sides, not ${p.type}`, p.offset);
    if (p.kind === 'const') {
      if (p.value === isAnd) continue;
      return constant(id(), 'bool', !isAnd, offset);
    }
    if (p.kind === kind) for (const o of p.operands) operands.push(o);
    else operands.push(p);
  }
  const merged = mergeMemberships(id, operands, isAnd);
  if (merged.length === 0) return constant(id(), 'bool', isAnd, offset);
  if (merged.length === 1) return merged[0];
  return { kind, id: id(), type: 'bool', offset, operands: merged };
}

/** `col = c` (in an OR) or `col != c` (in an AND) with a non-null constant: the column node and c. */
function membershipTerm(e: PlanExpr, isAnd: boolean): { column: PlanExpr & { kind: 'column' }; value: Scalar } | null {
  if (e.kind !== 'compare' || e.op !== (isAnd ? '!=' : '=')) return null;
  const [c, k] = e.left.kind === 'column' ? [e.left, e.right] : [e.right, e.left];
  if (c.kind !== 'column' || k.kind !== 'const' || k.value === null) return null;
  return { column: c, value: k.value };
}

/** Replaces two or more membership terms on one column by one `in` node, at the first one's place. */
function mergeMemberships(id: NewId, operands: PlanExpr[], isAnd: boolean): PlanExpr[] {
  const byColumn = new Map<number, number>();
  for (const o of operands) {
    const t = membershipTerm(o, isAnd);
    if (t !== null) byColumn.set(t.column.index, (byColumn.get(t.column.index) ?? 0) + 1);
  }
  if (![...byColumn.values()].some((n) => n > 1)) return operands;
  const out: PlanExpr[] = [];
  const values = new Map<number, { at: number; column: PlanExpr; values: Scalar[] }>();
  for (const o of operands) {
    const t = membershipTerm(o, isAnd);
    if (t === null || byColumn.get(t.column.index)! < 2) { out.push(o); continue; }
    let group = values.get(t.column.index);
    if (group === undefined) {
      group = { at: out.length, column: t.column, values: [] };
      values.set(t.column.index, group);
      out.push(o);
    }
    group.values.push(t.value);
  }
  for (const g of values.values()) {
    const set = new ValueSet(setOperand(g.column.type), g.values);
    out[g.at] = { kind: 'in', id: id(), type: 'bool', offset: out[g.at].offset, operand: termValues(g.column)[0], set, isNegated: isAnd };
  }
  return out;
}

/**
 * `x [NOT] IN (values)`: `x = v1 OR x = v2 …` (NOT IN: `x != v1 AND …`). Constant values go into
 * one hash set; other values stay comparisons. A NULL value matches nothing, so it makes NOT IN
 * false for every row and drops out of IN.
 */
export function bindIn(id: NewId, operand: PlanExpr, values: readonly PlanExpr[], isNegated: boolean, offset: number): PlanExpr {
  const op = isNegated ? '!=' : '=';
  const constants: Scalar[] = [];
  const others: PlanExpr[] = [];
  for (const v of values) {
    if (v.type === 'bool' || operand.type === 'bool') throw semanticError(`IN cannot compare conditions`, v.offset);
    if (v.type !== 'null' && operand.type !== 'null' && !isComparable(operand.type, v.type)) {
      throw semanticError(`cannot compare ${operand.type} with ${v.type}`, v.offset);
    }
    if (v.kind === 'const' && v.value !== null && operand.kind !== 'const') constants.push(v.value);
    else others.push(bindCompare(id, op, operand, v, v.offset));
  }
  const parts = [...others];
  if (constants.length > 0) {
    const set = new ValueSet(setOperand(operand.type), constants);
    parts.push({ kind: 'in', id: id(), type: 'bool', offset, operand: termValues(operand)[0], set, isNegated });
  }
  return bindLogic(id, isNegated ? 'AND' : 'OR', parts, offset);
}

export function bindNot(id: NewId, v: PlanExpr, offset: number): PlanExpr {
  if (v.type !== 'bool') throw semanticError(`NOT needs a condition, not ${v.type}`, offset);
  if (v.kind === 'const') return constant(id(), 'bool', v.value !== true, offset);
  return { kind: 'not', id: id(), type: 'bool', offset, operand: v };
}
