// The one error catalog of svc. Every failure the engine reports carries a stable string code;
// the server maps codes to HTTP statuses in one table (a Record<ErrorCode, number>), so adding a
// code here without a status is a compile error there.

export const ERROR_CODES = [
  'AliasNotFound', //       no entry with that alias (or it expired)
  'AliasAlreadyExists', //  create of an alias that is in use
  'IncompatibleType', //    the entry exists but has another type (e.g. tag op on a blob)
  'ExpiryNotSupported', //  expiry on a tag or a table
  'ExpiryInPast', //        expiry set to a moment that already passed
  'InvalidArgument', //     malformed input to an API call (bad alias, bad batch, bad option)
  'TableNotFound', //       table op on a missing table
  'ColumnNotFound', //      insert naming a column the table lacks
  'QuerySyntax', //         query text does not parse
  'QuerySemantic', //       query parses but is invalid (unknown column, type mismatch, …)
  'QueryTimeout', //        query ran past its deadline
  'QueryTooLarge', //       query text over the size limit
  'QueryLimit', //          groups, result rows/bytes or condition size over a configured limit
  'QueryCancelled', //      the caller aborted the query (its AbortSignal fired)
  'ReadOnlyQuery', //       a write statement where only reads are allowed (QueryOptions.readOnly)
  'DatabaseLocked', //      data directory already opened by another Database
  'DatabaseClosed', //      call on a closed Database
  'WalCorrupt', //          damaged WAL record before the end of the log
  'CheckpointCorrupt', //   checkpoint file fails its checksum
  'StorageFailed', //       disk write/fsync failed: the engine stops accepting writes until a restart
  'StorageFull', //         free disk space below the floor (or ENOSPC): writes that add data refused until space is back
  'MemoryLimit', //         a write cannot fit in the memory budget even after a checkpoint (retry later)
  'ClusterUnavailable', //  cluster mode: the log (NATS JetStream) did not acknowledge in time, or no node serves a table
  'WorkerFailed', //        a worker thread died or failed while it ran part of the operation (it is replaced: retry)
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The error type thrown by every engine operation that fails. */
export class SvcError extends Error {
  readonly code: ErrorCode;
  /** Character offset of the offending token, for query errors. */
  readonly position: number | undefined;

  constructor(code: ErrorCode, message: string, options?: { position?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SvcError';
    this.code = code;
    this.position = options?.position;
  }
}

export function isSvcError(e: unknown): e is SvcError {
  return e instanceof SvcError;
}
