// Regex conditions (`~ !~ ~* !~*`, SPEC §6) on strings, symbols and blobs. Symbols are tested
// once per dictionary entry; strings and blobs are decoded as UTF-8 per row (blob bytes that are
// not UTF-8 read as U+FFFD, so patterns over text inside binary data still match). A null value
// passes neither `~` nor `!~`. A match takes time linear in its string (plan/query-regex.ts), but
// a string may be long: the deadline is read every 64 rows.
import type { Deadline } from '../../deadline.js';
import type { PlanExpr } from '../../plan/plan-expr.js';
import { byFlags } from './compare-kernels.js';
import { dictionaryFlags } from './dictionary-flags.js';
import type { Frame } from '../scan/frame.js';
import { utf8At } from '../../vector/scalars.js';
import type { Rows, Vec } from '../../vector/vec.js';
import { isValidAt } from '../../vector/vec.js';

type Regex = PlanExpr & { kind: 'regex' };

export function regexRows(e: Regex, v: Vec, frame: Frame, rows: Rows, out: Int32Array, deadline: Deadline): number {
  const re = e.regex;
  const want = !e.isNegated;
  const { sel, lo, hi } = rows;
  let n = 0;
  switch (v.kind) {
    case 'dict': {
      const flags = dictionaryFlags(e, v.dictionary, (s) => re.test(s) === want);
      return byFlags(v, flags, rows, out);
    }
    case 'bytes':
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        if ((k & 63) === 0) deadline.checkNow();
        if (isValidAt(v.validity, i) && re.test(utf8At(v.offsets, v.data, i)) === want) out[n++] = i;
      }
      return n;
    case 'list':
      for (let k = lo; k < hi; k++) {
        const i = sel === null ? k : sel[k];
        if ((k & 63) === 0) deadline.checkNow();
        const s = v.values[i];
        if (s !== null && re.test(typeof s === 'string' ? s : new TextDecoder().decode(s)) === want) out[n++] = i;
      }
      return n;
    case 'const': {
      const s = v.value;
      if (typeof s !== 'string' || re.test(s) !== want) return 0;
      for (let k = lo; k < hi; k++) out[n++] = sel === null ? k : sel[k];
      return n;
    }
    default:
      throw new Error(`planner bug: regex on ${v.kind}`);
  }
}
