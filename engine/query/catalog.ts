// What the query layer needs from a database: tables to read, entries to find, and the write
// path its INSERT, CREATE and DROP go through. The Database implements it; tests use a small
// in-memory fake over the same write path.
import type { Table } from '../storage/table.js';
import type { WorkerPool } from '../workers/index.js';
import type { WriteOp } from '../write/index.js';
import type { QueryLimits } from './limits.js';
import type { QueryResult } from './result.js';

export interface FindFilter {
  /** Entries carrying every one of these tags. */
  readonly withTags: readonly string[];
  /** Entries carrying none of these tags. */
  readonly withoutTags: readonly string[];
  /** Entries of one of these types; empty = any type. */
  readonly types: readonly ('blob' | 'tag' | 'ts')[];
}

export interface QueryCatalog {
  /** The table named `name`, or undefined when there is none (or the entry is not a table). */
  table(name: string): Table | undefined;
  /** The tags attached to `alias`, sorted ascending. */
  tagsOf(alias: string): string[];
  /** Aliases of the non-expired entries matching `filter`, sorted ascending. */
  findEntries(filter: FindFilter): string[];
  /**
   * Applies `ops` as one atomic write (engine/write/); resolves, per op, whether it changed
   * anything, once durable.
   */
  write(ops: readonly WriteOp[]): Promise<boolean[]>;
  /** The rows the applied `deleteRows` op `id` removed (0 when unknown); asked once, after its write. */
  removedRows(id: string): number;
  /**
   * In a cluster whose nodes hold only some tables' rows (engine/cluster/): where each part of a
   * SELECT runs (statements/run-placed-select.ts). Absent: this node holds every table's rows.
   */
  readonly placement?: PartPlacement;
  /**
   * Worker threads a scan reading at least `minRows` rows is split across (docs/workers.md);
   * absent or null: scans run here.
   */
  readonly parallel?: { readonly pool: WorkerPool; readonly minRows: number } | null;
  /** The materialized view named `name` (SHOW), or undefined when it is none (or absent: no views here). */
  viewOf?(name: string): ViewInfo | undefined;
}

/** A materialized view as SHOW describes it (SPEC §15). */
export interface ViewInfo {
  readonly source: string;
  /** Its SELECT, as written. */
  readonly select: string;
  /** Time ranges its refresher has yet to compute, and how long the oldest has waited (ms). */
  readonly pendingRanges: number;
  readonly lagMs: number;
}

/** One result table of a SELECT and the tables whose rows it reads (an ASOF JOIN reads several). */
export interface SelectPart {
  readonly name: string;
  readonly tables: readonly string[];
}

/** What the node running parts of a SELECT needs to run them as this node would: the same text, instant, limits and time left. */
export interface PartRequest {
  readonly text: string;
  readonly nowNs: bigint;
  readonly deadlineMs: number;
  readonly yieldAfterMs: number;
  readonly limits: QueryLimits;
}

export interface PartPlacement {
  /** True when this node holds the rows of every table of `tables`. */
  holds(tables: readonly string[]): boolean;
  /**
   * Runs `parts` of `request`'s SELECT on nodes that hold their tables (executePart there); one
   * result per node asked, holding those parts' result tables and scanned rows. `isCancelled` is
   * asked while the answers are awaited.
   */
  run(parts: readonly SelectPart[], request: PartRequest, isCancelled: () => boolean): Promise<QueryResult[]>;
}

/**
 * A catalog of fixed tables and nothing else — no entries, no tags, no writes: what planning a
 * SELECT over them needs where no database is at hand (a view's SELECT over its source, a worker
 * thread's part of a scan).
 * @example
 * planSelect(ast, tablesOnlyCatalog(new Map([['t', table]]), 'a view plan'), now, limits);
 */
export function tablesOnlyCatalog(tables: ReadonlyMap<string, Table>, who: string): QueryCatalog {
  return {
    table: (name) => tables.get(name),
    tagsOf: () => [],
    findEntries: () => [],
    write: () => Promise.reject(new Error(`${who} never writes`)),
    removedRows: () => 0,
  };
}
