// FILL (SPEC §6): the rows of an aggregate query under GROUP BY duration with every bucket of the
// range present. For each range, the bucket axis runs from the range start's bucket to the last
// bucket before its end (only buckets touching its calendar pieces, when it has filters), or over
// the data's buckets without a range; each GROUP BY key series met in the range gets every
// bucket. A bucket the data left empty gets the bucket start as `$timestamp`, its series' key
// values, and for the other outputs: NULL; a number (numeric columns); PREV, the series' previous
// row; LINEAR, the line through its previous and next rows at the bucket's time (numeric
// columns; int64 in integer arithmetic, truncating, as InfluxDB does). Filling works on the
// output values, after sequence functions ran over the non-empty buckets. The QueryLimit on groups
// counts the filled rows, checked before they are built.
import { addDuration, bucketStart } from '../../../../grammar/index.js';
import type { DurationValue } from '../../../../grammar/index.js';
import { limitError } from '../../limits.js';
import type { Scalar } from '../../plan/plan-expr.js';
import type { AggregatePlan, FillPlan, TablePlan, TimeRange } from '../../plan/plan-types.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Vec } from '../../vector/vec.js';
import { i64Vec, isValidAt, setValid } from '../../vector/vec.js';
import { calendarPieces } from '../scan/calendar-pieces.js';
import type { GroupTable } from '../grouping/group-table.js';

/** The filled rows: times and one Vec per output, addressed by output row. */
export interface FilledRows {
  readonly count: number;
  readonly times: Vec;
  readonly outputs: Vec[];
}

/**
 * `order`: the real groups in natural order (range, bucket, keys); `vecs`: the outputs by group
 * id; `compareKeys` orders key series as GROUP BY does.
 */
export function fillBuckets(
  plan: TablePlan, agg: AggregatePlan, fill: FillPlan, groups: GroupTable, order: Int32Array,
  vecs: readonly Vec[], compareKeys: (a: Scalar[], b: Scalar[]) => number, maxGroups: number,
): FilledRows {
  const d = agg.bucket!;
  const starts = groups.bucketStarts();
  const rangeCount = plan.ranges?.length ?? 1;
  // Per emitted row: the real group (or -1), its bucket start, its series.
  const emitGroup: number[] = [];
  const emitStart: bigint[] = [];
  const emitSeries: number[] = [];
  const seriesKeys: Scalar[][] = [];
  for (let r = 0; r < rangeCount; r++) {
    const inRange = Array.from(order).filter((g) => groups.ranges[g] === r);
    const series = seriesOf(inRange, groups, compareKeys);
    if (series.keys.length === 0 && agg.keys.length > 0) continue;
    const axis = bucketAxis(plan, r, d, inRange.map((g) => starts[g]), maxGroups);
    if (axis.length * Math.max(1, series.keys.length) + emitGroup.length > maxGroups) {
      throw limitError('FILL makes too many groups', 'maxGroups', maxGroups);
    }
    const base = seriesKeys.length;
    const width = Math.max(1, series.keys.length);
    seriesKeys.push(...(series.keys.length === 0 ? [[]] : series.keys));
    // The real groups come in the axis' order (bucket, then key): merge them in.
    let at = 0;
    for (const start of axis) {
      for (let s = 0; s < width; s++) {
        const g = inRange[at];
        const isReal = g !== undefined && starts[g] === start && (series.of.get(g) ?? 0) === s;
        if (isReal) at++;
        emitGroup.push(isReal ? g : -1);
        emitStart.push(start);
        emitSeries.push(base + s);
      }
    }
  }
  const count = emitGroup.length;
  const neighbours = fill.mode === 'linear' || fill.mode === 'prev' ? realNeighbours(emitGroup, emitSeries) : null;
  const times = new BigInt64Array(count);
  for (let k = 0; k < count; k++) times[k] = emitStart[k];
  const outputs = plan.outputs.map((o, i) => {
    const e = o.expr;
    const fillOf = (k: number): Scalar => {
      if (e.kind === 'bucket') return emitStart[k];
      if (e.kind === 'groupKey') return seriesKeys[emitSeries[k]][e.slot] ?? null;
      return fillValue(fill, e.type, vecs[i], emitGroup, emitStart, neighbours, k);
    };
    return buildVec(e.type, count, (k) => (emitGroup[k] >= 0 ? valueAt(vecs[i], emitGroup[k], e.type) : fillOf(k)));
  });
  return { count, times: i64Vec(times, null), outputs };
}

/** The key series of a range's groups, in GROUP BY key order, and each group's series. */
function seriesOf(groups: readonly number[], table: GroupTable, compareKeys: (a: Scalar[], b: Scalar[]) => number): { keys: Scalar[][]; of: Map<number, number> } {
  const of = new Map<number, number>();
  if (table.keys.length === 0) return { keys: [], of };
  const byText = new Map<string, number>();
  const keys: Scalar[][] = [];
  const text = (k: Scalar[]): string => k.map((v) => `${typeof v}:${v instanceof Uint8Array ? v.join(',') : String(v)}`).join('|');
  for (const g of groups) {
    const t = text(table.keys[g]);
    if (!byText.has(t)) { byText.set(t, keys.length); keys.push(table.keys[g]); }
  }
  const sorted = keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a], keys[b]) || a - b);
  const rank = new Map<number, number>(sorted.map((i, k) => [i, k]));
  for (const g of groups) of.set(g, rank.get(byText.get(text(table.keys[g]))!)!);
  return { keys: sorted.map((i) => keys[i]), of };
}

/** The bucket starts of range r in ascending order (refused past `maxGroups`). */
function bucketAxis(plan: TablePlan, r: number, d: DurationValue, dataStarts: readonly bigint[], maxGroups: number): bigint[] {
  const range = plan.ranges?.[r];
  let spans: TimeRange[];
  if (range === undefined) {
    if (dataStarts.length === 0) return [];
    let lo = dataStarts[0];
    let hi = dataStarts[0];
    for (const s of dataStarts) { if (s < lo) lo = s; if (s > hi) hi = s; }
    spans = [{ from: lo, to: hi + 1n }];
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
  return out;
}

function next(start: bigint, d: DurationValue): bigint {
  return d.months === 0 ? start + d.nanos : addDuration(start, d);
}

/** For each emitted row, the emitted rows of the previous and next real groups in its series (-1: none). */
function realNeighbours(emitGroup: readonly number[], emitSeries: readonly number[]): { prev: Int32Array; next: Int32Array } {
  const n = emitGroup.length;
  const prev = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const last = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const p = last.get(emitSeries[k]);
    if (p !== undefined) prev[k] = p;
    if (emitGroup[k] >= 0) last.set(emitSeries[k], k);
  }
  last.clear();
  for (let k = n - 1; k >= 0; k--) {
    const q = last.get(emitSeries[k]);
    if (q !== undefined) next[k] = q;
    if (emitGroup[k] >= 0) last.set(emitSeries[k], k);
  }
  return { prev, next };
}

function isNumber(type: string): boolean {
  return type === 'double' || type === 'int64';
}

/** The value FILL gives an empty bucket's output of type `type`. */
function fillValue(
  fill: FillPlan, type: string, vec: Vec, emitGroup: readonly number[], emitStart: readonly bigint[],
  neighbours: { prev: Int32Array; next: Int32Array } | null, k: number,
): Scalar {
  switch (fill.mode) {
    case 'null': return null;
    case 'value':
      if (!isNumber(type) || fill.value === null) return null;
      return type === 'int64' ? BigInt(fill.value) : Number(fill.value);
    case 'prev': {
      const p = neighbours!.prev[k];
      return p < 0 ? null : valueAt(vec, emitGroup[p], type);
    }
    case 'linear': {
      const p = neighbours!.prev[k];
      const q = neighbours!.next[k];
      if (p < 0 || q < 0 || !isNumber(type)) return null;
      const a = valueAt(vec, emitGroup[p], type);
      const b = valueAt(vec, emitGroup[q], type);
      if (a === null || b === null) return null;
      const dt = emitStart[k] - emitStart[p];
      const span = emitStart[q] - emitStart[p];
      if (typeof a === 'bigint' && typeof b === 'bigint') return BigInt.asIntN(64, a + ((b - a) * dt) / span);
      return (a as number) + (((b as number) - (a as number)) * Number(dt)) / Number(span);
    }
  }
}

/** The value of a group's output (int64 as bigint, double as number). */
function valueAt(vec: Vec, g: number, type: string): Scalar {
  if (vec.kind === 'f64') return isValidAt(vec.validity, g) ? vec.values[g] : null;
  if (vec.kind === 'i64') return isValidAt(vec.validity, g) ? vec.values[g] : null;
  return scalarAt(vec, g, type !== 'blob');
}

/** A Vec of `count` values of `type` by output row. */
function buildVec(type: string, count: number, value: (k: number) => Scalar): Vec {
  const valid = new Uint8Array((count + 7) >> 3);
  if (type === 'double' || type === 'boolean') {
    const out = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const v = value(k);
      if (v !== null) { out[k] = Number(v); setValid(valid, k, true); }
    }
    return { kind: 'f64', values: out, validity: valid };
  }
  if (type === 'int64' || type === 'timestamp') {
    const out = new BigInt64Array(count);
    for (let k = 0; k < count; k++) {
      const v = value(k);
      if (v !== null) { out[k] = v as bigint; setValid(valid, k, true); }
    }
    return i64Vec(out, valid);
  }
  const list: (string | Uint8Array | null)[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const v = value(k);
    list[k] = v === null || typeof v === 'boolean' ? null : typeof v === 'number' || typeof v === 'bigint' ? String(v) : v;
  }
  return { kind: 'list', values: list };
}
