// A chunk of rows for the row and aggregate operators with a row-context frame over them: what an
// ASOF JOIN's merge hands them (exec/join/), beside the batch slices a plain scan reads through the
// SliceReader. Its frame reaches column data only through BatchFrames of the snapshot's slices.
import type { Vec } from '../../vector/vec.js';
import type { Frame } from './frame.js';

/** A row-context frame whose sequence values the operators fill. */
export type RowFrame = Frame & { readonly sequences: Vec[] };

export interface Chunk {
  readonly frame: RowFrame;
  /** The row time at each position (a batch's `$timestamp`, or a join's output times). */
  readonly ts: BigInt64Array;
  /** The positions [lo, hi) the chunk's rows are at. */
  readonly lo: number;
  readonly hi: number;
}
