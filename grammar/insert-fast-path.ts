// INSERT without the Earley parser. `INSERT INTO t (cols) VALUES (…), (…)` is the one statement
// whose texts grow with the data (a client batching 1,000 rows sends ~8,000 tokens), and nearley
// spends ~2 µs a token on it (a 1,000-row INSERT: ~18 ms of parse against ~1.5 ms of lexing), so
// over HTTP it bounded bulk inserts at ~40 K rows/s. Its grammar (insert.ne) is LL(1): one token
// of look-ahead decides every step, so this walk reads the lexer's tokens once and builds the tree
// with the very builders the grammar's postprocessors call. It gives up (null) at the first token
// it does not expect, or when a builder or the lexer refuses a token: the caller then runs the
// Earley parse, which reports the error exactly as before. A differential test holds the two to
// the same trees (test/grammar/insert-fast-path.test.ts).
import type { Insert, InsertValue } from './ast.js';
import * as b from './build.js';
import type { ListView } from './list-builder.js';
import { QueryLexer } from './lexer.js';
import type { Token } from './lexer.js';

/** The words that may stand alone or as `word()` for a time point (time.ne's timeWord). */
const TIME_WORDS: ReadonlySet<string> = new Set(['NOW', 'TODAY', 'YESTERDAY', 'TOMORROW', 'EPOCH', 'END_OF_TIME']);

/**
 * The Insert statement of `text` when it is one the walk can read (steps of `tokensPerStep` tokens,
 * yielding between them, as parseInSteps does), else null — including for every invalid text.
 */
export function* parseInsertInSteps(text: string, tokensPerStep: number): Generator<void, Insert | null, void> {
  const lexer = new QueryLexer();
  lexer.reset(text);
  let left = tokensPerStep;
  const next = (): Token | undefined => {
    left--;
    return lexer.next();
  };
  let t = next();
  if (t?.type !== 'INSERT') return null;
  const insert = t;
  const into = next();
  const table = next();
  const open = next();
  if (into?.type !== 'INTO' || !isName(table) || !isPunct(open, '(')) return null;
  let names: ListView<Token> | null = null;
  for (let comma = open; ; comma = t!) {
    const name = next();
    if (!isName(name)) return null;
    names = names === null ? b.list([name]) : b.append([names, comma, name]);
    t = next();
    if (isPunct(t, ')')) break;
    if (!isPunct(t, ',')) return null;
  }
  const close = t;
  const values = next();
  if (values?.type !== 'VALUES') return null;
  let rows: ListView<InsertValue[]> | null = null;
  try {
    for (let rowComma = values; ; rowComma = t!) {
      const rowOpen = next();
      if (!isPunct(rowOpen, '(')) return null;
      let items: ListView<InsertValue> | null = null;
      for (let comma = rowOpen; ; comma = t!) {
        const first = next();
        const value = first === undefined ? null : readValue(first, next);
        if (value === null) return null;
        items = items === null ? b.list([value.value]) : b.append([items, comma, value.value]);
        t = value.after;
        if (isPunct(t, ')')) break;
        if (!isPunct(t, ',')) return null;
      }
      const row = b.row([rowOpen, items]);
      rows = rows === null ? b.list([row]) : b.append([rows, rowComma, row]);
      t = next();
      if (t === undefined || isPunct(t, ';')) break;
      if (!isPunct(t, ',')) return null;
      if (left <= 0) {
        left = tokensPerStep;
        yield;
      }
    }
    if (t !== undefined && next() !== undefined) return null;
  } catch {
    // A builder refused a literal (a year out of range, a number too large): the Earley parse
    // says so in its own words and at its own moment.
    return null;
  }
  if (lexer.error !== null) return null;
  return b.insert([insert, into!, table!, open!, names, close!, values, rows]);
}

/** A value of insert.ne and the token after it (read here because `now()` takes two more). */
function readValue(t: Token, next: () => Token | undefined): { value: InsertValue; after: Token | undefined } | null {
  switch (t.type) {
    case 'number': return { value: b.number([t]), after: next() };
    case 'string': return { value: b.string([t]), after: next() };
    case 'NULL': return { value: b.nullLiteral([t]), after: next() };
    case 'TRUE':
    case 'FALSE': return { value: b.booleanLiteral([t]), after: next() };
    case 'datetime': return { value: b.absoluteTime([t]), after: next() };
    case 'op': {
      if (t.text !== '-' && t.text !== '+') return null;
      const n = next();
      if (n?.type !== 'number') return null;
      return { value: t.text === '-' ? b.negativeNumber([t, n]) : b.positiveNumber([t, n]), after: next() };
    }
    default: {
      if (!TIME_WORDS.has(t.type ?? '')) return null;
      const value = b.timeWord([t]);
      const after = next();
      if (!isPunct(after, '(')) return { value, after };
      // `now()`: the parentheses add nothing (time.ne: timeWord "(" ")" → the word's value).
      return isPunct(next(), ')') ? { value, after: next() } : null;
    }
  }
}

function isName(t: Token | undefined): t is Token {
  return t !== undefined && (t.type === 'ident' || t.type === 'qident');
}

function isPunct(t: Token | undefined, text: string): t is Token {
  return t !== undefined && t.type === 'op' && t.text === text;
}
