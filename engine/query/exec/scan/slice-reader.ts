// How operators reach the data of a scan's slices: slice by slice, each with the columns the plan
// reads made resident and pinned while the operator is on it. Batches evicted from memory are read
// back from their checkpoint file, only those columns; while the operator computes one slice, the
// next slices that will be read are read back too (PREFETCH ahead), so the disk and the CPU work
// at once. At most PREFETCH + 1 slices are pinned: a scan never holds the whole table. A slice
// the operator answers from statistics is never loaded (`isRead` tells the prefetch which).
// Resident slices take no await: frame() then returns the frame itself, not a promise.
import type { ColumnType } from '../../../types.js';
import type { Scratch } from '../run/scratch.js';
import { BatchFrame } from './frame.js';
import type { Slice } from './scan-slices.js';

/** Slices read back ahead of the one the operator is on. */
const PREFETCH = 4;

export class SliceReader {
  /** Per slice started (pinned): its load, null when it was resident. */
  private readonly started = new Map<number, Promise<void> | null>();
  /** Slices before this one are released. */
  private releasedTo = 0;

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
    for (let j = k + 1, ahead = 0; j < this.slices.length && ahead < PREFETCH; j++) {
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
  }

  private start(k: number): Promise<void> | null {
    let loading = this.started.get(k);
    if (loading === undefined) {
      loading = this.slices[k].view.load(this.columns);
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

/** The batch columns an operator reads: column indexes of the plan expressions given, and `$timestamp` when asked. */
export function columnsRead(exprs: readonly unknown[], withTimestamp: boolean): number[] {
  const seen = new Set<number>(withTimestamp ? [0] : []);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(visit); return; }
    if (!isExprNode(node)) return;
    if (node.kind === 'column') seen.add((node as unknown as { index: number }).index);
    for (const value of Object.values(node)) if (Array.isArray(value) || isExprNode(value)) visit(value);
  };
  exprs.forEach(visit);
  return [...seen].sort((a, b) => a - b);
}

/** A plan expression node (plan/plan-expr.ts): an object with a numeric id and a string kind. */
function isExprNode(x: unknown): x is { readonly kind: string; readonly id: number } {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string' && typeof (x as { id?: unknown }).id === 'number';
}
