// FILL (SPEC §6): the rows of an aggregate query under GROUP BY duration with every bucket of the
// range present. For each range, the bucket axis runs from the range start's bucket to the last
// bucket before its end (only buckets touching its calendar pieces, when it has filters), or over
// the data's buckets without a range; each GROUP BY key series met in the range gets every
// bucket. A bucket the data left empty gets the bucket start as `$timestamp`, its series' key
// values, and for the other outputs: NULL; a number (numeric columns); PREV, the series' previous
// row; LINEAR, the line through its previous and next rows at the bucket's time (numeric
// columns; int64 in integer arithmetic, truncating, as InfluxDB does). Filling works on the
// output values, after sequence functions ran over the non-empty buckets. The QueryLimit on groups
// counts the filled rows, checked before they are built. Bucket starts are compared and
// subtracted through their 32-bit halves; a BigInt is made per bucket of the axis only.
import { addDuration, bucketStart } from '../../../../grammar/index.js';
import type { DurationValue } from '../../../../grammar/index.js';
import { limitError } from '../../limits.js';
import type { Scalar } from '../../plan/plan-expr.js';
import type { ValueType } from '../../plan/value-type.js';
import type { AggregatePlan, FillPlan, TablePlan, TimeRange } from '../../plan/plan-types.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Vec } from '../../vector/vec.js';
import { i64Vec, int64Halves, isValidAt, setValid, TWO_32 } from '../../vector/vec.js';
import { calendarPieces } from '../scan/calendar-pieces.js';
import type { GroupTable } from '../grouping/group-table.js';

/** The filled rows: times and one Vec per output, addressed by output row. */
export interface FilledRows {
  readonly count: number;
  readonly times: Vec;
  readonly outputs: Vec[];
}

/** The emitted rows: per row its real group (-1: a filled bucket), its series, and its time. */
interface Emitted {
  readonly count: number;
  readonly group: Int32Array;
  readonly series: Int32Array;
  readonly times: BigInt64Array;
  readonly seriesKeys: readonly Scalar[][];
}

/**
 * `order`: the real groups in natural order (range, bucket, keys); `vecs`: the outputs by group
 * id; `compareKeys` orders key series as GROUP BY does.
 */
export function fillBuckets(
  plan: TablePlan, agg: AggregatePlan, fill: FillPlan, groups: GroupTable, order: Int32Array,
  vecs: readonly Vec[], compareKeys: (a: Scalar[], b: Scalar[]) => number, maxGroups: number,
): FilledRows {
  const rows = emitRows(plan, agg, groups, order, compareKeys, maxGroups);
  const neighbours = fill.mode === 'linear' || fill.mode === 'prev' ? realNeighbours(rows) : null;
  const t = int64Halves(rows.times);
  /** Nanoseconds between emitted rows a and b (exact: buckets of one range are near). */
  const between = (a: number, b: number): number => (t.hi[(b << 1) | 1] - t.hi[(a << 1) | 1]) * TWO_32 + (t.lo[b << 1] - t.lo[a << 1]);
  const outputs = plan.outputs.map((o, i) => {
    const e = o.expr;
    const vec = vecs[i];
    const filled = (k: number): Scalar => {
      if (e.kind === 'bucket') return rows.times[k];
      if (e.kind === 'groupKey') return rows.seriesKeys[rows.series[k]][e.slot] ?? null;
      switch (fill.mode) {
        case 'null': return null;
        case 'value': return !isNumber(e.type) || fill.value === null ? null : e.type === 'int64' ? BigInt(fill.value) : Number(fill.value);
        case 'prev': {
          const p = neighbours!.prev[k];
          return p < 0 ? null : valueAt(vec, rows.group[p], e.type);
        }
        case 'linear': return linear(vec, e.type, rows.group, neighbours!.prev[k], neighbours!.next[k], k, between);
      }
    };
    return buildVec(e.type, rows.count, vec, rows.group, filled);
  });
  return { count: rows.count, times: i64Vec(rows.times, null), outputs };
}

/** Every bucket of every range, per key series, the real groups merged in. */
function emitRows(plan: TablePlan, agg: AggregatePlan, groups: GroupTable, order: Int32Array, compareKeys: (a: Scalar[], b: Scalar[]) => number, maxGroups: number): Emitted {
  const d = agg.bucket!;
  const starts = int64Halves(groups.bucketStarts());
  const rangeCount = plan.ranges?.length ?? 1;
  const parts: { axis: BigInt64Array; width: number; base: number; inRange: Int32Array; series: Int32Array }[] = [];
  const seriesKeys: Scalar[][] = [];
  let total = 0;
  for (let r = 0; r < rangeCount; r++) {
    const inRange = order.filter((g) => groups.ranges[g] === r);
    const series = seriesOf(inRange, groups, compareKeys);
    if (series.keys.length === 0 && agg.keys.length > 0) continue;
    const axis = bucketAxis(plan, r, d, inRange, starts, maxGroups);
    const width = Math.max(1, series.keys.length);
    total += axis.length * width;
    if (total > maxGroups) throw limitError('FILL makes too many groups', 'maxGroups', maxGroups);
    parts.push({ axis, width, base: seriesKeys.length, inRange, series: series.of });
    seriesKeys.push(...(series.keys.length === 0 ? [[]] : series.keys));
  }
  const group = new Int32Array(total);
  const ofSeries = new Int32Array(total);
  const times = new BigInt64Array(total);
  const th = int64Halves(times);
  let k = 0;
  for (const { axis, width, base, inRange, series } of parts) {
    const a = int64Halves(axis);
    // The real groups come in the axis' order (bucket, then key): merged in, compared by halves.
    let at = 0;
    for (let b = 0; b < axis.length; b++) {
      const bh = a.hi[(b << 1) | 1];
      const bl = a.lo[b << 1];
      for (let s = 0; s < width; s++, k++) {
        const g = at < inRange.length ? inRange[at] : -1;
        const isReal = g >= 0 && starts.hi[(g << 1) | 1] === bh && starts.lo[g << 1] === bl && series[at] === s;
        if (isReal) at++;
        group[k] = isReal ? g : -1;
        ofSeries[k] = base + s;
        th.hi[(k << 1) | 1] = bh;
        th.lo[k << 1] = bl;
      }
    }
  }
  return { count: total, group, series: ofSeries, times, seriesKeys };
}

/** The key series of a range's groups in GROUP BY key order, and the series of each group (by place in `groups`). */
function seriesOf(groups: Int32Array, table: GroupTable, compareKeys: (a: Scalar[], b: Scalar[]) => number): { keys: Scalar[][]; of: Int32Array } {
  const of = new Int32Array(groups.length);
  if (table.keys.length === 0) return { keys: [], of };
  const byText = new Map<string, number>();
  const keys: Scalar[][] = [];
  const first: number[] = [];
  const text = (k: Scalar[]): string => k.map((v) => `${typeof v}:${v instanceof Uint8Array ? v.join(',') : String(v)}`).join('|');
  groups.forEach((g, i) => {
    const t = text(table.keys[g]);
    let id = byText.get(t);
    if (id === undefined) { id = keys.length; byText.set(t, id); keys.push(table.keys[g]); }
    first[i] = id;
  });
  const sorted = keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a], keys[b]) || a - b);
  const rank = new Int32Array(keys.length);
  sorted.forEach((id, r) => { rank[id] = r; });
  for (let i = 0; i < groups.length; i++) of[i] = rank[first[i]];
  return { keys: sorted.map((i) => keys[i]), of };
}

/** The bucket starts of range r in ascending order (refused past `maxGroups`). */
function bucketAxis(plan: TablePlan, r: number, d: DurationValue, groups: Int32Array, starts: { lo: Uint32Array; hi: Int32Array }, maxGroups: number): BigInt64Array {
  const range = plan.ranges?.[r];
  let spans: TimeRange[];
  if (range === undefined) {
    if (groups.length === 0) return new BigInt64Array(0);
    // Without a range, from the first to the last bucket of the data (groups come in bucket order).
    const at = (g: number): bigint => BigInt(starts.hi[(g << 1) | 1]) * 4294967296n + BigInt(starts.lo[g << 1]);
    spans = [{ from: at(groups[0]), to: at(groups[groups.length - 1]) + 1n }];
  } else {
    spans = plan.calendar === null ? [range] : calendarPieces(range, plan.calendar, range);
  }
  const out: bigint[] = [];
  for (const span of spans) {
    if (span.from >= span.to) continue;
    let b = bucketStart(span.from, d);
    if (out.length > 0 && b <= out[out.length - 1]) b = next(out[out.length - 1], d);
    for (; b < span.to; b = next(b, d)) {
      if (out.length >= maxGroups) throw limitError('FILL makes too many groups', 'maxGroups', maxGroups);
      out.push(b);
    }
  }
  return BigInt64Array.from(out);
}

function next(start: bigint, d: DurationValue): bigint {
  return d.months === 0 ? start + d.nanos : addDuration(start, d);
}

/** For each emitted row, the emitted rows of the previous and next real groups in its series (-1: none). */
function realNeighbours(rows: Emitted): { prev: Int32Array; next: Int32Array } {
  const n = rows.count;
  const prev = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const last = new Int32Array(rows.seriesKeys.length).fill(-1);
  for (let k = 0; k < n; k++) {
    prev[k] = last[rows.series[k]];
    if (rows.group[k] >= 0) last[rows.series[k]] = k;
  }
  last.fill(-1);
  for (let k = n - 1; k >= 0; k--) {
    next[k] = last[rows.series[k]];
    if (rows.group[k] >= 0) last[rows.series[k]] = k;
  }
  return { prev, next };
}

function isNumber(type: ValueType): boolean {
  return type === 'double' || type === 'int64';
}

/** LINEAR at emitted row k between the real rows p and q of its series. */
function linear(vec: Vec, type: ValueType, group: Int32Array, p: number, q: number, k: number, between: (a: number, b: number) => number): Scalar {
  if (p < 0 || q < 0 || !isNumber(type)) return null;
  const a = valueAt(vec, group[p], type);
  const b = valueAt(vec, group[q], type);
  if (a === null || b === null) return null;
  if (typeof a === 'bigint' && typeof b === 'bigint') return BigInt.asIntN(64, a + ((b - a) * BigInt(between(p, k))) / BigInt(between(p, q)));
  return (a as number) + (((b as number) - (a as number)) * between(p, k)) / between(p, q);
}

/** The value of a group's output (int64 as bigint, double as number). */
function valueAt(vec: Vec, g: number, type: ValueType): Scalar {
  if (vec.kind === 'f64') return isValidAt(vec.validity, g) ? vec.values[g] : null;
  if (vec.kind === 'i64') return isValidAt(vec.validity, g) ? vec.values[g] : null;
  return scalarAt(vec, g, type !== 'blob');
}

/** A Vec of `count` values of `type` by emitted row: a real group's value, else `filled(k)`. */
function buildVec(type: ValueType, count: number, vec: Vec, group: Int32Array, filled: (k: number) => Scalar): Vec {
  const valid = new Uint8Array((count + 7) >> 3);
  if ((type === 'double' || type === 'boolean') && vec.kind === 'f64') {
    const out = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const g = group[k];
      if (g >= 0) {
        out[k] = vec.values[g];
        setValid(valid, k, isValidAt(vec.validity, g));
        continue;
      }
      const v = filled(k);
      if (v !== null) { out[k] = Number(v); setValid(valid, k, true); }
    }
    return { kind: 'f64', values: out, validity: valid };
  }
  if ((type === 'int64' || type === 'timestamp') && vec.kind === 'i64') {
    const out = new BigInt64Array(count);
    const o = int64Halves(out);
    for (let k = 0; k < count; k++) {
      const g = group[k];
      if (g >= 0) {
        o.lo[k << 1] = vec.lo[g << 1];
        o.hi[(k << 1) | 1] = vec.hi[(g << 1) | 1];
        setValid(valid, k, isValidAt(vec.validity, g));
        continue;
      }
      const v = filled(k);
      if (v !== null) { out[k] = v as bigint; setValid(valid, k, true); }
    }
    return i64Vec(out, valid);
  }
  if (type === 'double' || type === 'boolean' || type === 'int64' || type === 'timestamp') return fromScalars(type, count, vec, group, filled);
  // Text and blobs: values as JS scalars.
  const list: (string | Uint8Array | null)[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const v = group[k] >= 0 ? valueAt(vec, group[k], type) : filled(k);
    list[k] = v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint' ? null : v;
  }
  return { kind: 'list', values: list };
}

/** A numeric output whose group Vec is a constant: built value by value. */
function fromScalars(type: ValueType, count: number, vec: Vec, group: Int32Array, filled: (k: number) => Scalar): Vec {
  const valid = new Uint8Array((count + 7) >> 3);
  const isInt = type === 'int64' || type === 'timestamp';
  const f = isInt ? null : new Float64Array(count);
  const n = isInt ? new BigInt64Array(count) : null;
  for (let k = 0; k < count; k++) {
    const v = group[k] >= 0 ? valueAt(vec, group[k], type) : filled(k);
    if (v === null) continue;
    setValid(valid, k, true);
    if (f !== null) f[k] = Number(v);
    else n![k] = v as bigint;
  }
  return f !== null ? { kind: 'f64', values: f, validity: valid } : i64Vec(n!, valid);
}
