// parse(text): query text → one Statement, or a QuerySyntaxError saying, in words, what was
// expected at the offending token's offset. The Earley parser (nearley) returns every parse; a
// correct grammar gives exactly one, so more than one is a grammar bug, not a user error.
import nearley from 'nearley';
import type { Statement } from './ast.js';
import { QuerySyntaxError } from './errors.js';
import { QueryLexer, type Token } from './lexer.js';
import { finishStatement } from './build.js';
import { parseInsertInSteps } from './insert-fast-path.js';
import compiledGrammar from './generated-grammar.js';

const grammar = nearley.Grammar.fromCompiled(compiledGrammar as unknown as nearley.CompiledRules);

/** Internal shape of nearley's parse table (not in @types/nearley), read to list expectations. */
interface EarleyColumn {
  readonly states: readonly {
    readonly rule: { readonly name: string; readonly symbols: readonly unknown[] };
    readonly dot: number;
  }[];
}

// How error messages name token classes; keywords are named by their type (`FROM`).
const TOKEN_CLASS_WORDS: Readonly<Record<string, string>> = {
  ident: 'a name', qident: 'a name', number: 'a number', string: 'a string', datetime: 'a time', duration: 'a duration',
};

// Operators collapse into "an operator" when several are possible, to keep messages short.
const OPERATORS: ReadonlySet<string> = new Set([
  "'+'", "'-'", "'*'", "'/'", "'='", "'!='", "'<'", "'<='", "'>'", "'>='", "'~'", "'!~'", "'~*'", "'!~*'", 'AND', 'OR', 'IN', 'NOT',
]);

/**
 * Parses one statement (a trailing `;` is allowed).
 * @example parse("SELECT sum(close) FROM stocks IN RANGE(2017, +1d) GROUP BY 1h").kind // 'Select'
 * @throws QuerySyntaxError for any invalid text; Error only for a grammar bug (ambiguity).
 */
export function parse(text: string): Statement {
  return drain(parseInSteps(text, Infinity));
}

/**
 * Parses one statement a slice at a time: each `next()` reads up to `tokensPerStep` more tokens
 * and the last one returns the statement (or throws as `parse` does). The Earley parser costs a
 * few µs a token, so a query text of 1 MiB takes over a second: its caller (the engine) lets the
 * event loop run between steps, and may stop there. Short texts should call `parse`.
 */
export function* parseInSteps(text: string, tokensPerStep: number): Generator<void, Statement, void> {
  if (INSERT_START.test(text)) {
    const insert = yield* parseInsertInSteps(text, tokensPerStep * FAST_TOKENS_PER_EARLEY_TOKEN);
    if (insert !== null) return insert;
  }
  const results = yield* parseAllInSteps(text, tokensPerStep);
  if (results.length !== 1) {
    throw new Error(`grammar bug: ${results.length} parses of ${JSON.stringify(text.slice(0, 200))}`);
  }
  return results[0] as Statement;
}

/** Texts that may be an INSERT the fast path reads (insert-fast-path.ts); others skip it. */
const INSERT_START = /^\s*insert/i;
/** The fast path reads a token in about a tenth of the Earley parser's time: as many more a step. */
const FAST_TOKENS_PER_EARLEY_TOKEN = 10;

/** Every parse of the text (exactly one for valid text: tests assert it). */
export function parseAll(text: string): Statement[] {
  return drain(parseAllInSteps(text, Infinity));
}

/** Runs a stepwise parse to its end. */
function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

let earleyRuns = 0;

/** How many Earley parses have run in this process (the parse-shape cache's tests count them). */
export function earleyParses(): number {
  return earleyRuns;
}

function* parseAllInSteps(text: string, tokensPerStep: number): Generator<void, Statement[], void> {
  earleyRuns++;
  const lexer = new QueryLexer();
  const parser = new nearley.Parser(grammar, { lexer });
  // nearley formats its whole parse table into the message of a failure; we write our own.
  Object.assign(parser, { reportError: () => 'syntax error', reportLexerError: () => 'syntax error' });
  for (let chunk = text; ; chunk = '') {
    lexer.budget = tokensPerStep;
    try {
      parser.feed(chunk);
    } catch (e) {
      if (e instanceof QuerySyntaxError) throw e;
      const token = (e as { token?: Token }).token;
      if (token === undefined) throw e;
      throw unexpectedToken(token, expectedIn(columnsOf(parser).at(-2)));
    }
    if (!lexer.isPaused) break;
    yield;
  }
  if (lexer.error !== null) throw lexer.error;
  const results = parser.results as Statement[];
  if (results.length === 0) {
    const expected = expectedIn(columnsOf(parser).at(-1));
    throw new QuerySyntaxError(text.length, expected, `unexpected end of input at offset ${text.length}, expected ${joinWords(expected)}`);
  }
  return results.map(finishStatement);
}

function columnsOf(parser: nearley.Parser): EarleyColumn[] {
  return (parser as unknown as { table: EarleyColumn[] }).table;
}

function unexpectedToken(token: Token, expected: string[]): QuerySyntaxError {
  const found = token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text;
  return new QuerySyntaxError(token.offset, expected, `expected ${joinWords(expected)} at offset ${token.offset}, found '${found}'`);
}

/** The terminals some state of the column waits for, in words, without duplicates. */
function expectedIn(column: EarleyColumn | undefined): string[] {
  const words = new Set<string>();
  let isComplete = false;
  for (const state of column?.states ?? []) {
    const symbol = state.rule.symbols[state.dot];
    if (symbol !== undefined && typeof symbol !== 'string') words.add(describeSymbol(symbol));
    if (state.rule.name === grammar.start && symbol === undefined) isComplete = true;
  }
  const all = [...words];
  const collapsed = all.filter((w) => OPERATORS.has(w)).length < 3 ? all : [...all.filter((w) => !OPERATORS.has(w)), 'an operator'];
  // A complete statement followed by more text: say that stopping there was also fine.
  return isComplete ? [...collapsed, 'end of input'] : collapsed;
}

function describeSymbol(symbol: unknown): string {
  const s = symbol as { type?: string; literal?: string; description?: string };
  if (s.description !== undefined) return s.description;
  if (s.literal !== undefined) return `'${s.literal}'`;
  return TOKEN_CLASS_WORDS[s.type ?? ''] ?? s.type ?? 'something else';
}

/** ['A', 'B', 'C'] → "A, B or C". */
function joinWords(words: readonly string[]): string {
  if (words.length === 0) return 'nothing more';
  return words.length === 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
