// The moo lexer of the query language, wrapped as a nearley lexer. It owns everything the grammar
// never mentions: whitespace, `--` comments, keyword case, quoting, and the shape of numbers,
// time literals and durations. Malformed tokens become QuerySyntaxError at their offset.
//
// Lexing decisions (moo takes the first rule that matches, so order matters):
// - `2017-01-01…` is one time literal (no spaces: `2017 - 01 - 01` is arithmetic).
// - digits followed by a unit are a duration (`10min`, `1h30min`, `1y 2mon`, `2 days`); `1e5` is
//   a number; digits followed by other letters (`5m`) are an error, not a number and a name.
// - `2017` is a number token; the grammar reads it as a year where a time point is required.
// - identifiers cannot start with a digit, so `1s` is never a name.
import moo from 'moo';
import { QuerySyntaxError } from './errors.js';
import { UNIT_SPELLINGS, parseDurationText, unitOf } from './duration.js';
import { isValidTimeText, parseTimeLiteral, parseTimeOfDay, REPRESENTABLE_TIMES } from './time.js';

/** A token as nearley sees it (moo's token: type, value = text as written, offset, …). */
export type Token = moo.Token;

/** Reserved words: their tokens have the uppercase word as type (grammar: `%SELECT`). A column
 * with such a name must be double-quoted. Other words (units, types, `tag`) stay names. */
export const KEYWORDS = [
  'select', 'from', 'in', 'range', 'where', 'group', 'by', 'having', 'order', 'asc', 'desc',
  'limit', 'offset', 'as', 'and', 'or', 'not', 'find', 'create', 'table', 'if', 'exists', 'drop',
  'insert', 'into', 'values', 'show', 'null', 'true', 'false', 'now', 'today', 'yesterday', 'tomorrow', 'epoch',
  'end_of_time',
] as const;

const keywordType = moo.keywords(Object.fromEntries(KEYWORDS.map((k) => [k.toUpperCase(), k])));

// Letters: ASCII plus the Latin, Greek, Cyrillic, kana, CJK and Hangul blocks. moo forbids
// mixing /u with plain literals, so Unicode property escapes are not available.
const LETTER = 'A-Za-z\\u00C0-\\u024F\\u0370-\\u03FF\\u0400-\\u04FF\\u3040-\\u30FF\\u4E00-\\u9FFF\\uAC00-\\uD7AF';
const NAME_CHAR = `${LETTER}0-9_$.`;
const NOT_NAME_CHAR = `(?![${NAME_CHAR}])`;

// Unit names in any case (`1H`, `2 Days`): moo forbids the /i flag, so spell each letter as [xX].
const UNIT = `(?:${UNIT_SPELLINGS.map((u) => [...u].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})`;
// A duration: parts of digits and a unit (`1h30min`, `1y 2mon`, `2 days`). A space may separate a
// number from its unit because a number followed by a name is valid nowhere else in the grammar.
const DURATION = `\\d+\\s*${UNIT}(?:\\s*\\d+\\s*${UNIT})*${NOT_NAME_CHAR}`;

// Rule order is match priority. A space and the single-character punctuation that starts no
// longer token come first, so moo answers them from a table by character code instead of running
// its combined regex (it only does so for the rules before the first regex rule): that halves
// the lexing time of a typical query, which is most of a parse-shape cache hit.
const rules: moo.Rules = {
  punct: { match: ['(', ')', '[', ']', ',', ';', '=', '+', '*', '/'], type: () => 'op' },
  space: ' ',
  ws: { match: /\s+/, lineBreaks: true },
  comment: /--[^\n]*/,
  datetime: /\d{4}-\d{2}-\d{2}(?:[Tt][0-9:.]*)?[Zz]?/,
  // A time of day (`WITH TIME IN (08:00, 17:30:15)`); ':' appears nowhere else.
  timeOfDay: /\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?![0-9:.])/,
  duration: { match: new RegExp(DURATION), lineBreaks: true },
  number: new RegExp(`\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?${NOT_NAME_CHAR}`),
  badNumber: new RegExp(`\\d[${NAME_CHAR}]*`),
  ident: { match: new RegExp(`[${LETTER}_$][${NAME_CHAR}]*`), type: (text: string) => keywordType(text.toLowerCase()) },
  qident: { match: /"(?:[^"]|"")*"/, lineBreaks: true },
  string: { match: /'(?:[^']|'')*'/, lineBreaks: true },
  unterminated: { match: /['"][^]*/, lineBreaks: true },
  op: ['!~*', '!~', '~*', '!=', '<=', '>=', '<', '>', '~', '-'],
  invalid: moo.error,
};

// Compiled once; each QueryLexer clones it (cheap) so two parses never share lexer state.
// (`clone` exists in moo 0.5 but is missing from @types/moo.)
const compiledRules = moo.compile(rules) as moo.Lexer & { clone(): moo.Lexer };

/** Deepest bracket nesting accepted: far beyond real queries, small enough to fail fast. */
export const MAX_NESTING = 256;

/** Token types the grammar may name with `%type`; anything else `%X` is a tester below. */
const TOKEN_TYPES: ReadonlySet<string> = new Set([
  'datetime', 'timeOfDay', 'duration', 'number', 'ident', 'qident', 'string', 'op',
  ...KEYWORDS.map((k) => k.toUpperCase()),
]);

/**
 * A nearley lexer over one query text. Tokens are produced lazily. A malformed token ends the
 * token stream and is kept in `error` for `parse` to throw: throwing here would make nearley wrap
 * it in a plain Error after formatting its whole parse table.
 */
export class QueryLexer {
  private readonly moo = compiledRules.clone();
  /** Open '(' and '[' not yet closed; bounded so deep nesting fails fast (see MAX_NESTING). */
  private nesting = 0;
  /** The lexing failure that ended the stream, if any; `parse` rethrows it. */
  error: QuerySyntaxError | null = null;
  /**
   * Tokens still to give before the stream pauses (`isPaused`): nearley's `feed` takes tokens
   * until `next()` returns nothing, so a budget lets a long text be parsed a slice at a time.
   */
  budget = Infinity;
  /** True when `next()` stopped for the budget rather than at the end of the text or an error. */
  isPaused = false;

  /**
   * nearley calls this at every `feed`, with the state it saved after the previous one: that is
   * a paused stream going on (where it stopped, whatever the chunk); without it, a new text.
   */
  reset(text: string, state?: unknown): void {
    this.isPaused = false;
    if (state !== undefined) return;
    this.moo.reset(text);
    this.nesting = 0;
    this.error = null;
  }

  next(): Token | undefined {
    if (this.budget <= 0) {
      this.isPaused = true;
      return undefined;
    }
    this.budget -= 1;
    for (let token = this.moo.next(); token !== undefined; token = this.moo.next()) {
      if (token.type === 'space' || token.type === 'ws' || token.type === 'comment') continue;
      this.error = checkToken(token) ?? this.checkNesting(token);
      return this.error === null ? token : undefined;
    }
    return undefined;
  }

  private checkNesting(token: Token): QuerySyntaxError | null {
    if (token.text === '(' || token.text === '[') this.nesting += 1;
    if (token.text === ')' || token.text === ']') this.nesting -= 1;
    return this.nesting > MAX_NESTING
      ? new QuerySyntaxError(token.offset, [], `more than ${MAX_NESTING} nested parentheses at offset ${token.offset}`)
      : null;
  }

  save(): moo.LexerState {
    return this.moo.save();
  }

  formatError(token: Token, message = 'syntax error'): string {
    return `${message} at offset ${token.offset}`;
  }

  has(type: string): boolean {
    return TOKEN_TYPES.has(type);
  }
}

/** The lexer named by the grammar (`@lexer lexer`); `parse` uses a fresh QueryLexer per call. */
export const lexer = new QueryLexer();

/** Lexes a whole text (for tests and tools): every token but whitespace and comments. */
export function tokenize(text: string): Token[] {
  const lx = new QueryLexer();
  lx.reset(text);
  const tokens: Token[] = [];
  for (let t = lx.next(); t !== undefined; t = lx.next()) tokens.push(t);
  if (lx.error !== null) throw lx.error;
  return tokens;
}

// Rejects tokens that have the right outline but bad content; null when the token is fine.
export function checkToken(token: Token): QuerySyntaxError | null {
  const at = token.offset;
  switch (token.type) {
    case 'datetime':
      if (parseTimeLiteral(token.text) !== null) return null;
      return isValidTimeText(token.text)
        ? new QuerySyntaxError(at, [], `time '${token.text}' at offset ${at} is outside the representable range: ${REPRESENTABLE_TIMES}`)
        : new QuerySyntaxError(at, [], `invalid time '${token.text}' at offset ${at}: expected YYYY-MM-DD[THH:MM[:SS[.fraction]]][Z], a valid UTC date`);
    case 'timeOfDay':
      return parseTimeOfDay(token.text) !== null ? null
        : new QuerySyntaxError(at, [], `invalid time of day '${token.text}' at offset ${at}: expected hh:mm[:ss[.fraction]] from 00:00 to 24:00`);
    case 'duration': {
      const d = parseDurationText(token.text);
      return 'message' in d ? new QuerySyntaxError(at + d.index, [], `${d.message} (at offset ${at + d.index})`) : null;
    }
    case 'badNumber': {
      // `5m`, `1x`: digits then letters that are no unit; say which part is wrong.
      const d = /^\d+[A-Za-z]+$/.test(token.text) ? parseDurationText(token.text) : null;
      return d !== null && 'message' in d
        ? new QuerySyntaxError(at + d.index, [], `${d.message} (at offset ${at + d.index})`)
        : new QuerySyntaxError(at, [], `invalid number or duration '${token.text}' at offset ${at}`);
    }
    case 'unterminated':
      return new QuerySyntaxError(at, [], `unterminated ${token.text.startsWith("'") ? 'string' : 'quoted name'} starting at offset ${at}`);
    case 'invalid':
      return new QuerySyntaxError(at, [], `unexpected character '${token.text.charAt(0)}' at offset ${at}`);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Contextual words: names that mean something in one place only (`tag` in FIND, `DOUBLE` in
// CREATE TABLE, `day` in a RANGE offset). They stay usable as column names elsewhere. The
// grammar names these testers with `%`; `description` is what error messages call them.

/** A nearley terminal that matches tokens by a predicate. */
export interface WordTester {
  readonly test: (token: Token) => boolean;
  readonly description: string;
}

function word(description: string, ...words: string[]): WordTester {
  const set = new Set(words);
  return { test: (t) => t.type === 'ident' && set.has(t.value.toLowerCase()), description };
}

export const TAG_WORD = word('TAG', 'tag');
export const TYPE_WORD = word('TYPE', 'type');
export const ENTRY_TYPE = word('BLOB, TAG or TS', 'blob', 'tag', 'ts');
export const COLUMN_TYPE = word('a column type (DOUBLE, INT64, TIMESTAMP, STRING, BLOB, SYMBOL, BOOLEAN)',
  'double', 'int64', 'timestamp', 'string', 'blob', 'symbol', 'boolean');
export const SYMBOL_WORD = word('SYMBOL', 'symbol');
export const SHARD_SIZE_WORD = word('SHARD_SIZE', 'shard_size');
export const ALTER_WORD = word('ALTER', 'alter');
export const ADD_WORD = word('ADD', 'add');
export const COLUMN_WORD = word('COLUMN', 'column');
// Lifecycle (SPEC §14): CREATE TABLE … WITH TAGS=[…] TTL d, ALTER TABLE … SET TTL d | DROP TTL,
// DELETE FROM …: contextual, so columns named `ttl`, `tags` or `delete` keep working.
export const TAGS_WORD = word('TAGS', 'tags');
export const TTL_WORD = word('TTL', 'ttl');
export const SET_WORD = word('SET', 'set');
export const DELETE_WORD = word('DELETE', 'delete');
// Rollups (SPEC §15): CREATE | DROP MATERIALIZED VIEW; contextual, so a table named `view` keeps working.
export const MATERIALIZED_WORD = word('MATERIALIZED', 'materialized');
export const VIEW_WORD = word('VIEW', 'view');
// The as-of join, calendar filters and FILL (SPEC §6, beyond the core): contextual, so tables
// and columns named `left`, `time` or `days` keep working.
export const ASOF_WORD = word('ASOF', 'asof');
export const JOIN_WORD = word('JOIN', 'join');
export const JOIN_KIND = word('LEFT, RIGHT or FULL', 'left', 'right', 'full');
export const WITH_WORD = word('WITH', 'with');
export const MONTHS_WORD = word('MONTHS', 'months');
export const DAYS_WORD = word('DAYS', 'days');
export const TIME_WORD = word('TIME', 'time');
export const FILL_WORD = word('FILL', 'fill');
export const FILL_MODE = word('NULL, PREV, LINEAR or a number', 'prev', 'linear');
export const UNIT_WORD: WordTester = {
  test: (t) => t.type === 'ident' && unitOf(t.value) !== undefined,
  description: 'a duration',
};
