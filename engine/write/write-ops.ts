// What a write asks for: one operation per change, several of them forming one atomic write
// (WritePath.write). Producers — the embedded API, the query language's INSERT/CREATE/DROP, the
// ingest protocols — convert their input into these once; the write path validates them against
// the catalog once, logs them and applies them. Rows travel as typed columns by name
// (ColumnValues: numbers in typed arrays with a byte-per-row null mask), never as values to convert.
import type { ColumnValues } from '../storage/column-values.js';
import type { ColumnDef, TimeToLive } from '../types.js';

/**
 * Rows for one table: `$timestamp` (int64 ns, any order) and columns by name, each as long as
 * `ts`. A column of the table not named here is null in these rows. The arrays are read during
 * the write call (and copied if the write has to wait for memory), never kept.
 */
export interface TableRows {
  readonly ts: BigInt64Array;
  readonly columns: { readonly [name: string]: ColumnValues };
}

export type WriteOp =
  /**
   * A table; `ifNotExists`: an existing table is left as it is (the op then changes nothing, its
   * tags and TTL included). `tags` are attached to the new table; `ttl` is its time to live.
   */
  | {
    readonly kind: 'createTable'; readonly name: string; readonly columns: readonly ColumnDef[]; readonly shardSize?: bigint; readonly ifNotExists?: boolean;
    readonly ttl?: TimeToLive; readonly tags?: readonly string[];
  }
  /** ALTER TABLE … SET TTL (or DROP TTL: null): rows already there follow the new cutoff. */
  | { readonly kind: 'setTtl'; readonly table: string; readonly ttl: TimeToLive | null }
  /**
   * DELETE, for one table: the rows of `table` its `statement` (a DELETE text, planned again for
   * the table at `nowNs` wherever the write is applied) matches. `id` names the count of rows it
   * removed (QueryCatalog.removedRows), unique per op.
   */
  | { readonly kind: 'deleteRows'; readonly table: string; readonly statement: string; readonly nowNs: bigint; readonly id: string }
  /** The shards of `table` ending at or before `before` leave it (TTL removal, retention by size). */
  | { readonly kind: 'dropShards'; readonly table: string; readonly before: bigint }
  | { readonly kind: 'dropTable'; readonly name: string; readonly ifExists?: boolean }
  /**
   * CREATE MATERIALIZED VIEW: view `name` keeping what `select` (a SELECT … FROM `source` … GROUP
   * BY duration text, SPEC §15) answers; `ifNotExists`: an existing view is left as it is. `ttl`
   * bounds the view's own rows (its source's TTL never does).
   */
  | { readonly kind: 'createView'; readonly name: string; readonly source: string; readonly select: string; readonly ifNotExists?: boolean; readonly ttl?: TimeToLive }
  | { readonly kind: 'dropView'; readonly name: string; readonly ifExists?: boolean }
  /**
   * Columns appended to a table (rows already there read them as null). A name the table already
   * has is an error, unless `ifMissing`: then a column of the same type is left as it is (the op
   * adds the others) and one of another type is still an error.
   */
  | { readonly kind: 'addColumns'; readonly table: string; readonly columns: readonly ColumnDef[]; readonly ifMissing?: boolean }
  | { readonly kind: 'insert'; readonly table: string; readonly rows: TableRows }
  /**
   * A blob's content: `create` fails when the alias is in use; otherwise it replaces a blob's
   * content (or creates it), keeping its expiry unless `expiry` is given (UNIX seconds, 0 = never).
   */
  | { readonly kind: 'putBlob'; readonly alias: string; readonly data: Uint8Array; readonly mime: string; readonly expiry?: number; readonly create: boolean }
  | { readonly kind: 'remove'; readonly alias: string }
  | { readonly kind: 'setExpiry'; readonly alias: string; readonly expiry: number }
  | { readonly kind: 'attachTag'; readonly alias: string; readonly tag: string }
  | { readonly kind: 'detachTag'; readonly alias: string; readonly tag: string }
  /** Removes those of `aliases` that are expired when the write runs (the expiry sweep). */
  | { readonly kind: 'sweep'; readonly aliases: readonly string[] };

export type WriteOpKind = WriteOp['kind'];
