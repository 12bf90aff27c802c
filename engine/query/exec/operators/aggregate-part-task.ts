// A worker thread's side of an aggregate split into parts (aggregate-parts.ts): it plans the
// statement's text again — against the schemas it is given, at the same instant — takes the
// result table's plan, and aggregates its slices of the part with the operator's own code
// (AggregateRun), each slice a range of its own, so each group holds one slice's rows of one
// bucket: the partial the main thread merges in slice order. Batches are read where they lie,
// in shared memory (scan/shared-batch.ts); the groups' states go back transferred.
import { parseCached } from '../../ast-cache.js';
import type { QueryCatalog } from '../../catalog.js';
import { tablesOnlyCatalog } from '../../catalog.js';
import { Deadline } from '../../deadline.js';
import { planSelectCached } from '../../plan/plan-cache.js';
import type { Select } from '../../../../grammar/index.js';
import type { Table } from '../../../storage/table.js';
import type { ColumnDef } from '../../../types.js';
import type { TaskOutput } from '../../../workers/index.js';
import { RunContext } from '../run/run-context.js';
import { BatchFrame } from '../scan/frame.js';
import { SharedBatchView } from '../scan/shared-batch.js';
import { AggregateRun } from './aggregate-run.js';
import type { PartInput, PartSlice, PartState } from './aggregate-parts.js';
import { maxBuckets } from '../grouping/bucket-segments.js';
import type { Slice } from '../scan/scan-slices.js';

/**
 * The tables a worker plans against: their name and columns, all the planner reads of a table
 * (plan/column-scope.ts). One object per schema, so the plan caches (per table object) serve
 * every part of every query over it.
 */
const schemas = new Map<string, Table>();
/** Schemas kept at most: a table whose columns keep changing must not grow the map for ever. */
const MAX_SCHEMAS = 256;

function tableOf(name: string, columns: readonly ColumnDef[]): Table {
  const key = `${name}\u0000${columns.map((c) => `${c.name}\u0001${c.type}`).join('\u0000')}`;
  let table = schemas.get(key);
  if (table === undefined) {
    const stub = { name, columns, columnIndex: (column: string) => columns.findIndex((c) => c.name === column) };
    table = stub as unknown as Table;
    // The oldest goes first (a Map keeps insertion order); its plans are made again if it is asked.
    if (schemas.size >= MAX_SCHEMAS) schemas.delete(schemas.keys().next().value as string);
    schemas.set(key, table);
  }
  return table;
}

function catalogOf(input: PartInput): QueryCatalog {
  return tablesOnlyCatalog(new Map(input.tables.map((t) => [t.name, tableOf(t.name, t.columns)])), 'a worker thread');
}

function aggregatePart(input: PartInput): TaskOutput<PartState> {
  const plan = planSelectCached(parseCached(input.text) as Select, catalogOf(input), input.nowNs, input.limits);
  const t = plan.tables.find((p) => p.name === input.table);
  if (t === undefined || t.aggregate === null) throw new Error(`worker bug: the plan of a part has no aggregate table '${input.table}'`);
  const ctx = new RunContext(new Deadline(input.deadlineMs), input.limits, null, Infinity);
  try {
    // The main thread's group table keeps QueryLimits.maxGroups; a worker's groups are per slice.
    const agg = t.aggregate;
    const run = new AggregateRun(t, agg, ctx, input.isOrdered, Infinity);
    // One group per slice and bucket: sized once.
    let bound = 0;
    for (const s of input.slices) bound += agg.bucket === null ? 1 : maxBuckets([s as PartSlice & Slice], agg.bucket);
    run.groups.reserve(bound);
    input.slices.forEach((s, k) => {
      ctx.deadline.check();
      run.grouper.startRange(k);
      const frame = new BatchFrame(new SharedBatchView(s.batch, t.columnTypes), t.columnTypes, ctx.scratch);
      run.feedBatch(frame, s.lo, s.hi);
    });
    const { bucketHi, bucketLo } = run.groups.halves;
    const partials = run.accumulators.map((a) => a.partial!(run.groups.count));
    const transfer = [bucketHi.buffer as ArrayBuffer, bucketLo.buffer as ArrayBuffer];
    for (const p of partials) for (const v of Object.values(p)) if (ArrayBuffer.isView(v)) transfer.push(v.buffer as ArrayBuffer);
    return { value: { count: run.groups.count, bucketHi, bucketLo, partials }, transfer };
  } finally {
    ctx.close();
  }
}

export const workerTasks = { aggregatePart };
