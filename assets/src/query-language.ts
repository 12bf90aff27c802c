// CodeMirror 6 support for the svc query language (SPEC §6): a StreamLanguage tokenizer that
// tells keywords, functions, durations, time literals, strings, numbers and `$` columns apart,
// and a completion source offering keywords, functions (the engine's registry) and the table and
// column names the server reported (find(type=ts) and SHOW).
import { StreamLanguage } from '@codemirror/language';
import type { StringStream } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';

export const KEYWORDS = [
  'select', 'from', 'in', 'range', 'where', 'group', 'by', 'having', 'order', 'asc', 'desc', 'limit', 'offset', 'as',
  'and', 'or', 'not', 'find', 'tag', 'type', 'create', 'table', 'if', 'exists', 'drop', 'insert', 'into', 'values',
  'show', 'shard_size', 'double', 'int64', 'timestamp', 'string', 'blob', 'symbol', 'boolean', 'ts', 'null',
  'true', 'false', 'alter', 'add', 'column',
  'asof', 'join', 'left', 'right', 'full', 'with', 'months', 'days', 'time', 'fill', 'prev', 'linear',
  'delete', 'duplicate', 'tags', 'ttl', 'set', 'materialized', 'view',
];

/** Every function the engine knows (its registry), for highlighting and completion. */
export const FUNCTIONS: readonly string[] = FUNCTION_DOCS.map((f) => f.name);

const TIME_WORDS = ['now', 'today', 'yesterday', 'tomorrow', 'epoch', 'end_of_time'];
const UNITS = 'ns|us|ms|s|min|h|d|w|mon|y|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|months?|years?';
const DURATION = new RegExp(`^\\d+(?:\\.\\d+)?\\s?(?:${UNITS})(?![\\w$])(?:\\s?\\d+\\s?(?:${UNITS})(?![\\w$]))*`, 'i');
const TIME_POINT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?Z?|^\d{4}(?=\s*[,)\]])|^\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?/;
const KEYWORD_SET = new Set(KEYWORDS);
const FUNCTION_SET = new Set(FUNCTIONS);
const TIME_SET = new Set(TIME_WORDS);
const UNIT_WORDS = new Set(['day', 'hour', 'minute', 'second', 'week', 'month', 'year', 'min', 'h', 'd', 'w', 'mon', 'y', 's', 'ms', 'us', 'ns']);

interface State {
  /** The previous significant word: a bare unit counts as a duration after GROUP BY. */
  lastWord: string;
}

function token(stream: StringStream, state: State): string | null {
  if (stream.eatSpace()) return null;
  if (stream.match('--')) { stream.skipToEnd(); return 'comment'; }
  if (stream.match(/^'(?:[^']|'')*'?/)) return 'string';
  if (stream.match(/^"(?:[^"]|"")*"?/)) return 'variableName';
  if (stream.match(TIME_POINT)) return 'atom';
  if (stream.match(DURATION)) return 'unit';
  if (stream.match(/^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?/i)) return 'number';
  if (stream.match(/^\$[\w$.]*/)) return 'systemColumn';
  const word = stream.match(/^[A-Za-z_][\w$.]*/) as RegExpMatchArray | null;
  if (word !== null) {
    const w = word[0].toLowerCase();
    const previous = state.lastWord;
    state.lastWord = w;
    if (FUNCTION_SET.has(w) && stream.match(/^\s*\(/, false)) return 'aggregate';
    if (TIME_SET.has(w)) return 'atom';
    if (KEYWORD_SET.has(w)) return 'keyword';
    if ((previous === 'by' || previous === ',') && UNIT_WORDS.has(w)) return 'unit';
    return 'variableName';
  }
  if (stream.match(/^(?:!=|<=|>=|!~\*|~\*|!~|[=<>~+\-*/])/)) return 'operator';
  const ch = stream.next();
  if (ch === ',') state.lastWord = ',';
  return ch === '(' || ch === ')' || ch === '[' || ch === ']' ? 'bracket' : 'punctuation';
}

export const svcQueryLanguage = StreamLanguage.define<State>({
  name: 'svc-query',
  startState: () => ({ lastWord: '' }),
  token,
  tokenTable: { unit: tags.unit, aggregate: tags.function(tags.variableName), systemColumn: tags.special(tags.variableName) },
  languageData: { commentTokens: { line: '--' } },
});

/** What completion knows about the database, filled as the browse calls come back. */
export interface Schema {
  tables: string[];
  /** Per table, its columns and their types as SHOW gives them. */
  columns: Map<string, { name: string; type: string }[]>;
  /** The tables SHOW said are materialized views (SPEC §15), each with its source. */
  views: Map<string, string>;
}

export function completionSource(schema: Schema) {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\w$."]*/);
    if (word === null || (word.from === word.to && !context.explicit)) return null;
    const options = [
      ...schema.tables.map((t) => ({ label: t, type: 'class', detail: 'table' })),
      ...[...new Set([...schema.columns.values()].flat().map((c) => c.name))].map((c) => ({ label: c, type: 'property', detail: 'column' })),
      ...FUNCTIONS.map((f) => ({ label: f, type: 'function', apply: `${f}(` })),
      ...KEYWORDS.map((k) => ({ label: k.toUpperCase(), type: 'keyword' })),
      ...TIME_WORDS.map((t) => ({ label: t, type: 'constant' })),
    ];
    return { from: word.from, options, validFor: /^[\w$.]*$/ };
  };
}
