// The time budget of one query. Operators call `check()` between batches, conditions after every
// term, and the pacing of exec/run/run-context.ts at every pause, so a runaway query ends with
// QueryTimeout instead of freezing the process. `budgetMs` is validated by executeQuery.
import { performance } from 'node:perf_hooks';
import { SvcError } from '../errors.js';

export const DEFAULT_DEADLINE_MS = 30_000;

export class Deadline {
  private endsAt: number;
  private calls = 0;

  constructor(private readonly budgetMs: number = DEFAULT_DEADLINE_MS) {
    this.endsAt = performance.now() + budgetMs;
  }

  /**
   * Throws QueryTimeout once the budget is spent. Reading the clock costs about as much as
   * answering a batch from its statistics, so only every eighth call reads it (the first does):
   * the overrun is at most a few batches of work.
   */
  check(): void {
    if ((this.calls++ & 7) !== 0) return;
    this.checkNow();
  }

  /**
   * Gives the whole budget again from now: a streamed export (engine/transfer/) bounds the wait
   * for each batch it hands out, not the whole transfer.
   */
  restart(): void {
    this.endsAt = performance.now() + this.budgetMs;
  }

  /** Milliseconds left of the budget (0 once spent). */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Throws QueryTimeout if the budget is spent, reading the clock now. */
  checkNow(): void {
    if (performance.now() >= this.endsAt) {
      throw new SvcError('QueryTimeout', `the query ran longer than its ${this.budgetMs} ms budget and was stopped`);
    }
  }
}
