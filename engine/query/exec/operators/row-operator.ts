// Plain SELECT (no aggregate): for each range and batch slice, filter with WHERE into a
// selection vector, evaluate the select list over the surviving rows and append them to the
// output columns. Without ORDER BY, a LIMIT stops the scan once enough rows are kept (the scanned
// count still covers the whole range: it is logical, SPEC §7). Rows and bytes are charged to the
// result budget before they are copied; between batches the run may pause (run-context.ts).
// Row-sequence functions (cumsum, delta, …) run over the kept rows in time order, state carried
// from batch to batch and started over at each range; with GROUP BY columns, per partition, and
// the rows then come out by range, key and time (so LIMIT cannot stop the scan early).
// Streamed (the run's `sink`, engine/transfer/'s export): rows in scan order — no ORDER BY, no
// partitions — are handed to the sink every STREAM_ROWS rows and the builders start over, so a
// result of any size holds one chunk at a time; the result limits then bound a chunk, not the
// whole result.
import type { TablePlan } from '../../plan/plan-types.js';
import type { ResultTable } from '../../result.js';
import { ColumnBuilder } from '../output/column-builder.js';
import { evalCondition } from '../kernels/eval-condition.js';
import { evalValue } from '../kernels/eval-value.js';
import { finishTable } from '../output/finish-table.js';
import { BatchFrame } from '../scan/frame.js';
import { columnsRead, SliceReader } from '../scan/slice-reader.js';
import type { RunContext } from '../run/run-context.js';
import type { Slice } from '../scan/scan-slices.js';
import { rowsIn } from '../scan/scan-slices.js';
import type { Rows, Vec } from '../../vector/vec.js';
import type { RowFrame } from '../scan/chunk.js';
import type { RangeRows } from '../join/join-scan.js';
import { isSlices } from '../join/join-scan.js';
import { PartitionKeys } from '../grouping/partition-keys.js';
import { SequenceRunner } from '../kernels/sequence-kernels.js';
import { compareKeyLists } from '../output/group-output.js';

/** Rows a streamed result hands to its sink at a time. */
export const STREAM_ROWS = 64 * 1024;

/**
 * `scans`: the snapshot's rows of each range of the plan (statements/run-select.ts): batch slices,
 * or an ASOF JOIN's merge.
 */
export async function runRows(plan: TablePlan, ctx: RunContext, scans: readonly RangeRows[]): Promise<ResultTable | null> {
  const { sink } = ctx;
  let times = new ColumnBuilder('timestamp');
  let columns = plan.outputs.map((o) => new ColumnBuilder(o.expr.type));
  const partitions = plan.partition.length === 0 ? null : new PartitionKeys(plan.partition);
  const runner = plan.sequences.length === 0 ? null : new SequenceRunner(plan.sequences);
  const wanted = plan.orderBy.length === 0 && plan.limit !== null && partitions === null ? plan.offset + plan.limit : Infinity;
  const isStreamed = sink !== null && plan.orderBy.length === 0 && partitions === null;
  /** Rows kept and already handed to the sink (streamed). */
  let handedOut = 0;
  const kept = (): number => handedOut + times.length;
  /** With partitions: each kept row's range and partition, for the output order. */
  const rowRanges: number[] = [];
  const rowPartitions: number[] = [];
  // Without WHERE (or join) the row count is known before reading a value: size the columns once.
  if (plan.where === null && scans.every(isSlices)) {
    const rows = Math.min(scans.reduce((n, slices) => n + rowsIn(slices as readonly Slice[]), 0), wanted, isStreamed ? STREAM_ROWS : Infinity);
    ctx.budget.rows(0, rows);
    ColumnBuilder.preallocate([times, ...columns], rows);
  }
  /**
   * Streamed: hands the rows built so far (less those OFFSET skips) to the sink, and starts over
   * with columns sized for a whole chunk, which `feed` fills exactly: a full chunk's arrays are
   * then handed out as they are, never grown or copied.
   */
  const handOut = async (): Promise<void> => {
    const skip = Math.max(0, Math.min(times.length, plan.offset - handedOut));
    const chunk = finishTable({ ...plan, orderBy: [], offset: skip, limit: null }, times, columns);
    handedOut += times.length;
    times = new ColumnBuilder('timestamp');
    columns = plan.outputs.map((o) => new ColumnBuilder(o.expr.type));
    ColumnBuilder.preallocate([times, ...columns], Math.min(STREAM_ROWS, wanted - handedOut));
    ctx.budget.reset();
    if (chunk !== null) await sink!(chunk);
  };
  /** Streamed: takes rows lo..hi of a frame in pieces that fill each chunk to STREAM_ROWS, each full one handed out. */
  const feed = async (frame: RowFrame, lo: number, hi: number, r: number): Promise<void> => {
    while (lo < hi && kept() < wanted) {
      const end = Math.min(hi, lo + STREAM_ROWS - times.length);
      take(frame, { sel: null, lo, hi: end }, r);
      lo = end;
      if (times.length >= STREAM_ROWS) await handOut();
    }
  };
  /** Filters a chunk of rows, runs the sequences over them and appends the kept ones. */
  const take = (frame: RowFrame, all: Rows, r: number): void => {
    let rows = all;
    if (plan.where !== null) rows = evalCondition(plan.where, frame, rows, ctx.deadline);
    const room = wanted - kept();
    if (rows.hi - rows.lo > room) rows = { ...rows, hi: rows.lo + room };
    if (rows.hi <= rows.lo) return;
    if (runner !== null) {
      const ids = partitions === null ? null : partitions.assign(frame, rows);
      runner.run(frame, rows, frame.column(0) as Vec & { kind: 'i64' }, ids, frame.sequences);
      if (ids !== null) {
        for (let j = rows.lo; j < rows.hi; j++) {
          rowRanges.push(r);
          rowPartitions.push(ids[rows.sel === null ? j : rows.sel[j]]);
        }
      }
    }
    const vecs = plan.outputs.map((o) => evalValue(o.expr, frame, rows));
    ctx.budget.rows(times.length, rows.hi - rows.lo);
    ctx.budget.values(vecs, rows);
    times.append(frame.column(0), rows);
    vecs.forEach((v, i) => columns[i].append(v, rows));
  };
  const read = columnsRead(plan, true);
  for (let r = 0; r < scans.length; r++) {
    runner?.reset();
    const scan = scans[r];
    if (!isSlices(scan)) {
      for await (const chunk of scan.chunks(ctx.scratch)) {
        ctx.scannedRowsCount += (chunk.hi - chunk.lo) * plan.referencedColumns;
        if (kept() >= wanted) continue;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        if (isStreamed) await feed(chunk.frame, chunk.lo, chunk.hi, r);
        else take(chunk.frame, { sel: null, lo: chunk.lo, hi: chunk.hi }, r);
      }
      continue;
    }
    const slices = scan;
    const reader = new SliceReader(slices, read, plan.columnTypes, ctx.scratch, () => kept() < wanted);
    try {
      for (let k = 0; k < slices.length; k++) {
        const slice = slices[k];
        ctx.scannedRowsCount += (slice.hi - slice.lo) * plan.referencedColumns;
        if (kept() >= wanted) continue;
        if (ctx.isDue()) await ctx.pause();
        ctx.deadline.check();
        const loaded = reader.frame(k);
        const frame = loaded instanceof BatchFrame ? loaded : await loaded;
        if (isStreamed) await feed(frame, slice.lo, slice.hi, r);
        else take(frame, { sel: null, lo: slice.lo, hi: slice.hi }, r);
      }
    } finally {
      reader.close();
    }
  }
  if (isStreamed) {
    await handOut();
    return null;
  }
  return finishTable(plan, times, columns, partitions === null ? null : partitionOrder(partitions, rowRanges, rowPartitions));
}

/** Row numbers by range, then partition key values (GROUP BY order), then row order. */
function partitionOrder(partitions: PartitionKeys, ranges: readonly number[], ids: readonly number[]): Int32Array {
  const byKey = partitions.keys.map((_, id) => id).sort((a, b) => compareKeyLists(partitions.keys[a], partitions.keys[b]) || a - b);
  const rank = new Int32Array(byKey.length);
  byKey.forEach((id, k) => { rank[id] = k; });
  const order = Array.from(ranges, (_, i) => i);
  order.sort((a, b) => ranges[a] - ranges[b] || rank[ids[a]] - rank[ids[b]] || a - b);
  return Int32Array.from(order);
}
