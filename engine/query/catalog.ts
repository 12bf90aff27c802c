// What the query layer needs from a database: tables to read, entries to find, and the three
// writes a query can make. The Database implements it; tests use a small in-memory fake.
import type { Table } from '../storage/table.js';
import type { ColumnDef } from '../types.js';

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
  /** Creates a table; resolves false when it existed and `ifNotExists` is set. Durable when resolved. */
  createTable(name: string, columns: ColumnDef[], options: { shardSize?: bigint; ifNotExists: boolean }): Promise<boolean>;
  /** Drops a table; resolves false when it was absent and `ifExists` is set. Durable when resolved. */
  dropTable(name: string, ifExists: boolean): Promise<boolean>;
  /** Inserts a columnar batch (`$timestamp` plus columns). Durable when resolved. */
  insert(name: string, batch: Record<string, unknown>): Promise<void>;
}
