// The last step of every SELECT table: ORDER BY (keeping the operator's order among ties), OFFSET
// and LIMIT over the built columns, then the plain ResultTable (hidden ORDER BY columns dropped,
// `none` for all-null columns).
import type { TablePlan } from '../../plan/plan-types.js';
import type { ResultColumn, ResultTable } from '../../result.js';
import type { ColumnBuilder } from './column-builder.js';
import { sortRows } from './sort-rows.js';

/** `base`: the rows' order before ORDER BY (row order when null); ORDER BY keeps it among ties. */
export function finishTable(plan: TablePlan, times: ColumnBuilder, columns: readonly ColumnBuilder[], base: Int32Array | null = null): ResultTable | null {
  const total = times.length;
  const sorted = plan.orderBy.length === 0 ? base : sortRows(total, plan.orderBy, columns, base);
  const start = Math.min(plan.offset, total);
  const end = plan.limit === null ? total : Math.min(total, start + plan.limit);
  const count = end - start;
  if (count <= 0) return null;
  let order: Int32Array | null = sorted === null ? null : sorted.subarray(start, end);
  if (order === null && start > 0) order = Int32Array.from({ length: count }, (_, k) => start + k);
  const t = times.build(order, count);
  const out: ResultColumn[] = [];
  plan.outputs.forEach((o, i) => {
    if (o.isHidden) return;
    const built = columns[i].build(order, count);
    out.push({ name: o.name, type: built.isAllNull ? 'none' : o.type, values: built.values, nulls: built.nulls });
  });
  return { name: plan.name, rowCount: count, timestamps: t.values as BigInt64Array, timestampNulls: t.nulls, columns: out };
}
