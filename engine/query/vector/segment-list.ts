// Runs of rows for the accumulators, one per (group, batch part): group ids and [lo, hi) bounds
// in growable typed arrays, all addressing one shared selection vector (or none). Building the
// list first and then feeding accumulators in one flat loop costs no object and no closure per
// run, which matters with hundreds of thousands of minute buckets.

/**
 * Room for this many runs at first: a small query meets a few, and arrays of up to 64 bytes stay
 * on V8's heap, where they cost far less to make and to collect than longer ones.
 */
const INITIAL_RUNS = 8;

export class SegmentList {
  count = 0;
  groups = new Int32Array(INITIAL_RUNS);
  los = new Int32Array(INITIAL_RUNS);
  his = new Int32Array(INITIAL_RUNS);
  /** The selection vector every run indexes into, or null for plain batch positions. */
  sel: Int32Array | null = null;

  reset(sel: Int32Array | null): void {
    this.count = 0;
    this.sel = sel;
  }

  push(g: number, lo: number, hi: number): void {
    const n = this.count;
    if (n === this.groups.length) this.grow();
    this.groups[n] = g;
    this.los[n] = lo;
    this.his[n] = hi;
    this.count = n + 1;
  }

  private grow(): void {
    const size = this.groups.length * 2;
    for (const key of ['groups', 'los', 'his'] as const) {
      const a = new Int32Array(size);
      a.set(this[key]);
      this[key] = a;
    }
  }
}

/** Bucket runs of one batch: start halves and [from, to) bounds (see bucket-segments.ts). */
export class BucketRuns {
  count = 0;
  startHi = new Int32Array(INITIAL_RUNS);
  startLo = new Float64Array(INITIAL_RUNS);
  from = new Int32Array(INITIAL_RUNS);
  to = new Int32Array(INITIAL_RUNS);

  push(hi: number, lo: number, from: number, to: number): void {
    const n = this.count;
    if (n === this.from.length) this.grow();
    this.startHi[n] = hi;
    this.startLo[n] = lo;
    this.from[n] = from;
    this.to[n] = to;
    this.count = n + 1;
  }

  private grow(): void {
    const size = this.from.length * 2;
    const hi = new Int32Array(size); hi.set(this.startHi); this.startHi = hi;
    const lo = new Float64Array(size); lo.set(this.startLo); this.startLo = lo;
    const from = new Int32Array(size); from.set(this.from); this.from = from;
    const to = new Int32Array(size); to.set(this.to); this.to = to;
  }
}
