// Small questions about AST expressions the planner asks before binding.
import type { Expr, Select, Star } from '../../../grammar/index.js';

/** True when `e` contains a call of a function `isWanted` names, anywhere (also inside other calls). */
export function containsCallOf(e: Expr | Star, isWanted: (name: string) => boolean): boolean {
  const walk = (x: Expr | Star): boolean => {
    switch (x.kind) {
      case 'Call': return isWanted(x.name) || x.args.some(walk);
      case 'Binary': return walk(x.left) || walk(x.right);
      case 'Logical': return x.operands.some(walk);
      case 'InList': return walk(x.operand) || x.values.some(walk);
      case 'Unary': return walk(x.operand);
      default: return false;
    }
  };
  return walk(e);
}

/** True for `count(*)` written as a whole select item. */
export function isCountStar(e: Expr): boolean {
  return e.kind === 'Call' && e.name.toLowerCase() === 'count' && e.args.length === 1 && e.args[0].kind === 'Star';
}

/**
 * `e` with every column reference that names an `AS` alias of the select list (and no column of
 * the table) replaced by the aliased expression: `HAVING mean > 1` after `… AS mean`, as MySQL,
 * ClickHouse and DuckDB allow.
 */
export function expandAliases(e: Expr, ast: Select, isColumn: (name: string) => boolean): Expr {
  switch (e.kind) {
    case 'Column': {
      if (isColumn(e.name)) return e;
      const item = ast.columns.find((c) => c.kind === 'SelectColumn' && c.alias === e.name);
      return item?.kind === 'SelectColumn' ? item.expr : e;
    }
    case 'Binary': return { ...e, left: expandAliases(e.left, ast, isColumn), right: expandAliases(e.right, ast, isColumn) };
    case 'Logical': return { ...e, operands: e.operands.map((o) => expandAliases(o, ast, isColumn)) };
    case 'InList': return { ...e, operand: expandAliases(e.operand, ast, isColumn), values: e.values.map((v) => expandAliases(v, ast, isColumn)) };
    case 'Unary': return { ...e, operand: expandAliases(e.operand, ast, isColumn) };
    default: return e;
  }
}

/**
 * The size of a condition: one per comparison, regex, IN value and other leaf test. The planner
 * refuses conditions over QueryLimits.maxConditionTerms before binding them (QueryLimit).
 */
export function conditionTerms(e: Expr): number {
  switch (e.kind) {
    case 'Logical': {
      let n = 0;
      for (const o of e.operands) n += conditionTerms(o);
      return n;
    }
    case 'Unary': return e.op === 'NOT' ? conditionTerms(e.operand) : 1;
    case 'InList': return Math.max(1, e.values.length);
    default: return 1;
  }
}

/**
 * True when `node` (any part of a statement) names a time relative to the query's `now`: `now`,
 * `today`, `yesterday` or `tomorrow`, anywhere — in a range, a condition or a select item.
 * A plan of a statement without one does not depend on when it runs.
 */
export function readsClock(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(readsClock);
  const n = node as { readonly kind?: unknown; readonly base?: unknown };
  if (n.kind === 'TimePoint') return n.base !== 'absolute';
  for (const key in node) if (readsClock((node as Record<string, unknown>)[key])) return true;
  return false;
}
