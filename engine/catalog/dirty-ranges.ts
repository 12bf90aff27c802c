// The time ranges of a materialized view its refresher has yet to compute again: the invalidation
// set of TimescaleDB's continuous aggregates. Ranges are disjoint, ascending and whole buckets
// (the view aligns them). Each mark gets a version from a counter, so a refresh that read its
// source at version V settles only what was marked by then: a range marked again while the
// refresh computed keeps its newer mark and is computed once more. `since` (wall-clock ms) is
// when the oldest write a range holds was applied: the view's lag.

export interface DirtyRange {
  readonly from: bigint;
  readonly to: bigint;
  /** The counter when it was last marked. */
  readonly version: number;
  /** Date.now() of the oldest mark it holds. */
  readonly since: number;
}

export class DirtyRanges {
  private list: DirtyRange[] = [];
  private counter = 0;

  /** The version of the newest mark (a refresh notes it before it reads the source). */
  get version(): number {
    return this.counter;
  }

  get isEmpty(): boolean {
    return this.list.length === 0;
  }

  /** The ranges, ascending. */
  get ranges(): readonly DirtyRange[] {
    return this.list;
  }

  /** Marks [from, to): it gets a new version; the earliest `since` it overlaps is kept. */
  mark(from: bigint, to: bigint, since = Date.now()): void {
    if (from >= to) return;
    const version = ++this.counter;
    const lo = this.firstEndingAfter(from);
    let hi = lo;
    let earliest = since;
    while (hi < this.list.length && this.list[hi].from < to) earliest = Math.min(earliest, this.list[hi++].since);
    const pieces: DirtyRange[] = [];
    const head = this.list[lo];
    if (lo < hi && head.from < from) pieces.push({ ...head, to: from });
    pieces.push({ from, to, version, since: earliest });
    const tail = this.list[hi - 1];
    if (lo < hi && tail.to > to) pieces.push({ ...tail, from: to });
    this.list.splice(lo, hi - lo, ...pieces);
  }

  /**
   * Takes out of [from, to) what was marked at or before `version` and returns it, ascending:
   * what a refresh that read its source at that version now holds the answer for. Newer marks stay.
   */
  settle(from: bigint, to: bigint, version: number): DirtyRange[] {
    const taken: DirtyRange[] = [];
    const kept: DirtyRange[] = [];
    const lo = this.firstEndingAfter(from);
    let hi = lo;
    for (; hi < this.list.length && this.list[hi].from < to; hi++) {
      const r = this.list[hi];
      if (r.version > version) { kept.push(r); continue; }
      if (r.from < from) kept.push({ ...r, to: from });
      taken.push({ ...r, from: r.from < from ? from : r.from, to: r.to > to ? to : r.to });
      if (r.to > to) kept.push({ ...r, from: to });
    }
    this.list.splice(lo, hi - lo, ...kept);
    return taken;
  }

  /** Forgets everything before `time` (rows there are final, or gone with the view's TTL). */
  clearBefore(time: bigint): void {
    const k = this.firstEndingAfter(time);
    const rest = this.list.slice(k);
    if (rest.length > 0 && rest[0].from < time) rest[0] = { ...rest[0], from: time };
    this.list = rest;
  }

  /** Forgets every range. */
  clear(): void {
    this.list = [];
  }

  /** The range marked longest ago (the lowest first on a tie), or null. */
  oldest(): DirtyRange | null {
    let best: DirtyRange | null = null;
    for (const r of this.list) if (best === null || r.since < best.since) best = r;
    return best;
  }

  /** Index of the first range ending after `time`. */
  private firstEndingAfter(time: bigint): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (this.list[m].to <= time) lo = m + 1;
      else hi = m;
    }
    return lo;
  }
}
