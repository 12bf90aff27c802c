// The result limits of one query (limits.ts): rows per result table and estimated bytes over all
// tables, charged before values are copied into result columns, so an oversized result stops
// with QueryLimit while its memory is still a batch away from being taken.
import type { QueryLimits } from '../../limits.js';
import { limitError } from '../../limits.js';
import type { ResultTable } from '../../result.js';
import type { Rows, Vec } from '../../vector/vec.js';

/** Per string or blob: a JS string header or a Uint8Array view, beside its bytes. */
const PER_VALUE = 16;
/** A number, a time, or a reference into an array of strings. */
const PER_SLOT = 8;

export class ResultBudget {
  private bytes = 0;

  constructor(private readonly limits: QueryLimits) {}

  /** Forgets the bytes counted so far: a streamed result handed out what it had built. */
  reset(): void {
    this.bytes = 0;
  }

  /** Before `count` rows join a result table already holding `held`. */
  rows(held: number, count: number): void {
    const max = this.limits.maxResultRows;
    if (held + count > max) throw limitError('the result has too many rows', 'maxResultRows', max);
  }

  /** Before the values of `vecs` at `rows`, and a time per row, are copied into a result. */
  values(vecs: readonly Vec[], rows: Rows): void {
    const n = rows.hi - rows.lo;
    let bytes = n * PER_SLOT;
    for (const v of vecs) bytes += valueBytes(v, rows, n);
    this.bytes += bytes;
    const max = this.limits.maxResultBytes;
    if (this.bytes > max) throw limitError('the result takes too many bytes (estimated)', 'maxResultBytes', max);
  }
}

/**
 * The result's estimated bytes, counted as the budget counts them while a result is built, against
 * maxResultBytes: for results put together from parts run on other nodes (run-placed-select.ts).
 */
export function checkResultBytes(tables: readonly ResultTable[], limits: QueryLimits): void {
  let bytes = 0;
  for (const t of tables) {
    bytes += t.rowCount * PER_SLOT;
    for (const c of t.columns) {
      if (c.values instanceof Float64Array || c.values instanceof BigInt64Array) {
        bytes += t.rowCount * PER_SLOT;
        continue;
      }
      bytes += t.rowCount * PER_VALUE;
      for (const v of c.values) bytes += v?.length ?? 0;
    }
  }
  const max = limits.maxResultBytes;
  if (bytes > max) throw limitError('the result takes too many bytes (estimated)', 'maxResultBytes', max);
}

function valueBytes(v: Vec, rows: Rows, n: number): number {
  const { sel, lo, hi } = rows;
  switch (v.kind) {
    case 'bytes': {
      const off = v.offsets;
      if (sel === null) return off[hi] - off[lo] + n * PER_VALUE;
      let b = n * PER_VALUE;
      for (let k = lo; k < hi; k++) b += off[sel[k] + 1] - off[sel[k]];
      return b;
    }
    case 'list': {
      let b = n * PER_VALUE;
      for (let k = lo; k < hi; k++) b += v.values[sel === null ? k : sel[k]]?.length ?? 0;
      return b;
    }
    default:
      return n * PER_SLOT;
  }
}
