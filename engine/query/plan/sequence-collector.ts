// Collects the row-sequence calls of one table plan (cumsum(v), derivative(max(c), 1min), …).
// Identical calls share a slot, so `cumsum(v)` written twice is computed once and its state
// advances once per row.
import { exprKey } from './expr-key.js';
import type { SequenceFn } from './functions.js';
import type { PlanExpr } from './plan-expr.js';
import type { ValueType } from './value-type.js';
import type { SequenceSpec } from './plan-types.js';

export class SequenceCollector {
  readonly specs: SequenceSpec[] = [];
  private readonly slots = new Map<string, number>();

  /** The slot of `fn(arg)` with its parameters, registering it on first sight. */
  add(fn: SequenceFn, arg: PlanExpr, type: ValueType, n: number, unitNs: number, id: number): number {
    const key = `${fn}(${exprKey(arg)},${n},${unitNs})`;
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    this.specs.push({ fn, arg, type, n, unitNs, id });
    this.slots.set(key, this.specs.length - 1);
    return this.specs.length - 1;
  }
}
