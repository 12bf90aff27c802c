// What the row and aggregate operators read: chunks of rows, each with a row-context frame over
// them. A plain table gives one chunk per batch slice of its snapshot; an ASOF JOIN gives chunks
// of joined rows made by its merge (exec/join/). Both reach column data only through frames built
// on the snapshot's slices, so however batches come to be read, every operator reads them alike.
import type { ColumnType } from '../../../types.js';
import type { Vec } from '../../vector/vec.js';
import type { Scratch } from '../run/scratch.js';
import { BatchFrame } from './frame.js';
import type { Frame } from './frame.js';
import type { Slice } from './scan-slices.js';

/** A row-context frame whose sequence values the operators fill. */
export type RowFrame = Frame & { readonly sequences: Vec[] };

export interface Chunk {
  readonly frame: RowFrame;
  /** The row time at each position (a batch's `$timestamp`, or a join's output times). */
  readonly ts: BigInt64Array;
  /** The positions [lo, hi) the chunk's rows are at. */
  readonly lo: number;
  readonly hi: number;
  /** The batch slice the rows are when they are one table's rows (statistics may answer it), else null. */
  readonly slice: Slice | null;
}

/** The rows of one range of a table plan, as the snapshot took them. */
export interface RangeScan {
  /** A plain table's slices, in time order unless read as stored; null for a join. */
  readonly slices: readonly Slice[] | null;
  chunks(types: readonly ColumnType[], scratch: Scratch): Iterable<Chunk>;
}

/** The scan of a plain table's slices: a chunk per slice. */
export function sliceScan(slices: readonly Slice[]): RangeScan {
  return {
    slices,
    *chunks(types, scratch) {
      for (const slice of slices) {
        yield { frame: new BatchFrame(slice.view, types, scratch), ts: slice.view.ts, lo: slice.lo, hi: slice.hi, slice };
      }
    },
  };
}
