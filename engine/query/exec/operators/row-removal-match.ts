// A DELETE's plan as the storage layer applies it (storage/row-removal.ts): the pieces of time it
// covers — its ranges, cut by the calendar filters over the span asked — and its row condition
// evaluated over a batch slice into the rows to remove, with the same kernels and null rules as a
// SELECT's WHERE (exec/kernels/eval-condition.ts), so a DELETE removes exactly the rows the same
// WHERE selects. It runs inside the write's apply, which cannot fail or stop: no deadline.
import type { RowRemoval, TimePiece } from '../../../storage/row-removal.js';
import { Deadline } from '../../deadline.js';
import type { RemovalPlan } from '../../plan/plan-removal.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { Scratch } from '../run/scratch.js';
import { calendarPieces } from '../scan/calendar-pieces.js';
import { BatchFrame } from '../scan/frame.js';

export function rowRemoval(plan: RemovalPlan): RowRemoval {
  const { ranges, calendar, where, columnTypes } = plan;
  const scratch = new Scratch();
  const deadline = new Deadline(Infinity);
  return {
    ranges,
    columns: plan.columns,
    duplicate: plan.duplicate,
    piecesIn(from, to) {
      const out: TimePiece[] = [];
      for (const r of ranges) {
        if (r.to <= from || r.from >= to) continue;
        if (calendar === null) out.push({ from: r.from > from ? r.from : from, to: r.to < to ? r.to : to });
        else out.push(...calendarPieces(r, calendar, { from, to }));
      }
      return out;
    },
    match: where === null ? null : (view, lo, hi, remove) => {
      const rows = evalCondition(where, new BatchFrame(view, columnTypes, scratch), { sel: null, lo, hi }, deadline);
      if (rows.sel === null) remove.fill(1, rows.lo, rows.hi);
      else for (let k = rows.lo; k < rows.hi; k++) remove[rows.sel[k]] = 1;
    },
  };
}
