// A materialized view as the catalog keeps it (SPEC §15): its definition (a SELECT over one source
// table, GROUP BY duration first), the table of its rows, and what its refresher still has to
// compute — the dirty ranges. Every change to the source marks the buckets it touches, at apply
// time, in the log's order (the same on every replica and on replay); the refresher
// (engine/views/) computes those buckets again from the source and settles them.
//
// When the source's oldest rows leave (TTL, retention by size), the view keeps them: the source
// rows before `edge` are no longer read. Buckets wholly before it are final; the bucket holding
// it (the edge bucket) is its rows before the edge, kept as partial states (`edgeStates`, made by
// engine/views/frozen-edge.ts at the removal's apply), merged with its rows still in the source.
import { lowerBound } from '../storage/compaction.js';
import { addDuration, bucketStart, INT64_MIN, parse } from '../../grammar/index.js';
import type { DurationValue, Select } from '../../grammar/index.js';
import { timeBounds } from '../storage/shard-partition.js';
import type { Table } from '../storage/table.js';
import { DirtyRanges } from './dirty-ranges.js';

/** A view's definition as its ViewCreate record names it. */
export interface ViewDefinition {
  readonly name: string;
  readonly source: string;
  /** The SELECT text (SHOW v gives it; the refresher plans it against the source). */
  readonly select: string;
}

/** A wide unsorted insert marks its buckets one by one past this many buckets of span. */
const WIDE_SPAN_BUCKETS = 256n;

export class MaterializedView implements ViewDefinition {
  readonly name: string;
  readonly source: string;
  readonly select: string;
  /** The definition, parsed once. */
  readonly ast: Select;
  /** Its GROUP BY duration. */
  readonly bucket: DurationValue;
  readonly dirty = new DirtyRanges();
  /**
   * Source rows before this are no longer read: they left, or are leaving, by TTL or retention
   * (INT64_MIN: none did). Only rows at or after it count, plus `edgeStates`.
   */
  edge = INT64_MIN;
  /**
   * The partial states of the rows before `edge` in the bucket holding it, one per GROUP BY key:
   * the key values, then the helpers of engine/views/partials.ts (empty when `edge` starts a bucket).
   */
  edgeStates: readonly (readonly unknown[])[] = [];

  constructor(definition: ViewDefinition, readonly table: Table) {
    this.name = definition.name;
    this.source = definition.source;
    this.select = definition.select;
    const ast = parse(definition.select);
    if (ast.kind !== 'Select' || ast.groupBy[0]?.kind !== 'Duration') throw new Error(`view '${this.name}' has no SELECT … GROUP BY duration`);
    this.ast = ast;
    this.bucket = ast.groupBy[0];
  }

  /** The start of the bucket holding `ts`. */
  bucketOf(ts: bigint): bigint {
    return bucketStart(ts, this.bucket);
  }

  /** The end of the bucket starting at `start`. */
  bucketEnd(start: bigint): bigint {
    return addDuration(start, this.bucket);
  }

  /** Buckets starting before this are final (the one holding the edge is not). */
  get finalBefore(): bigint {
    return this.edge === INT64_MIN ? INT64_MIN : this.bucketOf(this.edge);
  }

  /** Marks the buckets overlapping [from, to) (from < to); none before the edge bucket. */
  markTimes(from: bigint, to: bigint, since = Date.now()): void {
    const final = this.finalBefore;
    const start = this.bucketOf(from < final ? final : from);
    if (start >= to) return;
    this.dirty.mark(start, this.bucketEnd(this.bucketOf(to - 1n)), since);
  }

  /** Marks the buckets an insert's rows fall in (any order). */
  markRows(ts: BigInt64Array, since = Date.now()): void {
    if (ts.length === 0) return;
    const [min, max] = timeBounds(ts);
    const first = this.bucketOf(min);
    const span = this.bucketEnd(this.bucketOf(max)) - first;
    if (span <= (this.bucketEnd(first) - first) * WIDE_SPAN_BUCKETS) {
      this.markTimes(min, max + 1n, since);
      return;
    }
    // Rows far apart (late rows among current ones): their buckets, not everything between.
    const sorted = ts.slice().sort();
    for (let i = 0; i < sorted.length;) {
      const start = this.bucketOf(sorted[i]);
      const end = this.bucketEnd(start);
      this.markTimes(start, end, since);
      i = lowerBound(sorted, i + 1, sorted.length, end);
    }
  }
}
