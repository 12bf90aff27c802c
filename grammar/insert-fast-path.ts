// INSERT without the Earley parser. `INSERT INTO t (cols) VALUES (…), (…)` is the one statement
// whose texts grow with the data (a client batching 1,000 rows sends ~8,000 tokens), and nearley
// spends ~2 µs a token on it (a 1,000-row INSERT: ~18 ms of parse against ~1.5 ms of lexing), so
// over HTTP it bounded bulk inserts at ~40 K rows/s. Its grammar (insert.ne) is LL(1): one token
// of look-ahead decides every step, so this walk reads the lexer's tokens once and builds the tree
// with the very builders the grammar's postprocessors call. It gives up (null) at the first token
// it does not expect, or when a builder or the lexer refuses a token: the caller then runs the
// Earley parse, which reports the error exactly as before. A differential test holds the two to
// the same trees (test/grammar/insert-fast-path.test.ts).
import type { BooleanLiteral, Insert, InsertValue, NullLiteral, NumberLiteral, StringLiteral } from './ast.js';
import * as b from './build.js';
import { listItems } from './list-builder.js';
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
  try {
    return yield* walkInsert(text, tokensPerStep);
  } catch {
    // A builder refused a token (an empty quoted name, a year out of range, a number too
    // large): the Earley parse says so in its own words and at its own moment.
    return null;
  }
}

function* walkInsert(text: string, tokensPerStep: number): Generator<void, Insert | null, void> {
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
  // The tuples, read from the characters themselves when they are plain (see scanRows); on
  // anything else the token walk below reads them, from the same place.
  const scanned = yield* scanRows(text, values.offset + values.text.length, tokensPerStep, left);
  if (scanned !== null) return { kind: 'Insert', offset: insert.offset, table: b.nameOf(table), tableOffset: table.offset, columns: listItems(names).map((n) => b.column([n])), rows: scanned };
  let rows: ListView<InsertValue[]> | null = null;
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

// ---------------------------------------------------------------------------------------------
// The tuples without the lexer. A 1,000-row INSERT is ~8,000 tokens of which nearly all are
// numbers, commas and parentheses; lexing them with moo (its combined regex per token, a token
// object each) was ~40 % of a parse. This scanner reads those characters itself and builds the
// very nodes the builders build (number, negativeNumber, positiveNumber, string, nullLiteral,
// booleanLiteral). It accepts a strict subset of what the lexer reads the same way: a value is
// followed by a space, tab, CR, LF, ',' or ')' (so no duration, time, time of day or bad number
// can start where it read a number), and anything else — comments, other whitespace, time words,
// time literals, `- 3`, a number too large — makes it give up (null) having built nothing that
// counts, and the token walk reads the tuples instead.

const SPACE = 32, TAB = 9, LF = 10, CR = 13, OPEN = 40, CLOSE = 41, COMMA = 44, SEMI = 59;
const PLUS = 43, MINUS = 45, DOT = 46, ZERO = 48, NINE = 57, QUOTE = 39;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === CR;
}

/** True for the characters a scanned value may be followed by. */
function endsValue(c: number): boolean {
  return c === COMMA || c === CLOSE || isSpace(c);
}

/** Exported for the differential test only. */
export function* scanRows(text: string, from: number, tokensPerStep: number, tokensLeft: number): Generator<void, InsertValue[][] | null, void> {
  const end = text.length;
  const rows: InsertValue[][] = [];
  let left = tokensLeft;
  let i = from;
  for (;;) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== OPEN) return null;
    i++;
    const row: InsertValue[] = [];
    for (;;) {
      while (i < end && isSpace(text.charCodeAt(i))) i++;
      const value = scanValue(text, i);
      if (value === null) return null;
      row.push(value);
      i = scanEnd;
      while (i < end && isSpace(text.charCodeAt(i))) i++;
      const c = text.charCodeAt(i++);
      left -= 2;
      if (c === CLOSE) break;
      if (c !== COMMA) return null;
    }
    rows.push(row);
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i === end) return rows;
    const c = text.charCodeAt(i++);
    if (c === SEMI) {
      while (i < end && isSpace(text.charCodeAt(i))) i++;
      return i === end ? rows : null;
    }
    if (c !== COMMA) return null;
    left -= 2;
    if (left <= 0) {
      left = tokensPerStep;
      yield;
    }
  }
}

/** Where the value scanValue read ends (a module variable: no object per value). */
let scanEnd = 0;

/** The value starting at `i` (its end in scanEnd), or null when it is not one the scanner reads. */
function scanValue(text: string, i: number): InsertValue | null {
  const c = text.charCodeAt(i);
  if (c >= ZERO && c <= NINE) return scanNumber(text, i, i);
  if (c === MINUS || c === PLUS) {
    const d = text.charCodeAt(i + 1);
    if (!(d >= ZERO && d <= NINE)) return null;
    const n = scanNumber(text, i + 1, i);
    if (n === null) return null;
    if (c === PLUS) return n;
    return n.isInteger
      ? { kind: 'Number', offset: i, isInteger: true, value: -n.value, text: `-${n.text}` }
      : { kind: 'Number', offset: i, isInteger: false, value: -n.value, text: `-${n.text}` };
  }
  if (c === QUOTE) return scanString(text, i);
  return scanWord(text, i);
}

/** The number token at `start` as the builder `number` makes it, at `offset`; null past a double. */
function scanNumber(text: string, start: number, offset: number): NumberLiteral | null {
  let i = start;
  let c = text.charCodeAt(i);
  let whole = 0;
  while (c >= ZERO && c <= NINE) {
    whole = whole * 10 + (c - ZERO);
    c = text.charCodeAt(++i);
  }
  const digits = i - start;
  let isInteger = true;
  if (c === DOT) {
    const d = text.charCodeAt(i + 1);
    if (!(d >= ZERO && d <= NINE)) return null;
    isInteger = false;
    i += 2;
    for (c = text.charCodeAt(i); c >= ZERO && c <= NINE; c = text.charCodeAt(++i));
  }
  if (c === 101 || c === 69) { // e E
    let j = i + 1;
    const s = text.charCodeAt(j);
    if (s === PLUS || s === MINUS) j++;
    const d = text.charCodeAt(j);
    if (!(d >= ZERO && d <= NINE)) return null;
    isInteger = false;
    i = j + 1;
    for (c = text.charCodeAt(i); c >= ZERO && c <= NINE; c = text.charCodeAt(++i));
  }
  if (i < text.length && !endsValue(c)) return null;
  scanEnd = i;
  const t = text.slice(start, i);
  if (isInteger) return { kind: 'Number', offset, isInteger: true, value: digits <= 15 ? BigInt(whole) : BigInt(t), text: t };
  const value = Number(t);
  if (!Number.isFinite(value)) return null;
  return { kind: 'Number', offset, isInteger: false, value, text: t };
}

/** A quoted string ('' for a quote) as the builder `string` makes it. */
function scanString(text: string, start: number): StringLiteral | null {
  let i = start + 1;
  let doubled = false;
  for (;;) {
    const q = text.indexOf("'", i);
    if (q < 0) return null;
    if (text.charCodeAt(q + 1) === QUOTE) {
      doubled = true;
      i = q + 2;
      continue;
    }
    i = q + 1;
    break;
  }
  if (i < text.length && !endsValue(text.charCodeAt(i))) return null;
  scanEnd = i;
  const inner = text.slice(start + 1, i - 1);
  return { kind: 'String', offset: start, value: doubled ? inner.replaceAll("''", "'") : inner };
}

/** NULL, TRUE or FALSE in any case; null for any other word. */
function scanWord(text: string, start: number): NullLiteral | BooleanLiteral | null {
  let i = start;
  for (let c = text.charCodeAt(i); (c >= 65 && c <= 90) || (c >= 97 && c <= 122); c = text.charCodeAt(++i));
  if (i - start < 4 || i - start > 5 || (i < text.length && !endsValue(text.charCodeAt(i)))) return null;
  const word = text.slice(start, i).toLowerCase();
  scanEnd = i;
  if (word === 'null') return { kind: 'Null', offset: start };
  if (word === 'true') return { kind: 'Boolean', offset: start, value: true };
  if (word === 'false') return { kind: 'Boolean', offset: start, value: false };
  return null;
}
