// Turns the groups of an aggregate run into result rows: groups in their natural order (range,
// bucket, key values), HAVING, sequence functions over the buckets, the select list evaluated in
// group context, FILL of the empty buckets (fill-buckets.ts), and the row time of SPEC §6 (bucket
// start; the picked row of a lone first/last/min/max/abs_*; else range start).
import type { Accumulator } from '../../aggregates/accumulator.js';
import { scalarResult } from '../../aggregates/accumulator.js';
import type { Scalar } from '../../plan/plan-expr.js';
import type { AggregatePlan, TablePlan } from '../../plan/plan-types.js';
import type { ResultTable } from '../../result.js';
import { ColumnBuilder } from './column-builder.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { evalValue } from '../kernels/eval-value.js';
import { fillBuckets } from './fill-buckets.js';
import { finishTable } from './finish-table.js';
import { GroupFrame } from '../scan/frame.js';
import type { GroupTable } from '../grouping/group-table.js';
import type { RunContext } from '../run/run-context.js';
import { compareValues } from '../../plan/value-order.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { SequenceRunner } from '../kernels/sequence-kernels.js';
import { i64Vec, setValid } from '../../vector/vec.js';

export function finishGroups(plan: TablePlan, agg: AggregatePlan, groups: GroupTable, accumulators: readonly Accumulator[], ctx: RunContext): ResultTable | null {
  const n = groups.count;
  // No group gives no row, unless FILL has buckets to emit anyway (a range without key columns).
  if (n === 0 && (agg.fill === null || plan.ranges === null || agg.keys.length > 0)) return null;
  ctx.deadline.check();
  const finished: (Vec | undefined)[] = [];
  const aggregate = (slot: number): Vec => {
    const call = agg.calls[slot];
    return (finished[slot] ??= accumulators[call.accumulator].finish(call.name, n));
  };
  const keyVecs: (Vec | undefined)[] = [];
  const key = (slot: number): Vec => (keyVecs[slot] ??= scalarResult(agg.keys[slot].type, groups.keys.map((k) => toValue(k[slot])), n));
  let bucketVec: Vec | undefined;
  const bucket = (): Vec => (bucketVec ??= i64Vec(groups.bucketStarts(), null));
  const frame = new GroupFrame(n, ctx.scratch, aggregate, key, bucket);
  const all: Rows = { sel: null, lo: 0, hi: n };

  // Groups are created in their natural order unless GROUP BY columns are involved or the rows
  // were read as stored (late runs not merged).
  let order = agg.keys.length === 0 ? (groups.isCreatedInOrder ? null : groups.naturalOrder(null)) : groups.naturalOrder(compareKeyLists);
  if (agg.having !== null) {
    const pass = evalCondition(agg.having, frame, all, ctx.deadline);
    const isKept = new Uint8Array(n);
    for (let k = pass.lo; k < pass.hi; k++) isKept[pass.sel === null ? k : pass.sel[k]] = 1;
    order = (order ?? groups.naturalOrder(null)).filter((g) => isKept[g] === 1);
  }
  const rows: Rows = order === null ? all : { sel: order, lo: 0, hi: order.length };
  // Sequences over aggregates follow each series (range and key values) bucket by bucket.
  if (plan.sequences.length > 0) {
    new SequenceRunner(plan.sequences).run(frame, rows, bucket() as Vec & { kind: 'i64' }, seriesIds(groups), frame.sequences);
  }
  const vecs = plan.outputs.map((o) => evalValue(o.expr, frame, all));
  if (agg.fill !== null) {
    const filled = fillBuckets(plan, agg, agg.fill, groups, order ?? groups.naturalOrder(null), vecs, compareKeyLists, ctx.limits.maxGroups);
    return filled.count === 0 ? null : buildTable(plan, filled.times, filled.outputs, { sel: null, lo: 0, hi: filled.count }, ctx);
  }
  return buildTable(plan, agg.bucket !== null ? bucket() : rowTimes(plan, agg, groups, accumulators), vecs, rows, ctx);
}

/** The result table of the outputs `vecs` (and row times) at `rows`. */
function buildTable(plan: TablePlan, timeVec: Vec, vecs: readonly Vec[], rows: Rows, ctx: RunContext): ResultTable | null {
  ctx.budget.rows(0, rows.hi - rows.lo);
  ctx.budget.values(vecs, rows);
  const times = new ColumnBuilder('timestamp');
  times.append(timeVec, rows);
  const columns = plan.outputs.map((o, i) => {
    const b = new ColumnBuilder(o.expr.type);
    b.append(vecs[i], rows);
    return b;
  });
  return finishTable(plan, times, columns);
}

/** The series of each group: groups of one range with equal GROUP BY key values share an id. */
function seriesIds(groups: GroupTable): Int32Array {
  const ids = new Int32Array(groups.count);
  const byKey = new Map<string, number>();
  for (let g = 0; g < groups.count; g++) {
    let key = String(groups.ranges[g]);
    for (const v of groups.keys[g] ?? []) key += `|${typeof v}:${v instanceof Uint8Array ? v.join(',') : String(v)}`;
    let id = byKey.get(key);
    if (id === undefined) byKey.set(key, (id = byKey.size));
    ids[g] = id;
  }
  return ids;
}

/** Row times by group id without GROUP BY duration: the picked row's time, or the range start. */
function rowTimes(plan: TablePlan, agg: AggregatePlan, groups: GroupTable, accumulators: readonly Accumulator[]): Vec {
  const n = groups.count;
  const out = new BigInt64Array(n);
  const valid = new Uint8Array((n + 7) >> 3);
  const point = agg.pointCall === null ? null : agg.calls[agg.pointCall];
  for (let g = 0; g < n; g++) {
    const time = (point === null ? null : accumulators[point.accumulator].pointTs(point.name, g))
      ?? (plan.ranges === null ? null : plan.ranges[groups.ranges[g]].from);
    if (time !== null) { out[g] = time; setValid(valid, g, true); }
  }
  return i64Vec(out, valid);
}

/** GROUP BY key order: ascending, NaN after numbers, nulls last. */
export function compareKeyLists(a: Scalar[], b: Scalar[]): number {
  for (let c = 0; c < a.length; c++) {
    const x = a[c];
    const y = b[c];
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
      continue;
    }
    const r = compareValues(x, y);
    if (r === r) { if (r !== 0) return r; continue; }
    const xNaN = x !== x;
    const yNaN = y !== y;
    if (xNaN !== yNaN) return xNaN ? 1 : -1;
  }
  return 0;
}

function toValue(v: Scalar): number | bigint | string | Uint8Array | null {
  return typeof v === 'boolean' ? null : v;
}
