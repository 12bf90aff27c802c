// Small questions about AST expressions the planner asks before binding.
import type { Expr, Star } from '../../../grammar/index.js';

/** True when `e` contains a function call (an aggregate) anywhere. */
export function containsCall(e: Expr | Star): boolean {
  switch (e.kind) {
    case 'Call': return true;
    case 'Binary': return containsCall(e.left) || containsCall(e.right);
    case 'Unary': return containsCall(e.operand);
    default: return false;
  }
}

/** True for `count(*)` written as a whole select item. */
export function isCountStar(e: Expr): boolean {
  return e.kind === 'Call' && e.name.toLowerCase() === 'count' && e.args.length === 1 && e.args[0].kind === 'Star';
}
