// The partitions of a plain query with sequence functions and GROUP BY columns: each distinct
// combination of key values is one partition, numbered as met. Sequences run per partition, and
// the rows come out by range, then key values (ascending, nulls last, as GROUP BY orders groups),
// then time.
import { compositeKeyAt } from '../../aggregates/value-key.js';
import type { PlanExpr, Scalar } from '../../plan/plan-expr.js';
import { scalarAt } from '../../vector/scalars.js';
import type { Rows } from '../../vector/vec.js';
import { evalValue } from '../kernels/eval-value.js';
import type { Frame } from '../scan/frame.js';

export class PartitionKeys {
  /** Key values of each partition, by id. */
  readonly keys: Scalar[][] = [];
  private readonly ids = new Map<string, number>();

  constructor(private readonly exprs: readonly PlanExpr[]) {}

  /** The partition id of each position of `rows`, by position. */
  assign(frame: Frame, rows: Rows): Int32Array {
    const vecs = this.exprs.map((e) => evalValue(e, frame, rows));
    const texts = this.exprs.map((e) => e.type !== 'blob');
    const out = frame.scratch.sel(-3, frame.size, 'aux');
    const { sel, lo, hi } = rows;
    for (let k = lo; k < hi; k++) {
      const i = sel === null ? k : sel[k];
      const key = compositeKeyAt(vecs, i, texts);
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.keys.length;
        this.keys.push(vecs.map((v, c) => scalarAt(v, i, texts[c])));
        this.ids.set(key, id);
      }
      out[i] = id;
    }
    return out;
  }
}
