// The groups of one aggregate table run: for each group id, its range, bucket start and GROUP BY
// key values. Groups are created as rows meet them; `onGrow` lets accumulators make room, and
// `maxGroups` (QueryLimits) refuses the group past the limit. `isCreatedInOrder`: rows are read
// in time order, so groups without GROUP BY columns are created in result order.
// Ranges and bucket starts live in typed arrays (hundreds of thousands of minute buckets must
// not mean as many heap objects); bucket starts are kept as their 32-bit halves (no BigInt per
// group) and joined into one int64 array when the result is built. They start small (see
// INITIAL_GROUPS): most aggregate queries make a handful of groups.
import type { Scalar } from '../../plan/plan-expr.js';
import { INITIAL_GROUPS } from '../../aggregates/accumulator.js';
import { limitError } from '../../limits.js';
import { int64Halves } from '../../vector/vec.js';

const NO_KEYS: Scalar[] = [];

export class GroupTable {
  count = 0;
  ranges = new Int32Array(INITIAL_GROUPS);
  /** Bucket start of each group, by halves (meaningful only with GROUP BY duration). */
  private bucketLo = new Uint32Array(INITIAL_GROUPS);
  private bucketHi = new Int32Array(INITIAL_GROUPS);
  readonly keys: Scalar[][] = [];

  constructor(private readonly onGrow: (capacity: number) => void, private readonly maxGroups = Infinity, readonly isCreatedInOrder = true) {
    onGrow(INITIAL_GROUPS);
  }

  /** A new group in `range`, bucket starting at hi·2^32 + lo, with GROUP BY key values. */
  create(range: number, bucketHi: number, bucketLo: number, keys: Scalar[] = NO_KEYS): number {
    const g = this.count;
    // Refused before the group (and any growth of the accumulators) takes memory.
    if (g >= this.maxGroups) throw limitError('the query makes too many groups', 'maxGroups', this.maxGroups);
    this.count = g + 1;
    if (g >= this.ranges.length) this.grow();
    this.ranges[g] = range;
    this.bucketLo[g] = bucketLo;
    this.bucketHi[g] = bucketHi;
    if (keys !== NO_KEYS || this.keys.length > 0) this.keys[g] = keys;
    return g;
  }

  /**
   * Makes room for `capacity` groups at once: with hundreds of thousands of buckets, growing by
   * doubling would allocate and copy every accumulator's arrays twenty times over.
   */
  reserve(capacity: number): void {
    if (capacity > this.ranges.length) this.grow(capacity);
  }

  private grow(capacity = this.ranges.length * 2): void {
    const ranges = new Int32Array(capacity);
    ranges.set(this.ranges);
    this.ranges = ranges;
    const lo = new Uint32Array(capacity);
    lo.set(this.bucketLo);
    this.bucketLo = lo;
    const hi = new Int32Array(capacity);
    hi.set(this.bucketHi);
    this.bucketHi = hi;
    this.onGrow(capacity);
  }

  /**
   * Each group's range and bucket start halves, groups [0, count) (a worker thread's part of an
   * aggregate hands them to the main thread: operators/aggregate-parts.ts).
   */
  get halves(): { readonly ranges: Int32Array; readonly bucketHi: Int32Array; readonly bucketLo: Uint32Array } {
    const n = this.count;
    return { ranges: this.ranges.slice(0, n), bucketHi: this.bucketHi.slice(0, n), bucketLo: this.bucketLo.slice(0, n) };
  }

  /** Bucket start of each group, by group id (made once, when the result is built). */
  bucketStarts(): BigInt64Array {
    const out = new BigInt64Array(this.count);
    const { lo, hi } = int64Halves(out);
    for (let g = 0; g < this.count; g++) {
      lo[g << 1] = this.bucketLo[g];
      hi[(g << 1) | 1] = this.bucketHi[g];
    }
    return out;
  }

  /** Group ids in result order: by range, bucket, then key values (ascending, nulls last). */
  naturalOrder(compareKeys: ((a: Scalar[], b: Scalar[]) => number) | null): Int32Array {
    const order = new Int32Array(this.count);
    for (let g = 0; g < this.count; g++) order[g] = g;
    if (compareKeys === null && this.isCreatedInOrder) return order;
    const { bucketLo: lo, bucketHi: hi } = this;
    return Int32Array.from([...order].sort((a, b) => {
      if (this.ranges[a] !== this.ranges[b]) return this.ranges[a] - this.ranges[b];
      const ha = hi[a];
      const hb = hi[b];
      if (ha !== hb) return ha - hb;
      const la = lo[a];
      const lb = lo[b];
      if (la !== lb) return la - lb;
      return (compareKeys === null ? 0 : compareKeys(this.keys[a] ?? NO_KEYS, this.keys[b] ?? NO_KEYS)) || a - b;
    }));
  }
}
