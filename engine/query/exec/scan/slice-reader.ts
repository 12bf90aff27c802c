// How operators reach the data of a scan's slices: slice by slice, each with the columns the plan
// reads made resident and pinned while the operator is on it. Batches evicted from memory are read
// back from their checkpoint file, only those columns; while the operator computes one slice, the
// next slices that will be read are read back too (PREFETCH ahead), so the disk and the CPU work
// at once. At most PREFETCH + 1 slices are pinned: a scan never holds the whole table. A slice
// the operator answers from statistics is never loaded (`isRead` tells the prefetch which).
// A scan that would read back more than a quarter of the budget reads through a ring of buffers
// it reuses (memory/read-ring.ts): what it reads back is not cached, and evicts nothing.
// Resident slices take no await: frame() then returns the frame itself, not a promise.
import { ReadRing } from '../../../memory/index.js';
import type { ColumnType } from '../../../types.js';
import type { Scratch } from '../run/scratch.js';
import { BatchFrame } from './frame.js';
import type { Slice } from './scan-slices.js';

/** Slices read back ahead of the one the operator is on. */
const PREFETCH = 4;
/** How far ahead the read-ahead looks past slices answered from statistics. */
const LOOKAHEAD = 64;

export class SliceReader {
  /** Per slice started (pinned): its load, null when it was resident. */
  private readonly started = new Map<number, Promise<void> | null>();
  /** Slices before this one are released. */
  private releasedTo = 0;
  /**
   * The ring read-backs go to (a large scan), null when they are cached; undefined until the
   * first slice to read back (a scan of resident data never looks).
   */
  private ring: ReadRing | null | undefined = undefined;

  constructor(
    private readonly slices: readonly Slice[],
    /** Batch columns the operator reads (0 = `$timestamp`). */
    private readonly columns: readonly number[],
    private readonly types: readonly ColumnType[],
    private readonly scratch: Scratch,
    /** Whether the operator will read slice k's data (false: answered from statistics). */
    private readonly isRead: (k: number) => boolean = () => true,
  ) {}

  /**
   * Slice k's frame, its columns resident and pinned until the reader moves past k: slices
   * before k are released, and the next ones the operator will read start loading.
   */
  frame(k: number): BatchFrame | Promise<BatchFrame> {
    for (; this.releasedTo < k; this.releasedTo++) this.release(this.releasedTo);
    const loading = this.start(k);
    const end = Math.min(this.slices.length, k + 1 + LOOKAHEAD);
    for (let j = k + 1, ahead = 0; j < end && ahead < PREFETCH; j++) {
      if (!this.isRead(j)) continue;
      this.start(j);
      ahead++;
    }
    const frame = () => new BatchFrame(this.slices[k].view, this.types, this.scratch);
    return loading === null ? frame() : loading.then(frame);
  }

  /** Releases every slice still pinned (the scan ended, or failed). */
  close(): void {
    for (const k of [...this.started.keys()]) this.release(k);
    this.ring?.close();
  }

  /** A ring when what the scan reads back from slice `from` on would take more than its share of the budget. */
  private ringFrom(from: number): ReadRing | null {
    const budget = this.slices[from].view.budget;
    if (budget === null) return null;
    let bytes = 0;
    for (let k = from; k < this.slices.length; k++) {
      if (k > from && !this.isRead(k)) continue;
      bytes += this.slices[k].view.bytesToRead(this.columns);
      if (ReadRing.isFor(budget, bytes)) return new ReadRing(budget);
    }
    return null;
  }

  private start(k: number): Promise<void> | null {
    let loading = this.started.get(k);
    if (loading === undefined) {
      const view = this.slices[k].view;
      if (this.ring === undefined && view.bytesToRead(this.columns) > 0) this.ring = this.ringFrom(k);
      loading = view.load(this.columns, this.ring ?? null);
      // A read-ahead that fails fails the scan when the operator reaches it, not before.
      loading?.catch(() => undefined);
      this.started.set(k, loading);
    }
    return loading;
  }

  private release(k: number): void {
    if (!this.started.has(k)) return;
    this.started.delete(k);
    this.slices[k].view.unpin(this.columns);
  }
}

/**
 * The batch columns a table plan reads in row context: every `column` expression reachable from
 * it (WHERE, outputs, GROUP BY keys, aggregate and sequence arguments, and whatever plan parts
 * come later), plus `$timestamp` when asked. Walks plain objects and arrays only, so the Table,
 * regexes and value sets a plan holds are not entered.
 */
export function columnsRead(plan: object, withTimestamp: boolean): number[] {
  let read = (plan as { [COLUMNS]?: number[] })[COLUMNS];
  if (read === undefined) {
    read = columnsOfPlan(plan as Partial<Record<'outputs' | 'where', unknown>>);
    Object.defineProperty(plan, COLUMNS, { value: read });
  }
  return withTimestamp && read[0] !== 0 ? [0, ...read] : read;
}

/**
 * Plans are immutable and cached (plan-cache.ts): their columns are found once, and kept on the
 * plan (not enumerable): a WeakMap entry per plan made a dashboard's every refresh (a new plan)
 * one more ephemeron for the garbage collector.
 */
const COLUMNS = Symbol('columns');
/** The columns of table plans but their WHERE, by their outputs (shared by the plans of one skeleton). */
const restColumns = new WeakMap<object, number[]>();

/**
 * A table plan's columns: its WHERE's, and the rest's, which every plan of one query shape has
 * alike (plan-cache.ts gives them the same outputs), so a fresh literal walks only the WHERE.
 */
function columnsOfPlan(plan: Partial<Record<'outputs' | 'where', unknown>>): number[] {
  const outputs = plan.outputs;
  if (typeof outputs !== 'object' || outputs === null || plan.where === undefined) return columnsOf(plan);
  let rest = restColumns.get(outputs);
  if (rest === undefined) restColumns.set(outputs, (rest = columnsOf({ ...plan, where: null })));
  if (plan.where === null) return rest;
  const where = columnsOf({ where: plan.where });
  return where.every((c) => rest.includes(c)) ? rest : [...new Set([...rest, ...where])].sort((a, b) => a - b);
}

function columnsOf(plan: object): number[] {
  const seen = new Set<number>();
  const visited = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || visited.has(node)) return;
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== Array.prototype) return;
    visited.add(node);
    const expr = node as { kind?: unknown; index?: unknown };
    if (expr.kind === 'column' && typeof expr.index === 'number') seen.add(expr.index);
    for (const value of Object.values(node)) visit(value);
  };
  visit(plan);
  return [...seen].sort((a, b) => a - b);
}
