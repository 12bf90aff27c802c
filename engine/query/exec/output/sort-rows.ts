// ORDER BY over built output columns: a stable sort of row numbers. Nulls sort after every value
// in ascending order (first in descending order); NaN sorts after numbers, before null. Strings
// compare by UTF-16 code units, blobs byte-wise, int64 through their 32-bit halves.
import type { OrderKey } from '../../plan/plan-types.js';
import type { ColumnBuilder } from './column-builder.js';
import { compareBytes } from '../../plan/value-order.js';
import { int64Halves } from '../../vector/vec.js';

type Compare = (a: number, b: number) => number;

/** Row numbers in ORDER BY order; ties keep their order in `base` (row order when null). */
export function sortRows(count: number, keys: readonly OrderKey[], columns: readonly ColumnBuilder[], base: Int32Array | null = null): Int32Array {
  const order = base === null ? Array.from({ length: count }, (_, i) => i) : Array.from(base);
  const rank = base === null ? null : new Int32Array(count);
  if (base !== null) base.forEach((row, k) => { rank![row] = k; });
  const compares = keys.map((k) => keyCompare(columns[k.output], k.isDescending));
  order.sort((a, b) => {
    for (const c of compares) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return rank === null ? a - b : rank[a] - rank[b];
  });
  return Int32Array.from(order);
}

function keyCompare(col: ColumnBuilder, isDescending: boolean): Compare {
  const values = valueCompare(col);
  const sign = isDescending ? -1 : 1;
  return (a, b) => {
    const na = col.isNull(a);
    const nb = col.isNull(b);
    if (na || nb) return na === nb ? 0 : (na ? 1 : -1) * sign;
    return values(a, b) * sign;
  };
}

function valueCompare(col: ColumnBuilder): Compare {
  switch (col.kind) {
    case 'f64': {
      const x = col.doubles;
      return (a, b) => {
        const p = x[a];
        const q = x[b];
        if (p < q) return -1;
        if (p > q) return 1;
        if (p === q) return 0;
        return p !== p ? (q !== q ? 0 : 1) : -1;
      };
    }
    case 'i64': {
      const { lo, hi } = int64Halves(col.int64s);
      return (a, b) => {
        const ha = hi[(a << 1) | 1];
        const hb = hi[(b << 1) | 1];
        if (ha !== hb) return ha < hb ? -1 : 1;
        const la = lo[a << 1];
        const lb = lo[b << 1];
        return la < lb ? -1 : la > lb ? 1 : 0;
      };
    }
    case 'text': {
      const v = col.values as readonly string[];
      return (a, b) => (v[a] < v[b] ? -1 : v[a] > v[b] ? 1 : 0);
    }
    case 'bytes': {
      const v = col.values as readonly Uint8Array[];
      return (a, b) => compareBytes(v[a], v[b]);
    }
  }
}
