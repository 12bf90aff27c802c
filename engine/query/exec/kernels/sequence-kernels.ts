// Row-sequence functions (cumsum, moving_average, delta, derivative, non_negative_derivative,
// lag) over positions taken in order: the rows of a plain query in time order, batch after batch,
// or the groups of an aggregate query in bucket order. Each call keeps a small state per
// partition (GROUP BY column values, or a group's range and keys), carried from batch to batch;
// `reset` starts a new range. Windows (moving_average, lag) are rings of the last n values.
// int64 values are added and subtracted through their 32-bit halves: no BigInt per row.
//
// Semantics (SQL window functions over ORDER BY time, which the DuckDB differential test checks):
// - cumsum: the sum of the non-null values so far (null before the first); NaN sticks.
// - moving_average(x, n): the mean of the non-null values among the last n rows (null if none).
// - delta: x minus the previous row's x (null on the first row or when either is null);
//   timestamps give int64 nanoseconds.
// - derivative(x, unit): delta(x) per `unit` of time between the two rows (double; a zero time
//   step gives NaN, as double ÷ 0 does); non_negative_derivative: null where that is negative.
// - lag(x, n): x of the row n rows back (null when there is none).
import type { SequenceSpec } from '../../plan/plan-types.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Scalar } from '../../vector/vec.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, setValid, TWO_32 } from '../../vector/vec.js';
import type { Frame } from '../scan/frame.js';
import { evalValue, materialize } from './eval-value.js';

type I64 = Vec & { kind: 'i64' };

/** The running state of one call in one partition. */
class SequenceState {
  /** Rows seen. */
  count = 0;
  // cumsum: the sum so far (doubles, or int64 by halves) and whether a value was met; the
  // halves also hold the window sums of moving_average over int64.
  hasSum = false;
  sum = 0;
  sumLo = 0;
  sumHi = 0;
  // delta, derivative: the previous row.
  hasPrevious = false;
  isPreviousValid = false;
  previous = 0;
  previousLo = 0;
  previousHi = 0;
  timeLo = 0;
  timeHi = 0;
  // moving_average and lag: the last n values, as a ring.
  ring: Float64Array | null = null;
  ringLo: Uint32Array | null = null;
  ringHi: Int32Array | null = null;
  ringValues: Scalar[] | null = null;
  ringValid: Uint8Array | null = null;
  // moving_average: the window's non-null values: finite sum, counts of NaN and infinities.
  windowSum = 0;
  windowCount = 0;
  windowNaN = 0;
  windowPlusInf = 0;
  windowMinusInf = 0;
  sinceExactSum = 0;
}

export class SequenceRunner {
  /** States by slot, then by partition id. */
  private states: SequenceState[][];

  constructor(private readonly specs: readonly SequenceSpec[]) {
    this.states = specs.map(() => []);
  }

  /** A new range: every sequence starts over. */
  reset(): void {
    this.states = this.specs.map(() => []);
  }

  /**
   * Computes every call over `rows`, taken in their order, into `out` by slot. `times` holds the
   * time of each position (row time or bucket start); `partitions` the partition id of each
   * position (null: one partition).
   */
  run(frame: Frame, rows: Rows, times: I64, partitions: Int32Array | null, out: Vec[]): void {
    for (let s = 0; s < this.specs.length; s++) {
      const spec = this.specs[s];
      const arg = evalValue(spec.arg, frame, rows);
      out[s] = this.compute(s, spec, arg, frame, rows, times, partitions);
    }
  }

  private stateOf(slot: number, partition: number): SequenceState {
    const states = this.states[slot];
    let st = states[partition];
    if (st === undefined) {
      st = new SequenceState();
      states[partition] = st;
    }
    return st;
  }

  private compute(slot: number, spec: SequenceSpec, arg: Vec, frame: Frame, rows: Rows, times: I64, partitions: Int32Array | null): Vec {
    const valid = frame.scratch.bits(spec.id, frame.size);
    if (spec.fn === 'lag' && arg.kind !== 'f64' && arg.kind !== 'i64' && !(arg.kind === 'const' && typeof arg.value !== 'string')) {
      return this.lagValues(slot, spec, arg, frame, rows, partitions);
    }
    const x = materialize(spec.arg, arg, frame, rows);
    const isInt = x.kind === 'i64';
    const outInt = spec.type === 'int64' || spec.type === 'timestamp';
    const f = outInt ? null : frame.scratch.f64(spec.id, frame.size);
    const n = outInt ? frame.scratch.i64(spec.id, frame.size) : null;
    const xf = x.kind === 'f64' ? x.values : null;
    const xl = isInt ? (x as I64).lo : null;
    const xh = isInt ? (x as I64).hi : null;
    const xv = x.kind === 'f64' || x.kind === 'i64' ? x.validity : null;
    const tl = times.lo;
    const th = times.hi;
    const { sel, lo, hi } = rows;
    const fn = spec.fn;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      const st = this.stateOf(slot, partitions === null ? 0 : partitions[i]);
      const isValid = isValidAt(xv, i);
      const vl = xl === null ? 0 : xl[i << 1];
      const vh = xh === null ? 0 : xh[(i << 1) | 1];
      const v = xf !== null ? xf[i] : vh * TWO_32 + vl;
      let ok = false;
      switch (fn) {
        case 'cumsum':
          if (isValid) {
            if (isInt) {
              let sumLo = st.sumLo + vl;
              const carry = sumLo >= TWO_32 ? 1 : 0;
              sumLo -= carry * TWO_32;
              st.sumLo = sumLo;
              st.sumHi = (st.sumHi + vh + carry) | 0;
            } else st.sum += v;
            st.hasSum = true;
          }
          ok = st.hasSum;
          if (ok && n !== null) { n.lo[i << 1] = st.sumLo; n.hi[(i << 1) | 1] = st.sumHi; } else if (ok) f![i] = st.sum;
          break;
        case 'delta':
          ok = isValid && st.hasPrevious && st.isPreviousValid;
          if (ok && n !== null) {
            let dl = vl - st.previousLo;
            const borrow = dl < 0 ? 1 : 0;
            dl += borrow * TWO_32;
            n.lo[i << 1] = dl;
            n.hi[(i << 1) | 1] = (vh - st.previousHi - borrow) | 0;
          } else if (ok) f![i] = v - st.previous;
          remember(st, isValid, v, vl, vh, tl, th, i);
          break;
        case 'derivative':
        case 'non_negative_derivative': {
          ok = isValid && st.hasPrevious && st.isPreviousValid;
          if (ok) {
            const dt = (th[(i << 1) | 1] - st.timeHi) * TWO_32 + (tl[i << 1] - st.timeLo);
            // int64 differences by halves: exact while under 2^53, whatever the values' size.
            const dx = isInt ? (vh - st.previousHi) * TWO_32 + (vl - st.previousLo) : v - st.previous;
            const d = dt === 0 ? NaN : dx / (dt / spec.unitNs);
            ok = fn === 'derivative' || !(d < 0);
            f![i] = d;
          }
          remember(st, isValid, v, vl, vh, tl, th, i);
          break;
        }
        case 'moving_average':
          ok = isInt ? movingAverageInt(st, spec.n, isValid, vl, vh) : movingAverage(st, spec.n, isValid, v);
          if (ok && isInt) { f![i] = (st.sumHi * TWO_32 + st.sumLo) / st.windowCount; break; }
          if (ok) f![i] = st.windowNaN > 0 || (st.windowPlusInf > 0 && st.windowMinusInf > 0) ? NaN
            : st.windowPlusInf > 0 ? Infinity : st.windowMinusInf > 0 ? -Infinity : st.windowSum / st.windowCount;
          break;
        case 'lag':
          ok = lagNumber(st, spec.n, isValid, v, vl, vh, isInt, f, n, i);
          break;
      }
      setValid(valid, i, ok);
      st.count++;
    }
    return n !== null ? { kind: 'i64', values: n.values, lo: n.lo, hi: n.hi, validity: valid } : { kind: 'f64', values: f!, validity: valid };
  }

  /** lag of strings, symbols and blobs: values as JS scalars. */
  private lagValues(slot: number, spec: SequenceSpec, arg: Vec, frame: Frame, rows: Rows, partitions: Int32Array | null): Vec {
    const isText = spec.type !== 'blob';
    const out: (string | Uint8Array | null)[] = new Array(frame.size).fill(null);
    const { sel, lo, hi } = rows;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      const st = this.stateOf(slot, partitions === null ? 0 : partitions[i]);
      const value = scalarAt(arg, i, isText) as string | Uint8Array | null;
      if (spec.n === 0) out[i] = value;
      else {
        const ring = (st.ringValues ??= new Array<Scalar>(spec.n).fill(null));
        const at = st.count % spec.n;
        out[i] = st.count >= spec.n ? (ring[at] as string | Uint8Array | null) : null;
        ring[at] = value;
      }
      st.count++;
    }
    return { kind: 'list', values: out };
  }
}

/** Keeps this row as the previous one of delta and derivative. */
function remember(st: SequenceState, isValid: boolean, v: number, vl: number, vh: number, tl: Uint32Array, th: Int32Array, i: number): void {
  st.hasPrevious = true;
  st.isPreviousValid = isValid;
  st.previous = v;
  st.previousLo = vl;
  st.previousHi = vh;
  st.timeLo = tl[i << 1];
  st.timeHi = th[(i << 1) | 1];
}

/** Pushes a value into the window of the last n rows; true when the window holds a value. */
function movingAverage(st: SequenceState, n: number, isValid: boolean, v: number): boolean {
  const ring = (st.ring ??= new Float64Array(n));
  const flags = (st.ringValid ??= new Uint8Array(n));
  const at = st.count % n;
  if (st.count >= n && flags[at] === 1) account(st, ring[at], -1);
  ring[at] = v;
  flags[at] = isValid ? 1 : 0;
  if (isValid) account(st, v, 1);
  // The running sum drifts by a rounding per update: every n rows it is summed afresh.
  if (++st.sinceExactSum >= n) {
    st.sinceExactSum = 0;
    let sum = 0;
    const filled = Math.min(n, st.count + 1);
    for (let j = 0; j < filled; j++) if (flags[j] === 1 && Number.isFinite(ring[j])) sum += ring[j];
    st.windowSum = sum;
  }
  return st.windowCount > 0;
}

/**
 * moving_average of int64: the window's sum kept exactly as a sum of high halves and a sum of
 * low halves (each under 2^53 for windows up to 2^16 rows), joined once per row.
 */
function movingAverageInt(st: SequenceState, n: number, isValid: boolean, vl: number, vh: number): boolean {
  const rl = (st.ringLo ??= new Uint32Array(n));
  const rh = (st.ringHi ??= new Int32Array(n));
  const flags = (st.ringValid ??= new Uint8Array(n));
  const at = st.count % n;
  if (st.count >= n && flags[at] === 1) {
    st.sumLo -= rl[at];
    st.sumHi -= rh[at];
    st.windowCount--;
  }
  rl[at] = vl;
  rh[at] = vh;
  flags[at] = isValid ? 1 : 0;
  if (isValid) {
    st.sumLo += vl;
    st.sumHi += vh;
    st.windowCount++;
  }
  return st.windowCount > 0;
}

function account(st: SequenceState, v: number, sign: 1 | -1): void {
  st.windowCount += sign;
  if (v !== v) st.windowNaN += sign;
  else if (v === Infinity) st.windowPlusInf += sign;
  else if (v === -Infinity) st.windowMinusInf += sign;
  else st.windowSum += sign * v;
}

/** lag of numbers: the ring holds doubles or int64 halves. */
function lagNumber(
  st: SequenceState, n: number, isValid: boolean, v: number, vl: number, vh: number, isInt: boolean,
  f: Float64Array | null, out: { lo: Uint32Array; hi: Int32Array } | null, i: number,
): boolean {
  if (n === 0) {
    if (out !== null) { out.lo[i << 1] = vl; out.hi[(i << 1) | 1] = vh; } else f![i] = v;
    return isValid;
  }
  const flags = (st.ringValid ??= new Uint8Array(n));
  const at = st.count % n;
  const ok = st.count >= n && flags[at] === 1;
  if (isInt) {
    const rl = (st.ringLo ??= new Uint32Array(n));
    const rh = (st.ringHi ??= new Int32Array(n));
    if (ok) {
      if (out !== null) { out.lo[i << 1] = rl[at]; out.hi[(i << 1) | 1] = rh[at]; } else f![i] = rh[at] * TWO_32 + rl[at];
    }
    rl[at] = vl;
    rh[at] = vh;
  } else {
    const ring = (st.ring ??= new Float64Array(n));
    if (ok) f![i] = ring[at];
    ring[at] = v;
  }
  flags[at] = isValid ? 1 : 0;
  return ok;
}
