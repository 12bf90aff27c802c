// Reading and editing query text with the engine's own lexer (grammar/lexer.ts, bundled into the
// page), so strings, quoted names and comments never confuse it: where a SELECT's range clause
// (`IN RANGE(…)` or `IN [RANGE(…), …]`) is, or where one would go (after the sources, before
// WHERE); which columns its GROUP BY names; which names its select list gives. The time-range
// picker replaces or inserts the range there; the console selects the GROUP BY columns the query
// left out, so each group gets its own series on the chart.
import { tokenize } from '../../grammar/lexer.js';
import type { Token } from '../../grammar/lexer.js';
import { unitOf } from '../../grammar/duration.js';

/** A span of the text: [from, to). */
export interface Span {
  readonly from: number;
  readonly to: number;
}

export interface SelectShape {
  /** The top-level range clause (IN and its RANGE or bracketed list), or null when there is none. */
  readonly range: Span | null;
  /** Where a range clause goes when there is none: just after the last source. */
  readonly rangeInsertAt: number;
  /** Columns named in GROUP BY (durations, bare units and `$table` left out). */
  readonly groupColumns: readonly { readonly name: string; readonly text: string }[];
  /** Names the select list gives its columns: a bare column's name or an `AS` name. */
  readonly selectedNames: readonly string[];
  /** The offset of the first select item (where columns can be put in front). */
  readonly selectListAt: number;
}

const end = (t: Token): number => t.offset + t.text.length;
const isWord = (t: Token | undefined, type: string): boolean => t?.type === type;
const isPunct = (t: Token | undefined, text: string): boolean => t !== undefined && t.type === 'op' && t.text === text;

/** Clauses that end the source list (IN is checked apart: only `IN RANGE` / `IN [` starts one). */
const AFTER_SOURCES = new Set(['WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET']);
const AFTER_GROUP_BY = new Set(['HAVING', 'ORDER', 'LIMIT', 'OFFSET']);

/** A column name as written (`"my col"` unquoted) or null for anything else. */
function nameOf(t: Token): string | null {
  if (t.type === 'ident') return t.text;
  if (t.type === 'qident') return t.text.slice(1, -1).replace(/""/g, '"');
  return null;
}

/** Token index of the bracket closing the one at `open` (or the last token when unclosed). */
export function closing(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (tokens[i]!.type !== 'op') continue;
    if (t === '(' || t === '[') depth++;
    if (t === ')' || t === ']') depth--;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

/** Top-level items between token indexes [from, to), split at commas. */
function items(tokens: readonly Token[], from: number, to: number): Token[][] {
  const out: Token[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (t.type === 'op' && (t.text === '(' || t.text === '[')) depth++;
    if (t.type === 'op' && (t.text === ')' || t.text === ']')) depth--;
    if (depth === 0 && isPunct(t, ',')) out.push([]);
    else out[out.length - 1]!.push(t);
  }
  return out.filter((item) => item.length > 0);
}

/** The text's tokens (whitespace and comments left out), or null when it does not lex. */
export function tokensOf(text: string): Token[] | null {
  try {
    return tokenize(text);
  } catch {
    return null;
  }
}

/** The shape of a SELECT, or null when the text is not a SELECT with a FROM (or does not lex). */
export function selectShape(text: string): SelectShape | null {
  const tokens = tokensOf(text);
  if (tokens === null || !isWord(tokens[0], 'SELECT')) return null;
  // Top-level positions of the clauses that matter here.
  let depth = 0;
  let from = -1;
  let sourcesEnd = -1;
  let range: Span | null = null;
  let groupBy = -1;
  let groupEnd = tokens.length;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'op' && (t.text === '(' || t.text === '[')) { depth++; continue; }
    if (t.type === 'op' && (t.text === ')' || t.text === ']')) { depth--; continue; }
    if (depth !== 0) continue;
    if (from < 0) {
      if (t.type === 'FROM') from = i;
      continue;
    }
    const startsRange = t.type === 'IN' && (isWord(tokens[i + 1], 'RANGE') || isPunct(tokens[i + 1], '['));
    if (sourcesEnd < 0 && (startsRange || AFTER_SOURCES.has(t.type ?? '') || isPunct(t, ';'))) sourcesEnd = i;
    if (startsRange && range === null && groupBy < 0) {
      const close = closing(tokens, isPunct(tokens[i + 1], '[') ? i + 1 : i + 2);
      range = { from: t.offset, to: end(tokens[close]!) };
    }
    if (t.type === 'GROUP' && isWord(tokens[i + 1], 'BY')) groupBy = i + 2;
    else if (groupBy >= 0 && groupEnd === tokens.length && i >= groupBy && (AFTER_GROUP_BY.has(t.type ?? '') || isPunct(t, ';') || (t.type === 'ident' && t.text.toLowerCase() === 'fill'))) groupEnd = i;
  }
  if (from < 0 || from + 1 >= tokens.length) return null;
  if (sourcesEnd < 0) sourcesEnd = tokens.length;
  const groupColumns = groupBy < 0 ? [] : items(tokens, groupBy, groupEnd).flatMap((item) => {
    const name = item.length === 1 ? nameOf(item[0]!) : null;
    if (name === null || name === '$table' || (item[0]!.type === 'ident' && unitOf(name) !== undefined)) return [];
    return [{ name, text: item[0]!.text }];
  });
  const selectedNames = items(tokens, 1, from).flatMap((item) => {
    const last = item[item.length - 1]!;
    if (item.length >= 3 && item[item.length - 2]!.type === 'AS') return [nameOf(last) ?? last.text];
    const name = item.length === 1 ? nameOf(item[0]!) : null;
    return name === null ? [] : [name];
  });
  return { range, rangeInsertAt: end(tokens[sourcesEnd - 1]!), groupColumns, selectedNames, selectListAt: tokens[1]!.offset };
}

/** An edit of the text: replace [from, to) by `insert`. */
export interface TextEdit extends Span {
  readonly insert: string;
}

/**
 * The edit that makes a SELECT's range clause `clause` (`IN RANGE(…)`): the old clause replaced,
 * or the new one put after the sources. Null when the text is not a SELECT with a FROM.
 */
export function rangeEdit(text: string, clause: string): TextEdit | null {
  const shape = selectShape(text);
  if (shape === null) return null;
  if (shape.range !== null) return { ...shape.range, insert: clause };
  return { from: shape.rangeInsertAt, to: shape.rangeInsertAt, insert: ` ${clause}` };
}

/** The text of a SELECT's range clause, or null when it has none (or is not a SELECT). */
export function rangeText(text: string): string | null {
  const range = selectShape(text)?.range ?? null;
  return range === null ? null : text.slice(range.from, range.to);
}

export function applyEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
}

/**
 * The GROUP BY columns a SELECT does not select (the answer would not say which group a row is
 * of), and the query that selects them too, first; `toText` maps an offset of that query (an
 * error's position) back into the text. Nothing to add: `added` is empty and the query is the text.
 */
export function withGroupColumns(text: string): { query: string; added: readonly string[]; toText(offset: number): number } {
  const shape = selectShape(text);
  const missing = shape === null ? [] : shape.groupColumns.filter((c) => !shape.selectedNames.includes(c.name));
  if (shape === null || missing.length === 0) return { query: text, added: [], toText: (offset) => offset };
  const at = shape.selectListAt;
  const insert = `${missing.map((c) => c.text).join(', ')}, `;
  return {
    query: applyEdit(text, { from: at, to: at, insert }),
    added: missing.map((c) => c.name),
    // An offset in the query sent, back in the text (inside the added columns: where they go).
    toText: (offset) => (offset < at ? offset : offset < at + insert.length ? at : offset - insert.length),
  };
}

/** A table or column name as the language reads it: bare when it lexes as one name, else quoted. */
export function quoteName(name: string): string {
  const tokens = tokensOf(name);
  const isBare = tokens !== null && tokens.length === 1 && tokens[0]!.type === 'ident' && tokens[0]!.text === name;
  return isBare ? name : `"${name.replace(/"/g, '""')}"`;
}
