// An in-memory QueryCatalog for the query tests: real engine Tables (shards, sealed batches,
// tails, late-row merges) and the real write path, without a WAL or a data directory. Small
// `batchRows` makes many batches.
import { EntryStore } from '../../engine/catalog/entry-store.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { unboundedContext } from '../../engine/storage/storage-context.js';
import { toTableRows } from '../../engine/write/columnar-input.js';
import type { ColumnarBatch } from '../../engine/write/columnar-input.js';
import type { Table } from '../../engine/storage/table.js';
import type { ColumnDef } from '../../engine/types.js';
import { EngineCounters } from '../../engine/figures.js';
import { WritePath } from '../../engine/write/index.js';
import type { WriteOp } from '../../engine/write/index.js';
import { removalOfStatement } from '../../engine/query/index.js';
import type { FindFilter, QueryCatalog } from '../../engine/query/index.js';

export class FakeCatalog implements QueryCatalog {
  private readonly store: EntryStore;
  private readonly writes: WritePath;

  constructor(batchRows = 8) {
    this.store = new EntryStore(unboundedContext(batchRows), removalOfStatement);
    // No WAL: a commit is applied at once, as the local log applies it once written.
    const log = { commit: async (records: readonly WalRecord[]) => { for (const r of records) this.store.apply(r); }, readBarrier: () => null, failure: null, isAppliedAtCommit: true };
    this.writes = new WritePath(this.store, log, new EngineCounters());
  }

  table(name: string): Table | undefined {
    const e = this.store.entries.get(name);
    return e?.type === 'ts' ? e.table : undefined;
  }

  findEntries(filter: FindFilter): string[] {
    return [...this.store.entries].filter(([alias, e]) => {
      const tags = this.store.tagsOf.get(alias) ?? new Set();
      if (filter.types.length > 0 && !filter.types.includes(e.type)) return false;
      return filter.withTags.every((t) => tags.has(t)) && !filter.withoutTags.some((t) => tags.has(t));
    }).map(([alias]) => alias).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  write(ops: readonly WriteOp[]): Promise<boolean[]> {
    return this.writes.write(ops);
  }

  tagsOf(alias: string): string[] {
    return [...(this.store.tagsOf.get(alias) ?? [])].sort();
  }

  removedRows(id: string): number {
    return this.store.takeRemoved(id);
  }

  /** Test set-up: a table. */
  async createTable(name: string, columns: ColumnDef[], options: { shardSize?: bigint; ifNotExists?: boolean } = {}): Promise<boolean> {
    return (await this.write([{ kind: 'createTable', name, columns, ...options }]))[0];
  }

  /** Test set-up: rows as the embedded API takes them. */
  insert(name: string, batch: ColumnarBatch): Promise<void> {
    return insertBatch(this, name, batch);
  }

  /** Test set-up: a tag on any entry. */
  async attachTag(alias: string, tag: string): Promise<void> {
    await this.write([{ kind: 'attachTag', alias, tag }]);
  }
}

/** Inserts rows as the embedded API takes them (Database.insert) into any catalog's table. */
export async function insertBatch(catalog: QueryCatalog, name: string, batch: ColumnarBatch): Promise<void> {
  const table = catalog.table(name);
  if (table === undefined) throw new Error(`no table '${name}'`);
  await catalog.write([{ kind: 'insert', table: name, rows: toTableRows(name, table.columns, batch) }]);
}
