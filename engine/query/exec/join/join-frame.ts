// Row context over a chunk of joined rows: the ASOF JOIN's frame. A column of the table whose rows
// the chunk is (the driving table) is read straight from its batch; a column of a joined table is
// gathered, once per chunk and column, from the batches of the rows the merge matched (runs of
// positions per batch, so the copy is a plain loop per run). Positions without a match read null.
import type { ColumnType } from '../../../types.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, setValid } from '../../vector/vec.js';
import type { Scratch } from '../run/scratch.js';
import type { BatchFrame, Frame } from '../scan/frame.js';

/** One joined table as a chunk sees it. */
export interface SideView {
  /** Batch column index of the table's `$timestamp`; its columns follow. */
  readonly firstColumn: number;
  readonly types: readonly ColumnType[];
  /** The chunk's own batch when the chunk's rows are this table's rows, else null. */
  readonly direct: BatchFrame | null;
  /** The batch of a slice rows are matched in (by slice index). */
  readonly frame: (slice: number) => BatchFrame;
  /** Batch row of each position's match. */
  readonly rows: Int32Array;
  /** Pairs (first position, slice index or -1 for no match) where the matched slice changes. */
  readonly runs: readonly number[];
}

export class JoinFrame implements Frame {
  readonly sequences: Vec[] = [];
  private readonly vecs: (Vec | undefined)[] = [];

  constructor(
    readonly size: number,
    readonly scratch: Scratch,
    /** The joined rows' times by position. */
    private readonly times: Vec,
    private readonly sides: readonly SideView[],
    /** The positions of the chunk. */
    private readonly rows: Rows,
  ) {}

  column(index: number): Vec {
    let vec = this.vecs[index];
    if (vec !== undefined) return vec;
    if (index === 0) vec = this.times;
    else {
      let s = this.sides.length - 1;
      while (this.sides[s].firstColumn > index) s--;
      const side = this.sides[s];
      const local = index - side.firstColumn;
      vec = side.direct !== null ? side.direct.column(local) : this.gather(side, local, index);
    }
    this.vecs[index] = vec;
    return vec;
  }

  /** Column `local` of a joined table at every position of the chunk. */
  private gather(side: SideView, local: number, index: number): Vec {
    const { lo, hi } = this.rows;
    const { rows, runs, frame } = side;
    const type = side.types[local];
    const isDouble = type === 'DOUBLE' || type === 'BOOLEAN';
    const isInt = type === 'INT64' || type === 'TIMESTAMP';
    const f = isDouble ? this.scratch.f64(index, this.size, 'join') : null;
    const n = isInt ? this.scratch.i64(index, this.size, 'join') : null;
    const list: (string | Uint8Array | null)[] | null = isDouble || isInt ? null : new Array(this.size).fill(null);
    const isText = type !== 'BLOB';
    // Values first; validity bits only when some position is null (no match, or a null value).
    let hasNull = false;
    for (let r = 0; r < runs.length; r += 2) {
      const from = Math.max(lo, runs[r]);
      const to = Math.min(hi, r + 2 < runs.length ? runs[r + 2] : hi);
      const slice = runs[r + 1];
      if (from >= to) continue;
      if (slice < 0) { hasNull = true; continue; }
      const src = frame(slice).column(local);
      if (f !== null && src.kind === 'f64') {
        const values = src.values;
        for (let k = from; k < to; k++) f[k] = values[rows[k]];
        hasNull ||= src.validity !== null;
      } else if (n !== null && src.kind === 'i64') {
        const sl = src.lo;
        const sh = src.hi;
        const dl = n.lo;
        const dh = n.hi;
        for (let k = from; k < to; k++) {
          const i = rows[k];
          dl[k << 1] = sl[i << 1];
          dh[(k << 1) | 1] = sh[(i << 1) | 1];
        }
        hasNull ||= src.validity !== null;
      } else {
        for (let k = from; k < to; k++) list![k] = scalarAt(src, rows[k], isText) as string | Uint8Array | null;
      }
    }
    if (list !== null) return { kind: 'list', values: list };
    const validity = hasNull ? this.validity(side, local, index) : null;
    return f !== null ? { kind: 'f64', values: f, validity } : { kind: 'i64', values: n!.values, lo: n!.lo, hi: n!.hi, validity };
  }

  /** Validity of a gathered column: the matched row's, none where nothing matched. */
  private validity(side: SideView, local: number, index: number): Uint8Array {
    const { lo, hi } = this.rows;
    const { rows, runs, frame } = side;
    const valid = this.scratch.bits(index, this.size, 'join');
    for (let r = 0; r < runs.length; r += 2) {
      const from = Math.max(lo, runs[r]);
      const to = Math.min(hi, r + 2 < runs.length ? runs[r + 2] : hi);
      const slice = runs[r + 1];
      const src = slice < 0 ? null : frame(slice).column(local);
      const validity = src === null || src.kind === 'const' || src.kind === 'list' ? null : src.validity;
      for (let k = from; k < to; k++) setValid(valid, k, src !== null && isValidAt(validity, rows[k]));
    }
    return valid;
  }

  aggregate(): Vec {
    throw new Error('planner bug: aggregate read in row context');
  }

  groupKey(): Vec {
    throw new Error('planner bug: group key read in row context');
  }

  bucket(): Vec {
    throw new Error('planner bug: bucket read in row context');
  }

  sequence(slot: number): Vec {
    return this.sequences[slot];
  }
}
