// `x [NOT] IN (constants)`: one hash probe per row (plan/value-set.ts), whatever the number of
// values. int64 and timestamps are probed by their 32-bit halves and strings by their UTF-8 bytes,
// so no row allocates; symbols are decided once per dictionary entry. Null rows pass neither IN
// nor NOT IN.
import type { PlanExpr } from '../../plan/plan-expr.js';
import { byFlags } from './compare-kernels.js';
import { dictionaryFlags } from './dictionary-flags.js';
import type { Frame } from '../scan/frame.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt, TWO_32 } from '../../vector/vec.js';

type In = PlanExpr & { kind: 'in' };

/** Writes the positions of `rows` whose value is (IN) or is not (NOT IN) in the set; returns their count. */
export function inRows(e: In, v: Vec, frame: Frame, rows: Rows, out: Int32Array): number {
  const set = e.set;
  const want = !e.isNegated;
  const { sel, lo, hi } = rows;
  let n = 0;
  switch (v.kind) {
    case 'f64': {
      const f = set.f64!;
      const x = v.values;
      const valid = v.validity;
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        if (valid !== null && !isValidAt(valid, i)) continue;
        if (f.has(x[i]) === want) out[n++] = i;
      }
      return n;
    }
    case 'i64': {
      const exact = set.int64;
      const doubles = set.f64 !== null && set.f64.size > 0 ? set.f64 : null;
      const vh = v.hi;
      const vl = v.lo;
      const valid = v.validity;
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        if (valid !== null && !isValidAt(valid, i)) continue;
        const h = vh[(i << 1) | 1];
        const l = vl[i << 1];
        // An int64 meets a double literal as a double (SPEC §6), exactly as `x = 2.0` does.
        const isIn = (exact !== null && exact.has(h, l)) || (doubles !== null && doubles.has(h * TWO_32 + l));
        if (isIn === want) out[n++] = i;
      }
      return n;
    }
    case 'dict': {
      const texts = set.texts!;
      return byFlags(v, dictionaryFlags(e, v.dictionary, (s) => texts.has(s) === want), rows, out);
    }
    case 'bytes': {
      const bytes = set.bytes!;
      const off = v.offsets;
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        if (isValidAt(v.validity, i) && bytes.has(v.data, off[i], off[i + 1]) === want) out[n++] = i;
      }
      return n;
    }
    case 'list':
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        const s = v.values[i];
        if (s !== null && set.hasScalar(s) === want) out[n++] = i;
      }
      return n;
    case 'const':
      if (v.value === null || set.hasScalar(v.value) !== want) return 0;
      for (let k = lo; k < hi; k++) out[n++] = sel === null ? k : sel[k];
      return n;
  }
}
