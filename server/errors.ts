// The server's one error boundary. Engine failures carry an ErrorCode from engine/errors.ts;
// failures only the HTTP layer knows (no token, unknown route, body too large, …) carry an
// HttpErrorCode. One Record maps both to statuses, so a code added to either list without a
// status is a compile error here. Anything else is a bug: a 500, logged once with its stack,
// answered with a message that reveals nothing of the inside.
import { isSvcError } from '../engine/index.js';
import type { ErrorCode } from '../engine/index.js';

export const HTTP_ERROR_CODES = [
  'BadRequest', //        malformed parameters, body or JSON
  'Unauthorized', //      missing, malformed, forged or expired token; bad credentials
  'Forbidden', //         an admin route asked with the token of a user who is not an admin
  'RouteNotFound', //     no route has this path
  'NodeNotFound', //      GET /api/nodes/:id of a node this cluster does not have
  'MethodNotAllowed', //  the path is known, the method is not
  'BodyTooLarge', //      request body over max_in_buffer_size
  'UnknownAction', //     PATCH with an action the bridge does not know (SPEC §3: 422)
  'NotReady', //          the database is still opening (recovery)
  'InvalidLineProtocol', // a line-protocol request that does not parse or fit the tables (names the line)
  'InvalidPrometheusRequest', // a remote write/read body that is not snappy-compressed prompb
  'InternalError', //     a bug: anything that is not an SvcError or HttpError
] as const;

export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

export const STATUS_OF: Record<ErrorCode | HttpErrorCode, number> = {
  AliasNotFound: 404,
  AliasAlreadyExists: 422,
  IncompatibleType: 422,
  ExpiryNotSupported: 422,
  ExpiryInPast: 422,
  InvalidArgument: 400,
  TableNotFound: 404,
  ColumnNotFound: 400,
  QuerySyntax: 400,
  QuerySemantic: 400,
  QueryTimeout: 400, // not 408, which clients retry on their own (SPEC §8)
  QueryTooLarge: 413,
  QueryLimit: 400,
  QueryCancelled: 400,
  ReadOnlyQuery: 400,
  DatabaseLocked: 503,
  DatabaseClosed: 503,
  WalCorrupt: 503,
  CheckpointCorrupt: 503,
  StorageFailed: 503,
  StorageFull: 507, // Insufficient Storage (RFC 4918): ends by itself once space is freed (SPEC §14)
  MemoryLimit: 503, // with Retry-After: memory frees up as checkpoints complete
  ClusterUnavailable: 503,
  WorkerFailed: 503, // the pool replaces the worker: a retry runs on a fresh one
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  RouteNotFound: 404,
  NodeNotFound: 404,
  MethodNotAllowed: 405,
  BodyTooLarge: 413,
  UnknownAction: 422,
  NotReady: 503,
  InvalidLineProtocol: 400,
  InvalidPrometheusRequest: 400,
  InternalError: 500,
};

/** A failure of the HTTP layer itself; `headers` go out with the error reply (e.g. `Allow`). */
export class HttpError extends Error {
  constructor(readonly code: HttpErrorCode, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What an error becomes on the wire (SPEC §8): status, the JSON body, extra headers. */
export interface ErrorReply {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** True for a bug: the caller logs the stack once. */
  readonly isBug: boolean;
}

/** A write refused for memory may succeed once a checkpoint has made memory evictable. */
const RETRY_LATER: Readonly<Record<string, string>> = { 'Retry-After': '1' };

export function errorReply(e: unknown): ErrorReply {
  if (e instanceof HttpError) return reply(e.code, e.message, undefined, e.headers, false);
  if (isSvcError(e)) {
    const message = e.code === 'ReadOnlyQuery' ? `${e.message}; send writes to POST /api/query` : e.message;
    return reply(e.code, message, e.position, e.code === 'MemoryLimit' ? RETRY_LATER : {}, false);
  }
  return reply('InternalError', 'internal server error; the server logged the details', undefined, {}, true);
}

function reply(code: ErrorCode | HttpErrorCode, message: string, position: number | undefined, headers: Readonly<Record<string, string>>, isBug: boolean): ErrorReply {
  const status = STATUS_OF[code];
  const body = position === undefined
    ? JSON.stringify({ code: status, error: code, message })
    : JSON.stringify({ code: status, error: code, message, position });
  return { status, body, headers, isBug };
}
