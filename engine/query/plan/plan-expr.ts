// Immutable, typed expression trees the planner builds from the AST. Row expressions read batch
// columns; group expressions (select lists, HAVING and ORDER BY of an aggregate query) read
// finished aggregates, grouped columns and bucket starts. Per-run buffers live elsewhere (the
// executor's scratch pool, keyed by `id`), so a plan can run many times.
import type { DurationValue } from '../../../grammar/index.js';
import type { Scalar } from '../vector/vec.js';
import type { ScalarName } from './functions.js';
import type { ValueSet } from './value-set.js';
import type { ValueType } from './value-type.js';

/** A single value (defined with the vectors that hold values, a leaf every layer may import). */
export type { Scalar } from '../vector/vec.js';

export type ArithOp = '+' | '-' | '*' | '/';
export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

interface Node {
  /** Unique within one table plan: the key of this node's scratch buffers. */
  readonly id: number;
  readonly type: ValueType;
  /** Offset of the node's first token in the query text. */
  readonly offset: number;
}

export type PlanExpr =
  /** Batch column `index` (0 = `$timestamp`, i+1 = schema column i). */
  | Node & { readonly kind: 'column'; readonly index: number }
  | Node & { readonly kind: 'const'; readonly value: Scalar }
  | Node & { readonly kind: 'arith'; readonly op: ArithOp; readonly left: PlanExpr; readonly right: PlanExpr }
  | Node & { readonly kind: 'negate'; readonly operand: PlanExpr }
  /** A timestamp moved by a duration with calendar months (fixed durations become `arith`). */
  | Node & { readonly kind: 'shift'; readonly operand: PlanExpr; readonly duration: DurationValue; readonly sign: 1 | -1 }
  | Node & { readonly kind: 'compare'; readonly op: CompareOp; readonly left: PlanExpr; readonly right: PlanExpr }
  | Node & { readonly kind: 'regex'; readonly operand: PlanExpr; readonly regex: RegExp; readonly isNegated: boolean }
  /** Two or more conditions, flattened: an operand is never an `and` inside `and` (or `or` in `or`). */
  | Node & { readonly kind: 'and' | 'or'; readonly operands: readonly PlanExpr[] }
  /** `operand [NOT] IN (constants)`: NOT IN keeps rows whose non-null value is in none of them. */
  | Node & { readonly kind: 'in'; readonly operand: PlanExpr; readonly set: ValueSet; readonly isNegated: boolean }
  | Node & { readonly kind: 'not'; readonly operand: PlanExpr }
  /** Group context: the finished value of aggregate call `slot`. */
  | Node & { readonly kind: 'aggregate'; readonly slot: number }
  /** Group context: the value of GROUP BY column `slot`. */
  | Node & { readonly kind: 'groupKey'; readonly slot: number }
  /** Group context: the start of the GROUP BY duration bucket (`$timestamp`). */
  | Node & { readonly kind: 'bucket' }
  /** A scalar function (abs, round, coalesce, …) of its arguments, in row or group context. */
  | Node & { readonly kind: 'scalar'; readonly fn: ScalarName; readonly args: readonly PlanExpr[] }
  /** The value of row-sequence call `slot` (cumsum, delta, …) at each position, computed in order. */
  | Node & { readonly kind: 'sequence'; readonly slot: number };
