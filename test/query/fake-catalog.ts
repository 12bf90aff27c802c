// An in-memory QueryCatalog for the query tests: real engine Tables (shards, sealed batches,
// tails, late-row merges) without a WAL or a data directory. Small `batchRows` makes many batches.
import { normalizeBatch } from '../../engine/storage/batch-input.js';
import { SvcError } from '../../engine/errors.js';
import { Table } from '../../engine/storage/table.js';
import type { ColumnDef } from '../../engine/types.js';
import type { FindFilter, QueryCatalog } from '../../engine/query/index.js';

type EntryType = 'blob' | 'tag' | 'ts';

export class FakeCatalog implements QueryCatalog {
  private readonly tables = new Map<string, Table>();
  private readonly types = new Map<string, EntryType>();
  private readonly tags = new Map<string, Set<string>>();

  constructor(private readonly batchRows = 8) {}

  table(name: string): Table | undefined {
    return this.tables.get(name);
  }

  findEntries(filter: FindFilter): string[] {
    return [...this.types.keys()].filter((alias) => {
      const tags = this.tags.get(alias) ?? new Set();
      if (filter.types.length > 0 && !filter.types.includes(this.types.get(alias)!)) return false;
      return filter.withTags.every((t) => tags.has(t)) && !filter.withoutTags.some((t) => tags.has(t));
    }).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  async createTable(name: string, columns: ColumnDef[], options: { shardSize?: bigint; ifNotExists: boolean }): Promise<boolean> {
    if (this.types.has(name)) {
      if (options.ifNotExists && this.types.get(name) === 'ts') return false;
      throw new SvcError('AliasAlreadyExists', `'${name}' exists`);
    }
    this.tables.set(name, new Table(name, columns, options.shardSize, this.batchRows));
    this.types.set(name, 'ts');
    return true;
  }

  async dropTable(name: string, ifExists: boolean): Promise<boolean> {
    if (!this.tables.has(name)) {
      if (ifExists) return false;
      throw new SvcError('AliasNotFound', `no table '${name}'`);
    }
    this.tables.delete(name);
    this.types.delete(name);
    this.tags.delete(name);
    return true;
  }

  async insert(name: string, batch: Record<string, unknown>): Promise<void> {
    const table = this.tables.get(name);
    if (table === undefined) throw new SvcError('TableNotFound', `no table '${name}'`);
    table.insert(normalizeBatch(name, table.columns, batch));
  }

  /** Test set-up: a blob or tag entry, and tags on any entry. */
  addEntry(alias: string, type: EntryType): void {
    this.types.set(alias, type);
  }

  attachTag(alias: string, tag: string): void {
    if (!this.types.has(tag)) this.types.set(tag, 'tag');
    let set = this.tags.get(alias);
    if (set === undefined) { set = new Set(); this.tags.set(alias, set); }
    set.add(tag);
  }
}
