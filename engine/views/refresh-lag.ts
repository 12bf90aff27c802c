// How far behind its source each materialized view is, and how long past refreshes took to catch
// up: a write's lag is the time from its apply (when it marked the view) to the refresh that
// settled it. Quantiles come from the last REFRESHES settled ranges (readiness and /metrics read them).
import type { DirtyRange } from '../catalog/dirty-ranges.js';
import type { ViewFigures, ViewState } from '../figures.js';

/** Settled ranges the quantiles are taken over. */
const REFRESHES = 1024;

export class RefreshLag {
  private readonly recent = new Float64Array(REFRESHES);
  private count = 0;

  /** Ranges a refresh settled now. */
  settled(parts: readonly DirtyRange[]): void {
    const now = Date.now();
    for (const p of parts) this.recent[this.count++ % REFRESHES] = now - p.since;
  }

  figures(views: readonly ViewState[]): ViewFigures {
    const sorted = this.recent.slice(0, Math.min(this.count, REFRESHES)).sort();
    const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    return { views, refreshes: this.count, lagP50Ms: at(0.5), lagP99Ms: at(0.99), lagMaxMs: at(1) };
  }
}
