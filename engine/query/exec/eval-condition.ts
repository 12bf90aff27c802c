// Conditions (WHERE, HAVING) evaluated into selection vectors: each node narrows the rows it is
// given. AND feeds the left result to the right side, so the right side only looks at rows that
// survived; OR merges two ascending position lists; NOT takes the complement. Comparisons with
// null are false (SPEC §6), so `NOT (v > 1)` keeps rows where v is null.
import type { PlanExpr } from '../plan/plan-expr.js';
import { compareRows } from './compare-kernels.js';
import { evalValue } from './eval-value.js';
import type { Frame } from './frame.js';
import { regexRows } from './regex-match.js';
import type { Rows } from './vec.js';

const NONE: Rows = { sel: null, lo: 0, hi: 0 };

export function evalCondition(e: PlanExpr, frame: Frame, rows: Rows): Rows {
  if (rows.hi <= rows.lo) return NONE;
  switch (e.kind) {
    case 'const':
      return e.value === true ? rows : NONE;
    case 'compare': {
      const out = frame.scratch.sel(e.id, frame.size);
      const n = compareRows(e, evalValue(e.left, frame, rows), evalValue(e.right, frame, rows), frame, rows, out);
      return { sel: out, lo: 0, hi: n };
    }
    case 'regex': {
      const out = frame.scratch.sel(e.id, frame.size);
      const n = regexRows(e, evalValue(e.operand, frame, rows), frame, rows, out);
      return { sel: out, lo: 0, hi: n };
    }
    case 'and':
      return evalCondition(e.right, frame, evalCondition(e.left, frame, rows));
    case 'or':
      return union(e.id, evalCondition(e.left, frame, rows), evalCondition(e.right, frame, rows), frame);
    case 'not':
      return complement(e.id, rows, evalCondition(e.operand, frame, rows), frame);
    default:
      throw new Error(`planner bug: ${e.kind} used as a condition`);
  }
}

function union(id: number, a: Rows, b: Rows, frame: Frame): Rows {
  const out = frame.scratch.sel(id, frame.size);
  let i = a.lo;
  let j = b.lo;
  let n = 0;
  while (i < a.hi && j < b.hi) {
    const x = at(a, i);
    const y = at(b, j);
    if (x <= y) { out[n++] = x; i++; if (x === y) j++; } else { out[n++] = y; j++; }
  }
  for (; i < a.hi; i++) out[n++] = at(a, i);
  for (; j < b.hi; j++) out[n++] = at(b, j);
  return { sel: out, lo: 0, hi: n };
}

function complement(id: number, all: Rows, drop: Rows, frame: Frame): Rows {
  const out = frame.scratch.sel(id, frame.size);
  let j = drop.lo;
  let n = 0;
  for (let k = all.lo; k < all.hi; k++) {
    const x = at(all, k);
    if (j < drop.hi && at(drop, j) === x) { j++; continue; }
    out[n++] = x;
  }
  return { sel: out, lo: 0, hi: n };
}

function at(rows: Rows, k: number): number {
  return rows.sel === null ? k : rows.sel[k];
}
