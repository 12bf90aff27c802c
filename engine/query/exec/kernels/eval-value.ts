// Vectorized evaluation of value expressions (numbers, strings, timestamps) over a set of rows.
// The result is a Vec addressed by the same positions as the input; constants stay constants
// unless a consumer asks for a materialized Vec (aggregate arguments).
import { addDuration } from '../../../../grammar/index.js';
import type { PlanExpr } from '../../plan/plan-expr.js';
import { arithF64, arithI64, combineValidity, negate } from './arith-kernels.js';
import type { Frame } from '../scan/frame.js';
import { evalScalar } from './scalar-kernels.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt } from '../../vector/vec.js';

export function evalValue(e: PlanExpr, frame: Frame, rows: Rows): Vec {
  switch (e.kind) {
    case 'column': return frame.column(e.index);
    case 'const': return { kind: 'const', value: e.value };
    case 'aggregate': return frame.aggregate(e.slot);
    case 'groupKey': return frame.groupKey(e.slot);
    case 'bucket': return frame.bucket();
    case 'arith': {
      const l = evalValue(e.left, frame, rows);
      const r = evalValue(e.right, frame, rows);
      return e.type === 'double' ? arithF64(e, l, r, frame, rows) : arithI64(e, l, r, frame, rows);
    }
    case 'negate': return negate(e, evalValue(e.operand, frame, rows), frame, rows);
    case 'shift': return shift(e, evalValue(e.operand, frame, rows), frame, rows);
    case 'scalar': return evalScalar(e, e.args.map((a) => evalValue(a, frame, rows)), frame, rows);
    case 'sequence': return frame.sequence(e.slot);
    case 'compare':
    case 'regex':
    case 'and':
    case 'or':
    case 'not':
    case 'in':
      throw new Error(`planner bug: condition ${e.kind} evaluated as a value`);
  }
}

/** Timestamp ± calendar duration, row by row: BigInt month arithmetic is unavoidable here. */
function shift(e: PlanExpr & { kind: 'shift' }, v: Vec, frame: Frame, rows: Rows): Vec {
  if (v.kind !== 'i64') throw new Error('planner bug: shift of a non-timestamp');
  const out = frame.scratch.i64(e.id, frame.size);
  const { sel, lo, hi } = rows;
  for (let k = lo; k < hi; k++) {
    const i = sel === null ? k : sel[k];
    if (isValidAt(v.validity, i)) out.values[i] = BigInt.asIntN(64, addDuration(v.values[i], e.duration, e.sign));
  }
  return { kind: 'i64', values: out.values, lo: out.lo, hi: out.hi, validity: combineValidity(e.id, v, null, frame, rows) };
}

/** A Vec with a value at every position of `rows` (constants spread out), for aggregate inputs. */
export function materialize(e: PlanExpr, v: Vec, frame: Frame, rows: Rows): Vec {
  if (v.kind !== 'const') return v;
  const value = v.value;
  const { sel, lo, hi } = rows;
  const valid = value !== null;
  const bits = valid ? null : frame.scratch.bits(e.id, frame.size).fill(0);
  if (e.type === 'double' || typeof value === 'number') {
    const out = frame.scratch.f64(e.id, frame.size);
    const x = typeof value === 'number' ? value : 0;
    for (let k = lo; k < hi; k++) out[sel === null ? k : sel[k]] = x;
    return { kind: 'f64', values: out, validity: bits };
  }
  if (typeof value === 'bigint' || e.type === 'int64' || e.type === 'timestamp') {
    const out = frame.scratch.i64(e.id, frame.size);
    const x = typeof value === 'bigint' ? value : 0n;
    const xHi = Number(BigInt.asIntN(32, x >> 32n));
    const xLo = Number(BigInt.asUintN(32, x));
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      out.lo[i << 1] = xLo;
      out.hi[(i << 1) | 1] = xHi;
    }
    return { kind: 'i64', values: out.values, lo: out.lo, hi: out.hi, validity: bits };
  }
  const list: (string | Uint8Array | null)[] = new Array(frame.size).fill(null);
  const x = typeof value === 'string' || value instanceof Uint8Array ? value : null;
  for (let k = lo; k < hi; k++) list[sel === null ? k : sel[k]] = x;
  return { kind: 'list', values: list };
}
