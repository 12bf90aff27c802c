// The regular expressions of `~ !~ ~* !~*`, compiled so that no pattern can hold the process.
// V8's backtracking engine takes exponential time on patterns like `(a+)+$` (a 29-character
// string held the event loop 19 s, deadline or not). V8 also has a linear-time engine, run here
// as a fallback once a match backtracks more than a few thousand times (the flags below are set
// once, process-wide: they change no result, only how a runaway match is finished). That engine
// has no backreferences, lookaround, counted repeats over 16 or ignore-case, so:
// - a pattern it cannot run is refused (InfluxDB and ClickHouse, on RE2, refuse the first two);
// - `~*` is not compiled with the `i` flag but rewritten: every letter, outside classes and
//   inside them, matches the characters JavaScript's case-insensitive matching equates with it
//   (`a` → `[aA]`, `[a-c]` → `[a-cA-C]`), which the linear engine runs.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString('--regexp-backtracks-before-fallback=2000');
// Only so that the `l` flag below compiles: it is how V8 says whether its linear engine can run a pattern.
setFlagsFromString('--enable-experimental-regexp-engine');

/** The compiled pattern, or the reason it is refused (a message for the user). */
export function compileQueryRegex(pattern: string, isCaseInsensitive: boolean): RegExp {
  new RegExp(pattern); // a syntax error is reported on the pattern as written
  const source = isCaseInsensitive ? caseless(pattern) : pattern;
  if (source === null) throw new SyntaxError('this case-insensitive pattern uses a class escape as a range bound, which svc cannot rewrite; use ~ with explicit classes');
  try {
    new RegExp(source, 'l');
  } catch {
    throw new SyntaxError('it cannot be matched in linear time (backreferences, lookaround and repeat counts over 16 are not supported: write x{16}x{4} for x{20})');
  }
  return new RegExp(source);
}

/**
 * The characters JavaScript's non-unicode ignore-case matching equates with `c`: those of the same
 * Canonicalize (ES §22.2.2.7.3). Found by one pass over every code unit, on first use, since the
 * classes are not just lower and upper case (σ, ς and Σ are one).
 */
function caseVariants(c: number): readonly number[] {
  if (sameCase === null) {
    sameCase = new Map();
    for (let u = 0; u < 0x10000; u++) {
      const canon = canonicalize(String.fromCharCode(u));
      const list = sameCase.get(canon);
      if (list === undefined) sameCase.set(canon, [u]);
      else list.push(u);
    }
  }
  return sameCase.get(canonicalize(String.fromCharCode(c)))!;
}

let sameCase: Map<string, number[]> | null = null;

function canonicalize(ch: string): string {
  const u = ch.toUpperCase();
  if (u.length !== 1) return ch;
  return ch.charCodeAt(0) >= 128 && u.charCodeAt(0) < 128 ? ch : u;
}

/** `pattern` with every letter made to match its other cases; null when it cannot be rewritten. */
function caseless(pattern: string): string | null {
  // Without named groups, `\k` is just the letter k (non-unicode syntax), not a backreference.
  const hasNamedGroups = /\(\?<[^=!]/.test(pattern);
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '[') {
      const end = classEnd(pattern, i);
      const rewritten = caselessClass(pattern.slice(i + 1, end));
      if (rewritten === null) return null;
      out += rewritten;
      i = end + 1;
    } else if (c === '\\') {
      const esc = escapeAt(pattern, i, hasNamedGroups, false);
      out += esc.code === null ? esc.text : charClass(esc.code, esc.text);
      i += esc.text.length;
    } else if (c === '(' && pattern.startsWith('(?<', i) && !pattern.startsWith('(?<=', i) && !pattern.startsWith('(?<!', i)) {
      const close = pattern.indexOf('>', i);
      out += pattern.slice(i, close + 1); // a group name is not text to match
      i = close + 1;
    } else {
      out += charClass(c.charCodeAt(0), c);
      i += 1;
    }
  }
  return out;
}

const BACKSLASH = 0x5c;

/** A character outside classes: itself, or a class of its case variants. */
function charClass(code: number, text: string): string {
  const variants = caseVariants(code);
  if (variants.length > 1) return `[${variants.map(classChar).join('')}]`;
  return code === BACKSLASH && text === '\\' ? classChar(code) : text;
}

/** Index of the `]` closing the class opened at `open` (a `]` right after `[` closes it: JS syntax). */
function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length; // unreachable for a pattern that compiled
}

/** `[body]` with the case variants of its members added (to a negated class too: /[^a]/i refuses A). */
function caselessClass(body: string): string | null {
  const isNegated = body.startsWith('^');
  const items = isNegated ? body.slice(1) : body;
  const extra = new Set<number>();
  const addVariants = (lo: number, hi: number) => {
    for (let c = lo; c <= hi; c++) for (const v of caseVariants(c)) if (v < lo || v > hi) extra.add(v);
  };
  // Written again member by member, a lone '-' escaped, so that what is appended cannot make a
  // range with a trailing '-' (`[s-]` + S is not `[s-S]`); the backslash of a bare `\c` too.
  let members = '';
  let i = 0;
  while (i < items.length) {
    const lo = memberAt(items, i);
    i += lo.text.length;
    if (items[i] === '-' && i + 1 < items.length) {
      const hi = memberAt(items, i + 1);
      if (lo.code === null || hi.code === null) return null; // `[\d-z]`: '-' is then a literal
      addVariants(lo.code, hi.code);
      members += `${lo.text === '\\' ? classChar(lo.code) : lo.text}-${hi.text === '\\' ? classChar(hi.code) : hi.text}`;
      i += 1 + hi.text.length;
      continue;
    }
    if (lo.code !== null) addVariants(lo.code, lo.code);
    members += lo.text === '-' || lo.text === '\\' ? classChar(lo.code!) : lo.text;
  }
  return `[${isNegated ? '^' : ''}${members}${[...extra].sort((a, b) => a - b).map(classChar).join('')}]`;
}

/** One member of a class: an escape or a character, with the code it stands for (null: a set like \d). */
function memberAt(s: string, i: number): { text: string; code: number | null } {
  if (s[i] !== '\\') return { text: s[i], code: s.charCodeAt(i) };
  const esc = escapeAt(s, i, false, true);
  // Inside a class \b is a backspace.
  return esc.text === '\\b' ? { text: esc.text, code: 8 } : esc;
}

/**
 * The escape at `s[i]` (a backslash), with the character it stands for, or null for \d, \b, \1, …;
 * `\k<name>` is a backreference only where the pattern has named groups.
 */
function escapeAt(s: string, i: number, hasNamedGroups: boolean, isInClass: boolean): { text: string; code: number | null } {
  const e = s[i + 1] ?? '';
  const hex = (n: number) => {
    const digits = s.slice(i + 2, i + 2 + n);
    return /^[0-9a-fA-F]+$/.test(digits) && digits.length === n ? { text: s.slice(i, i + 2 + n), code: parseInt(digits, 16) } : null;
  };
  if (e === 'x') return hex(2) ?? { text: '\\x', code: 'x'.charCodeAt(0) };
  if (e === 'u') return hex(4) ?? { text: '\\u', code: 'u'.charCodeAt(0) };
  // `\cJ` is a control character (in a class `\c1` and `\c_` too); a `\c` without its letter
  // is a backslash, and the c after it is read on its own.
  if (e === 'c' && (isInClass ? /[A-Za-z0-9_]/ : /[A-Za-z]/).test(s[i + 2] ?? '')) return { text: s.slice(i, i + 3), code: null };
  if (e === 'c') return { text: '\\', code: BACKSLASH };
  const nameEnd = s.indexOf('>', i);
  if (e === 'k' && hasNamedGroups && s[i + 2] === '<' && nameEnd > i) return { text: s.slice(i, nameEnd + 1), code: null };
  if (/[0-9]/.test(e)) {
    let j = i + 1;
    while (/[0-9]/.test(s[j] ?? '')) j++;
    return { text: s.slice(i, j), code: null };
  }
  // Class escapes, anchors and control characters stand for no letter; any other escaped
  // character (`\.`, or `\a` in non-unicode syntax) stands for itself.
  return { text: s.slice(i, i + 2), code: 'dDwWsSbBtnrfv0'.includes(e) ? null : e.charCodeAt(0) };
}

/** A code unit written safely inside a class. */
function classChar(c: number): string {
  return `\\u${c.toString(16).padStart(4, '0')}`;
}
