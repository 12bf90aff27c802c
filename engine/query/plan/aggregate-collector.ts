// Collects the aggregate calls of one table plan. Identical calls share a slot (`sum(v)` twice is
// computed once) and calls of one family over the same argument share an accumulator.
import type { AggregateName } from './aggregate-registry.js';
import { AGGREGATES } from './aggregate-registry.js';
import { exprKey } from './expr-key.js';
import type { PlanExpr } from './plan-expr.js';
import type { AccumulatorSpec, AggregateCall } from './plan-types.js';

interface MutableSpec extends AccumulatorSpec {
  readonly names: Set<AggregateName>;
}

export class AggregateCollector {
  readonly calls: AggregateCall[] = [];
  readonly accumulators: MutableSpec[] = [];
  private readonly callSlots = new Map<string, number>();
  private readonly accumulatorSlots = new Map<string, number>();

  /** The slot of `name(arg)`, registering it on first sight. */
  add(name: AggregateName, arg: PlanExpr): number {
    const argKey = exprKey(arg);
    const callKey = `${name}(${argKey})`;
    const known = this.callSlots.get(callKey);
    if (known !== undefined) return known;
    const info = AGGREGATES[name];
    const isMax = name === 'abs_max';
    const accKey = `${info.family}${info.family === 'abs' ? name : ''}(${argKey})`;
    let accumulator = this.accumulatorSlots.get(accKey);
    if (accumulator === undefined) {
      accumulator = this.accumulators.length;
      this.accumulators.push({ family: info.family, arg, argKey, names: new Set(), isMax });
      this.accumulatorSlots.set(accKey, accumulator);
    }
    this.accumulators[accumulator].names.add(name);
    const slot = this.calls.length;
    this.calls.push({ name, accumulator, type: info.result(arg.type), isCount: info.isCount });
    this.callSlots.set(callKey, slot);
    return slot;
  }
}
