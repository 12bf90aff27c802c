// Row context over a chunk of joined rows: the ASOF JOIN's frame. A column of the table whose rows
// the chunk is (the driving table) is read straight from its batch; a column of a joined table is
// gathered, once per chunk and column, from the rows the merge matched: one value read per run of
// positions matched to the same row, written over the run. Positions without a match read null.
import type { ColumnType } from '../../../types.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, setValid } from '../../vector/vec.js';
import type { Scratch } from '../run/scratch.js';
import type { BatchFrame } from '../scan/frame.js';
import { RowContextFrame } from '../scan/frame.js';
import type { MatchRuns } from './asof-cursor.js';

/** One joined table as a chunk sees it. */
export interface SideView {
  /** Batch column index of the table's `$timestamp`; its columns follow. */
  readonly firstColumn: number;
  readonly types: readonly ColumnType[];
  /** The chunk's own batch when the chunk's rows are this table's rows, else null. */
  readonly direct: BatchFrame | null;
  /** The batch of a slice rows are matched in (by slice index). */
  readonly frame: (slice: number) => BatchFrame;
  /** The row each position is matched to, as runs. */
  readonly matches: MatchRuns;
}

export class JoinFrame extends RowContextFrame {
  private readonly vecs: (Vec | undefined)[] = [];

  constructor(
    readonly size: number,
    readonly scratch: Scratch,
    /** The joined rows' times by position. */
    private readonly times: Vec,
    private readonly sides: readonly SideView[],
    /** The positions of the chunk. */
    private readonly rows: Rows,
  ) {
    super();
  }

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
    const { matches, frame } = side;
    const { starts, slices, rows } = matches;
    const type = side.types[local];
    const isDouble = type === 'DOUBLE' || type === 'BOOLEAN';
    const isInt = type === 'INT64' || type === 'TIMESTAMP';
    const f = isDouble ? this.scratch.f64(index, this.size, 'join') : null;
    const n = isInt ? this.scratch.i64(index, this.size, 'join') : null;
    const list: (string | Uint8Array | null)[] | null = isDouble || isInt ? null : new Array(this.size).fill(null);
    const isText = type !== 'BLOB';
    // Values first; validity bits only when some position is null (no match, or a null value).
    // A run is often a few positions long (one per row of the sparser table): the source column
    // is looked up once per batch, not per run.
    let hasNull = false;
    let srcSlice = -1;
    let src: Vec | null = null;
    const count = matches.count;
    for (let r = 0; r < count; r++) {
      const from = r === 0 && starts[0] < lo ? lo : starts[r];
      const to = r + 1 < count ? (starts[r + 1] < hi ? starts[r + 1] : hi) : hi;
      const slice = slices[r];
      if (from >= to) continue;
      if (slice < 0) { hasNull = true; continue; }
      if (slice !== srcSlice) { src = frame(slice).column(local); srcSlice = slice; }
      const row = rows[r];
      if (f !== null && src!.kind === 'f64') {
        const v = src!.values[row];
        for (let k = from; k < to; k++) f[k] = v;
        hasNull ||= src!.validity !== null && !isValidAt(src!.validity, row);
      } else if (n !== null && src!.kind === 'i64') {
        const vl = src!.lo[row << 1];
        const vh = src!.hi[(row << 1) | 1];
        for (let k = from; k < to; k++) {
          n.lo[k << 1] = vl;
          n.hi[(k << 1) | 1] = vh;
        }
        hasNull ||= src!.validity !== null && !isValidAt(src!.validity, row);
      } else {
        const v = scalarAt(src!, row, isText) as string | Uint8Array | null;
        for (let k = from; k < to; k++) list![k] = v;
      }
    }
    if (list !== null) return { kind: 'list', values: list };
    const validity = hasNull ? this.validity(side, local, index) : null;
    return f !== null ? { kind: 'f64', values: f, validity } : { kind: 'i64', values: n!.values, lo: n!.lo, hi: n!.hi, validity };
  }

  /** Validity of a gathered column: the matched row's, none where nothing matched. */
  private validity(side: SideView, local: number, index: number): Uint8Array {
    const { lo, hi } = this.rows;
    const { matches, frame } = side;
    const valid = this.scratch.bits(index, this.size, 'join');
    for (let r = 0; r < matches.count; r++) {
      const from = Math.max(lo, matches.starts[r]);
      const to = Math.min(hi, matches.end(r, hi));
      const slice = matches.slices[r];
      const src = slice < 0 ? null : frame(slice).column(local);
      const isValid = src !== null && (src.kind === 'const' || src.kind === 'list' || isValidAt(src.validity, matches.rows[r]));
      for (let k = from; k < to; k++) setValid(valid, k, isValid);
    }
    return valid;
  }
}
