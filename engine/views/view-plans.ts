// A view's SELECTs planned against its source as the source is now: the view's own (its rows), and
// that of its partial states' helpers (partials.ts). Planned once, and again when the source grows
// a column (a plan binds columns by position) or is a new table object.
import type { MaterializedView } from '../catalog/materialized-view.js';
import type { Table } from '../storage/table.js';
import type { TablePlan } from '../query/plan/plan-types.js';
import { planView, viewShape } from '../query/plan/plan-view.js';
import type { ViewShape } from '../query/plan/plan-view.js';
import { PartialShape } from './partials.js';

export interface ViewPlans {
  readonly shape: ViewShape;
  /** The partial states of its aggregates, and their SELECT planned. */
  readonly partial: PartialShape;
  readonly partialPlan: TablePlan;
}

const kept = new WeakMap<MaterializedView, { readonly table: Table; readonly width: number; readonly plans: ViewPlans }>();

export function plansOf(view: MaterializedView, source: Table): ViewPlans {
  const hit = kept.get(view);
  if (hit !== undefined && hit.table === source && hit.width === source.columns.length) return hit.plans;
  const shape = viewShape(view.ast, (name) => (name === view.source ? source : undefined));
  const partial = new PartialShape(shape.compute, shape.plan.aggregate!.keys.length);
  const plans: ViewPlans = { shape, partial, partialPlan: planView(partial.select, source) };
  kept.set(view, { table: source, width: source.columns.length, plans });
  return plans;
}
