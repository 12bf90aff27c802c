// Conditions (WHERE, HAVING) evaluated into selection vectors. Scratch memory grows with the
// nesting of a condition, not with its number of terms: each nesting level owns four selection
// buffers, reused by every term at that level, so 10,000 OR terms over 65,536-row batches need
// the buffers of two levels, not 20,000 batch-sized ones.
// - AND narrows: each term looks only at the rows the previous ones kept (ping-pong between the
//   caller's output and one buffer of the level).
// - OR merges each term's rows into the accepted ones; once most rows are accepted, it keeps
//   the rest instead and the later terms look only at that.
// - NOT is the complement of its operand within the input.
// Comparisons with null are false (SPEC §6), so `NOT (v > 1)` keeps rows where v is null. The
// deadline is checked after every term, so a wide condition over a big batch stops in time.
import type { Deadline } from '../../deadline.js';
import type { PlanExpr } from '../../plan/plan-expr.js';
import { compareRows } from './compare-kernels.js';
import { evalValue } from './eval-value.js';
import type { Frame } from '../scan/frame.js';
import { inRows } from './in-kernel.js';
import { regexRows } from './regex-match.js';
import type { Rows } from '../../vector/vec.js';

const NONE: Rows = { sel: null, lo: 0, hi: 0 };

const REGEX_TESTS = 64;

/** Tests a condition makes per row at most: its comparisons, regexes and IN probes. */
export function testsPerRow(e: PlanExpr): number {
  switch (e.kind) {
    case 'and':
    case 'or': {
      let n = 0;
      for (const o of e.operands) n += testsPerRow(o);
      return n;
    }
    case 'not': return testsPerRow(e.operand);
    case 'const': return 0;
    // A regex match costs ~0.5 µs on a short string, a hundred times a compare: weighed so, a
    // slice of rows is still a few ms of work.
    case 'regex': return REGEX_TESTS;
    default: return 1;
  }
}

/** The rows of `rows` where `e` holds; the selection vector is valid until the next call. */
export function evalCondition(e: PlanExpr, frame: Frame, rows: Rows, deadline: Deadline): Rows {
  if (rows.hi <= rows.lo) return NONE;
  if (e.kind === 'const') return e.value === true ? rows : NONE;
  const out = frame.scratch.level(0, 0, frame.size);
  return { sel: out, lo: 0, hi: into(e, frame, rows, out, 1, deadline) };
}

/**
 * Writes the positions of `rows` where `e` holds into `out` (ascending) and returns how many.
 * `out` never aliases `rows.sel`; a node at nesting level `depth` uses only the buffers of that
 * level and passes deeper levels to its operands.
 */
function into(e: PlanExpr, frame: Frame, rows: Rows, out: Int32Array, depth: number, deadline: Deadline): number {
  if (rows.hi <= rows.lo) return 0;
  switch (e.kind) {
    case 'const':
      return e.value === true ? complement(rows, NONE, out) : 0;
    case 'compare':
      return compareRows(e, evalValue(e.left, frame, rows), evalValue(e.right, frame, rows), frame, rows, out);
    case 'regex':
      return regexRows(e, evalValue(e.operand, frame, rows), frame, rows, out, deadline);
    case 'in':
      return inRows(e, evalValue(e.operand, frame, rows), frame, rows, out);
    case 'and':
      return andInto(e.operands, frame, rows, out, depth, deadline);
    case 'or':
      return orInto(e.operands, frame, rows, out, depth, deadline);
    case 'not': {
      const held = frame.scratch.level(depth, 0, frame.size);
      const n = into(e.operand, frame, rows, held, depth + 1, deadline);
      return complement(rows, { sel: held, lo: 0, hi: n }, out);
    }
    default:
      throw new Error(`planner bug: ${e.kind} used as a condition`);
  }
}

function andInto(terms: readonly PlanExpr[], frame: Frame, rows: Rows, out: Int32Array, depth: number, deadline: Deadline): number {
  const temp = frame.scratch.level(depth, 0, frame.size);
  const k = terms.length;
  let current = rows;
  for (let j = 0; j < k; j++) {
    // Alternate so that the last term writes into `out`.
    const target = ((k - 1 - j) & 1) === 0 ? out : temp;
    const n = into(terms[j], frame, current, target, depth + 1, deadline);
    if (n === 0) return 0;
    current = { sel: target, lo: 0, hi: n };
    deadline.check();
  }
  return current.hi;
}

function orInto(terms: readonly PlanExpr[], frame: Frame, rows: Rows, out: Int32Array, depth: number, deadline: Deadline): number {
  const hits = frame.scratch.level(depth, 0, frame.size);
  const bufA = frame.scratch.level(depth, 1, frame.size);
  const bufB = frame.scratch.level(depth, 2, frame.size);
  const restBuf = frame.scratch.level(depth, 3, frame.size);
  const total = rows.hi - rows.lo;
  // While few rows are accepted, each term runs over every row (the kernels' fastest case) and
  // its hits are merged into the accepted ones; once most are, the rest is kept instead and each
  // term runs only over it, so a long OR costs ever less per term.
  let accepted: Rows = { sel: bufA, lo: 0, hi: into(terms[0], frame, rows, bufA, depth + 1, deadline) };
  let rest: Rows | null = null;
  for (let t = 1; t < terms.length; t++) {
    deadline.check();
    // Switching costs one pass; it pays back sooner the more terms remain.
    const remaining = terms.length - t;
    if (rest === null && remaining >= 2 && accepted.hi * (remaining >= 8 ? 4 : 2) > total) {
      rest = { sel: restBuf, lo: 0, hi: complement(rows, accepted, restBuf) };
    }
    if (rest !== null && rest.hi === 0) break;
    const n = into(terms[t], frame, rest ?? rows, hits, depth + 1, deadline);
    if (n === 0) continue;
    const found: Rows = { sel: hits, lo: 0, hi: n };
    if (rest !== null) {
      rest = { sel: restBuf, lo: 0, hi: complement(rest, found, restBuf) };
    } else {
      const target = accepted.sel === bufA ? bufB : bufA;
      accepted = { sel: target, lo: 0, hi: union(accepted, found, target) };
    }
  }
  if (rest !== null) return complement(rows, rest, out);
  out.set(accepted.sel!.subarray(0, accepted.hi));
  return accepted.hi;
}

/** The union of two ascending position lists, into `out`. */
function union(a: Rows, b: Rows, out: Int32Array): number {
  const as = a.sel!;
  const bs = b.sel!;
  let i = a.lo;
  let j = b.lo;
  let n = 0;
  while (i < a.hi && j < b.hi) {
    const x = as[i];
    const y = bs[j];
    if (x <= y) { out[n++] = x; i++; if (x === y) j++; } else { out[n++] = y; j++; }
  }
  for (; i < a.hi; i++) out[n++] = as[i];
  for (; j < b.hi; j++) out[n++] = bs[j];
  return n;
}

/** `all` minus `drop` (ascending positions, `drop` ⊆ `all`) into `out`, which may be `all.sel`
 * itself (it writes at or behind where it reads) but not `drop.sel`. */
function complement(all: Rows, drop: Rows, out: Int32Array): number {
  let j = drop.lo;
  let n = 0;
  const sel = all.sel;
  const dropSel = drop.sel;
  for (let k = all.lo; k < all.hi; k++) {
    const x = sel === null ? k : sel[k];
    if (j < drop.hi && (dropSel === null ? j : dropSel[j]) === x) { j++; continue; }
    out[n++] = x;
  }
  return n;
}
