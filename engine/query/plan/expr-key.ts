// A structural key of a plan expression: equal for equal expressions whatever their node ids.
// The aggregate collector shares slots and accumulators by it; the fused sum/min/max pass pairs
// accumulators over the same argument by it.
import type { PlanExpr } from './plan-expr.js';

/** A structural key of an expression: equal for equal expressions, whatever their ids. */
export function exprKey(e: PlanExpr): string {
  switch (e.kind) {
    case 'column': return `c${e.index}`;
    case 'const': return `k${e.type}:${e.value instanceof Uint8Array ? [...e.value].join(',') : String(e.value)}`;
    case 'arith': return `(${exprKey(e.left)}${e.op}${exprKey(e.right)})`;
    case 'negate': return `-${exprKey(e.operand)}`;
    case 'shift': return `shift(${exprKey(e.operand)},${e.sign * e.duration.months},${e.sign === 1 ? '' : '-'}${e.duration.nanos})`;
    case 'compare': return `(${exprKey(e.left)}${e.op}${exprKey(e.right)})`;
    case 'regex': return `(${exprKey(e.operand)}${e.isNegated ? '!~' : '~'}${e.regex})`;
    case 'and':
    case 'or': return `(${e.operands.map(exprKey).join(` ${e.kind} `)})`;
    // Sets are not compared by content: two IN lists never share a slot (correct, merely slower).
    case 'in': return `in${e.id}(${exprKey(e.operand)})`;
    case 'not': return `not ${exprKey(e.operand)}`;
    case 'aggregate': return `a${e.slot}`;
    case 'groupKey': return `g${e.slot}`;
    case 'bucket': return 'bucket';
    case 'scalar': return `${e.fn}(${e.args.map(exprKey).join(',')})`;
    case 'sequence': return `s${e.slot}`;
  }
}
