// Normalized text of an expression: the output column name of SPEC §6 (`sum(close)`,
// `(sum(x)/count(x))`). Spacing and redundant parentheses of the query do not matter; every
// binary operation, AND/OR chain, IN list and NOT gets exactly one pair of parentheses, so the text is
// unambiguous and parses back to the same expression.
import type { Expr, Star } from './ast.js';
import { formatDuration } from './duration.js';
import { formatTimestamp } from './time.js';

/** `formatExpr(parseExpr('SUM( close ) / count(x)'))` → `(sum(close)/count(x))`. */
export function formatExpr(e: Expr | Star): string {
  switch (e.kind) {
    case 'Column': return e.name;
    case 'Number': return e.text;
    case 'String': return `'${e.value.replaceAll("'", "''")}'`;
    case 'Null': return 'NULL';
    case 'Boolean': return e.value ? 'true' : 'false';
    case 'TimePoint': return e.base === 'absolute' ? formatTimestamp(e.ns) : e.base;
    case 'Duration': return formatDuration(e);
    case 'Star': return '*';
    case 'Call': return `${e.name}(${e.args.map(formatExpr).join(',')})`;
    case 'Unary': {
      // NOT binds looser than arithmetic, so it keeps its own parentheses: `((NOT a)*b)`.
      if (e.op === 'NOT') return `(NOT ${formatExpr(e.operand)})`;
      const operand = formatExpr(e.operand);
      return operand.startsWith('-') ? `-(${operand})` : `-${operand}`;
    }
    case 'Binary': {
      const right = formatExpr(e.right);
      // `(a--2)` would read as a comment; `(a-(-2))` reads back as the same expression.
      return `(${formatExpr(e.left)}${e.op}${e.op === '-' && right.startsWith('-') ? `(${right})` : right})`;
    }
    case 'Logical': return `(${e.operands.map(formatExpr).join(` ${e.op} `)})`;
    case 'InList': return `(${formatExpr(e.operand)}${e.isNegated ? ' NOT' : ''} IN (${e.values.map(formatExpr).join(',')}))`;
  }
}
