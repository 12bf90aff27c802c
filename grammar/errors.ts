// The one error the query front end throws for bad input. It carries the character offset of the
// offending token and, in words, what the grammar expected there, so a person can fix the query.

export class QuerySyntaxError extends Error {
  /** Matches `ErrorCode` 'QuerySyntax' of engine/errors.ts, which maps it to HTTP 400. */
  readonly code = 'QuerySyntax' as const;
  /** Character offset (UTF-16 index) of the offending token; the text length at end of input. */
  readonly offset: number;
  /** What would have been valid at `offset`: keywords (`FROM`), quoted punctuation (`','`) or
   * classes of tokens (`a name`, `a number`). Empty when the token itself is malformed. */
  readonly expected: readonly string[];

  constructor(offset: number, expected: readonly string[], message: string) {
    super(message);
    this.name = 'QuerySyntaxError';
    this.offset = offset;
    this.expected = expected;
  }
}

export function isQuerySyntaxError(e: unknown): e is QuerySyntaxError {
  return e instanceof QuerySyntaxError;
}
