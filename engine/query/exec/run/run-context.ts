// Per-query execution state shared by the operators: the deadline, the limits and result budget,
// the scratch buffers, the logical scanned-values counter of SPEC §7, and the pacing that keeps
// a long query from freezing the event loop: operators ask `isDue()` between batches and, once a
// slice of work has run past its budget, `await pause()` lets timers and I/O run (an HTTP
// server's other requests), then checks the signal (QuerySignal) and the deadline. A query that finishes
// within one slice never pauses, so small queries pay one clock read per batch and nothing more.
import { performance } from 'node:perf_hooks';
import { SvcError } from '../../../errors.js';
import type { Deadline } from '../../deadline.js';
import type { QueryLimits } from '../../limits.js';
import type { ResultTable } from '../../result.js';
import type { WorkerPool } from '../../../workers/index.js';
import type { ColumnDef } from '../../../types.js';
import { ResultBudget } from './result-budget.js';
import { giveScratch, takeScratch } from './scratch.js';
import type { Scratch } from './scratch.js';

/**
 * What a query reads to know it was cancelled; checked between slices of work. An AbortSignal is
 * one. The interface asks for no more because making an AbortSignal costs ~3 µs on Node 20 — as
 * much as a small query — and a server would make one per request.
 */
export interface QuerySignal {
  readonly aborted: boolean;
}

/** Work between two pauses, in ms: short enough for a responsive server, long enough that a
 * pause (a trip through the event loop, a few µs when it is idle) costs well under 1 %. */
export const DEFAULT_SLICE_MS = 8;

/** Takes one chunk of a streamed result; resolves when the next may be built. */
export type ResultSink = (table: ResultTable) => Promise<void>;
/**
 * What a worker thread needs to run part of this query's scan as this thread would
 * (operators/aggregate-parts.ts): the worker pool, the statement's text and instant, which the
 * worker plans again, and the schemas of the tables it reads.
 */
export interface ParallelRun {
  readonly pool: WorkerPool;
  /** Rows a scan reads at least before it is split. */
  readonly minRows: number;
  readonly text: string;
  readonly nowNs: bigint;
  tables: readonly { readonly name: string; readonly columns: readonly ColumnDef[] }[];
}

export class RunContext {
  /** Buffers of the run, taken from those of finished queries and given back by close(). */
  readonly scratch: Scratch = takeScratch();
  /** Set when the query's scans may be split across worker threads; null: they run here. */
  parallel: ParallelRun | null = null;
  readonly budget: ResultBudget;
  scannedRowsCount = 0;
  /**
   * Set for a streamed result (engine/transfer/'s export): result tables go here in chunks instead
   * of into the QueryResult (statements/run-select.ts, operators/row-operator.ts).
   */
  sink: ResultSink | null = null;
  private sliceStart = performance.now();
  private lastCheck = this.sliceStart;
  /** Calls of `isDue` left before the clock is read again (see there). */
  private skip = 0;

  constructor(
    readonly deadline: Deadline,
    readonly limits: QueryLimits,
    private readonly signal: QuerySignal | null = null,
    readonly sliceMs: number = DEFAULT_SLICE_MS,
  ) {
    this.budget = new ResultBudget(limits);
  }

  /**
   * True once the current slice has used its budget: the operator should `await pause()`. A batch
   * answered from its statistics takes about a microsecond, so reading the clock after each one
   * would cost a few % of such a query: while batches go that fast, the clock is read every 16th
   * call (at most ~1 ms late).
   */
  isDue(): boolean {
    if (--this.skip > 0) return false;
    const now = performance.now();
    this.skip = now - this.lastCheck < 0.05 && this.sliceMs > 0 ? 16 : 1;
    this.lastCheck = now;
    return now - this.sliceStart >= this.sliceMs;
  }

  /** True once the query's signal says it was cancelled. */
  get isCancelled(): boolean {
    return this.signal?.aborted === true;
  }

  /** The query is over and its result built: its scratch serves the next query. */
  close(): void {
    giveScratch(this.scratch);
  }

  /** Yields to the event loop, then stops the query if it was cancelled or ran out of time. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => { setImmediate(resolve); });
    if (this.signal?.aborted === true) throw new SvcError('QueryCancelled', 'the query was cancelled while it ran');
    this.deadline.checkNow();
    this.sliceStart = performance.now();
  }
}
