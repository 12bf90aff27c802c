// The time budget of one query. Operators call `check()` between batches (and every few thousand
// groups), so a runaway query ends with QueryTimeout instead of freezing the process.
import { performance } from 'node:perf_hooks';
import { SvcError } from '../errors.js';

export const DEFAULT_DEADLINE_MS = 30_000;

export class Deadline {
  private readonly endsAt: number;

  constructor(private readonly budgetMs: number = DEFAULT_DEADLINE_MS) {
    this.endsAt = performance.now() + budgetMs;
  }

  /** Throws QueryTimeout once the budget is spent. */
  check(): void {
    if (performance.now() > this.endsAt) {
      throw new SvcError('QueryTimeout', `the query ran longer than its ${this.budgetMs} ms budget and was stopped`);
    }
  }
}
