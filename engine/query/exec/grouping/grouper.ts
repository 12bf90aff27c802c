// Splits the rows of a batch into segments, one per group, each in time order: by range only,
// by GROUP BY duration (bucket-segments.ts), and by GROUP BY columns (hash lookup of each row's
// key, then a stable counting sort of the rows by group, so each group's rows form one
// contiguous run of a selection vector). Batches read in time order meet each bucket once, in
// ascending order; batches read as stored (late runs not merged, `isOrdered` false) may come
// back to a bucket, so then buckets are also looked up by their start.
import { bucketStart } from '../../../../grammar/index.js';
import type { DurationValue } from '../../../../grammar/index.js';
import type { ValueKey } from '../../aggregates/value-key.js';
import { compositeKeyAt, keyAt } from '../../aggregates/value-key.js';
import type { PlanExpr, Scalar } from '../../plan/plan-expr.js';
import { bucketRuns } from './bucket-segments.js';
import type { BucketRuns, SegmentList } from '../../vector/segment-list.js';
import { evalValue } from '../kernels/eval-value.js';
import type { Frame } from '../scan/frame.js';
import type { GroupTable } from './group-table.js';
import { scalarAt } from '../../vector/scalars.js';
import { tsHalves } from '../scan/ts-search.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, splitInt64 } from '../../vector/vec.js';

const NULL_KEY = Symbol('null');
/** The key map of every group without GROUP BY columns: never written (no keys are looked up). */
const NO_KEY_GROUPS = new Map<ValueKey | symbol, number>();

export class Grouper {
  private range = 0;
  private rangeGroup = -1;
  private hasBucket = false;
  private bucketHi = 0;
  private bucketLo = 0;
  private bucketGroup = -1;
  private keyGroups = NO_KEY_GROUPS;
  /** Unordered reads: the buckets of the range met so far, by the halves of their start. */
  private bucketsMet: Map<number, Map<number, MetBucket>> | null = null;
  /** Unordered reads with a double GROUP BY column: time of the row each group's key came from. */
  private keyTs: bigint[] | null = null;
  /** byKeys' place of each group among those a batch meets (see there); all 0 between calls. */
  private slots: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** For a lone SYMBOL key: the groups of each key map (a bucket's, or the range's) by dictionary index. */
  private readonly indexGroups = new WeakMap<Map<ValueKey | symbol, number>, Int32Array>();

  constructor(
    private readonly groups: GroupTable,
    private readonly duration: DurationValue | null,
    private readonly keys: readonly PlanExpr[],
    /** Where a batch's bucket runs are written (the run's scratch). */
    private readonly runs: BucketRuns,
    private readonly isOrdered = true,
  ) {
    if (!isOrdered && keys.some((e) => e.type === 'double')) this.keyTs = [];
  }

  startRange(range: number): void {
    this.range = range;
    this.rangeGroup = -1;
    this.hasBucket = false;
    if (this.keys.length > 0) this.keyGroups = new Map();
    if (!this.isOrdered) this.bucketsMet = new Map();
  }

  /** Whether segment() reads the rows' times: buckets, or ±0 keys met as stored. */
  get readsRowTimes(): boolean {
    return this.duration !== null || this.keyTs !== null;
  }

  /** Bucket start of a timestamp (only with GROUP BY duration). */
  bucketOf(ts: bigint): bigint {
    return bucketStart(ts, this.duration!);
  }

  /** The group of a whole batch without GROUP BY columns: the range's, or its bucket's. */
  groupOfBatch(minTs: bigint): number {
    if (this.duration === null) return this.groupOfRange();
    const s = splitInt64(this.bucketOf(minTs));
    return this.groupOfBucket(s.hi, s.lo);
  }

  /**
   * The group of bucket hi·2^32 + lo of the current range (any number without GROUP BY duration),
   * as a batch meeting it would find it: how a worker's groups, merged in batch order, meet this
   * run's (operators/aggregate-parts.ts). Only without GROUP BY columns.
   */
  groupOfPart(hi: number, lo: number): number {
    return this.duration === null ? this.groupOfRange() : this.groupOfBucket(hi, lo);
  }

  private groupOfRange(): number {
    if (this.rangeGroup < 0) this.rangeGroup = this.groups.create(this.range, 0, 0);
    return this.rangeGroup;
  }

  /**
   * Enters bucket hi·2^32 + lo. Read in time order, buckets arrive ascending within a range and
   * each is new; read as stored, a bucket met before gets its group (and key groups) back.
   */
  private groupOfBucket(hi: number, lo: number): number {
    if (this.hasBucket && this.bucketHi === hi && this.bucketLo === lo) return this.bucketGroup;
    this.hasBucket = true;
    this.bucketHi = hi;
    this.bucketLo = lo;
    const met = this.bucketsMet;
    if (met !== null) {
      let byLo = met.get(hi);
      if (byLo === undefined) met.set(hi, (byLo = new Map()));
      let bucket = byLo.get(lo);
      if (bucket === undefined) byLo.set(lo, (bucket = { group: this.newBucketGroup(hi, lo), keyGroups: this.keys.length > 0 ? new Map() : NO_KEY_GROUPS }));
      this.bucketGroup = bucket.group;
      this.keyGroups = bucket.keyGroups;
      return this.bucketGroup;
    }
    this.bucketGroup = this.newBucketGroup(hi, lo);
    if (this.keys.length > 0) this.keyGroups = new Map();
    return this.bucketGroup;
  }

  /** The group of a new bucket without GROUP BY columns; -1 with them (each key has its own). */
  private newBucketGroup(hi: number, lo: number): number {
    return this.keys.length === 0 ? this.groups.create(this.range, hi, lo) : -1;
  }

  /** Fills `out` with the runs of `rows`, one per group met, each in time order. */
  segment(frame: Frame, ts: BigInt64Array, rows: Rows, out: SegmentList): void {
    const d = this.duration;
    if (this.keys.length > 0) {
      // One counting-sorted region per bucket, all inside one array sized for the batch.
      const sorted = frame.scratch.sel(-2, frame.size, 'aux');
      out.reset(sorted);
      if (d === null) { this.byKeys(frame, ts, rows, sorted, out); return; }
      bucketRuns(ts, tsHalves(ts), rows, d, this.runs);
      for (let r = 0; r < this.runs.count; r++) {
        this.groupOfBucket(this.runs.startHi[r], this.runs.startLo[r]);
        this.byKeys(frame, ts, { sel: rows.sel, lo: this.runs.from[r], hi: this.runs.to[r] }, sorted, out);
      }
      return;
    }
    out.reset(rows.sel);
    if (d === null) { out.push(this.groupOfRange(), rows.lo, rows.hi); return; }
    bucketRuns(ts, tsHalves(ts), rows, d, this.runs);
    const runs = this.runs;
    for (let r = 0; r < runs.count; r++) out.push(this.groupOfBucket(runs.startHi[r], runs.startLo[r]), runs.from[r], runs.to[r]);
  }

  /**
   * Hashes each row's key to its group, then writes the rows grouped into `sorted[lo..hi)`. A
   * lone SYMBOL key is looked up by its dictionary index (a table's indices never change: its
   * dictionary only grows), through an array per bucket, so only a key's first row hashes it.
   */
  private byKeys(frame: Frame, ts: BigInt64Array, rows: Rows, sorted: Int32Array, out: SegmentList): void {
    const vecs = this.keys.map((e) => evalValue(e, frame, rows));
    const texts = this.keys.map((e) => e.type !== 'blob');
    const { sel, lo, hi } = rows;
    const gids = frame.scratch.sel(-1, frame.size, 'aux');
    const dict = vecs.length === 1 && vecs[0].kind === 'dict' && this.keyTs === null ? vecs[0] : null;
    const byIndex = dict === null ? null : this.indexGroupsOf(dict.dictionary.length);
    // Each group met, in first-appearance order, and its rows: groups are dense ids, so `slots`
    // (1 + the group's place among those met, 0 when not met yet) is an array, not a map.
    const met: number[] = [];
    const counts = frame.scratch.sel(-3, frame.size + 1, 'aux');
    let slots = this.slots;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      let g: number;
      if (byIndex !== null && isValidAt(dict!.validity, i)) {
        const x = dict!.indices[i];
        g = byIndex[x] - 1;
        if (g < 0) byIndex[x] = (g = this.groupAt(vecs, texts, ts, i)) + 1;
      } else g = this.groupAt(vecs, texts, ts, i);
      if (g >= slots.length) this.slots = slots = growSlots(slots, g + 1);
      let l = slots[g] - 1;
      if (l < 0) { l = met.length; slots[g] = l + 1; met.push(g); counts[l] = 0; }
      counts[l]++;
      gids[k] = l;
    }
    // Stable counting sort of the positions by group, groups in first-appearance order.
    const n = met.length;
    const ends = new Int32Array(n);
    ends[0] = lo;
    for (let l = 1; l < n; l++) ends[l] = ends[l - 1] + counts[l - 1];
    const starts = ends.slice();
    if (sel === null) for (let k = lo; k < hi; k++) sorted[ends[gids[k]]++] = k;
    else for (let k = lo; k < hi; k++) sorted[ends[gids[k]]++] = sel[k];
    for (let l = 0; l < n; l++) {
      out.push(met[l], starts[l], ends[l]);
      slots[met[l]] = 0;
    }
  }

  /** 1 + the group of each dictionary index in the current key map (0: not met yet). */
  private indexGroupsOf(size: number): Int32Array {
    let groups = this.indexGroups.get(this.keyGroups);
    if (groups === undefined || groups.length < size) {
      const grown = growSlots(groups ?? new Int32Array(0), size);
      this.indexGroups.set(this.keyGroups, grown);
      groups = grown;
    }
    return groups;
  }

  private groupAt(vecs: readonly Vec[], texts: readonly boolean[], ts: BigInt64Array, i: number): number {
    let key: ValueKey | symbol;
    if (vecs.length === 1) key = keyAt(vecs[0], i, texts[0]) ?? NULL_KEY;
    else key = compositeKeyAt(vecs, i, texts);
    let g = this.keyGroups.get(key);
    if (g === undefined) {
      const values: Scalar[] = vecs.map((v, c) => scalarAt(v, i, texts[c]));
      g = this.groups.create(this.range, this.hasBucket ? this.bucketHi : 0, this.hasBucket ? this.bucketLo : 0, values);
      this.keyGroups.set(key, g);
      if (this.keyTs !== null) this.keyTs[g] = ts[i];
    } else if (this.keyTs !== null) this.earlierZero(vecs, texts, ts, i, g);
    return g;
  }

  /**
   * 0 and -0 are one key, shown as its earliest row has it. Read in time order that row makes
   * the group; read as stored, a later batch may hold an earlier row, which then takes over the
   * key values of a group holding a zero.
   */
  private earlierZero(vecs: readonly Vec[], texts: readonly boolean[], ts: BigInt64Array, i: number, g: number): void {
    if (!this.groups.keys[g].some((v) => v === 0) || ts[i] >= this.keyTs![g]) return;
    this.groups.keys[g] = vecs.map((vec, c) => scalarAt(vec, i, texts[c]));
    this.keyTs![g] = ts[i];
  }
}

/** `a` grown to at least `n` entries (doubling), its entries kept and the new ones 0. */
function growSlots(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(n, a.length * 2, 64));
  grown.set(a);
  return grown;
}

/** A bucket of an unordered read: its group (no GROUP BY columns) or its key groups. */
interface MetBucket {
  readonly group: number;
  readonly keyGroups: Map<ValueKey | symbol, number>;
}
