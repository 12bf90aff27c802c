// Constructors for the errors a query can end with. Every planner error carries the offset of the
// offending token so a person can find it in the query text (SPEC §6 "Errors carry the offset").
import { SvcError } from '../errors.js';
import { isQuerySyntaxError } from '../../grammar/index.js';

/** The query parses but means nothing valid: unknown names, wrong types, misplaced aggregates. */
export function semanticError(message: string, offset: number): SvcError {
  return new SvcError('QuerySemantic', `${message} (at offset ${offset})`, { position: offset });
}

/** Turns the grammar's syntax error into the engine's error type; rethrows anything else. */
export function toSyntaxError(e: unknown): SvcError {
  if (isQuerySyntaxError(e)) return new SvcError('QuerySyntax', e.message, { position: e.offset, cause: e });
  throw e;
}
