// What the query layer needs from a database: tables to read, entries to find, and the write
// path its INSERT, CREATE and DROP go through. The Database implements it; tests use a small
// in-memory fake over the same write path.
import type { Table } from '../storage/table.js';
import type { WriteOp } from '../write/index.js';

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
  /** Aliases of the non-expired entries matching `filter`, sorted ascending. */
  findEntries(filter: FindFilter): string[];
  /**
   * Applies `ops` as one atomic write (engine/write/); resolves, per op, whether it changed
   * anything, once durable.
   */
  write(ops: readonly WriteOp[]): Promise<boolean[]>;
}
