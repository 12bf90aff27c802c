// The in-memory state of a database: entries (blobs, tags, tables, materialized views) and tag
// attachments. It is changed only by `apply(record)`, both for live writes and for WAL replay, so
// a replayed log rebuilds exactly the state that acknowledged those writes. Validation happens
// before a record is made (engine/write/); `apply` trusts its record. A view is a table entry
// (its rows) plus a MaterializedView here; applying a change to its source marks the view's
// buckets it touches, for the refresher (engine/views/) to compute again.
import { Table } from '../storage/table.js';
import type { StorageContext } from '../storage/storage-context.js';
import type { PreparedRemoval, RowRemoval } from '../storage/row-removal.js';
import type { ColumnDef } from '../types.js';
import { BlobContent } from './blob-content.js';
import { MaterializedView } from './materialized-view.js';
import type { ViewDefinition } from './materialized-view.js';
import type { WalRecord } from '../durability/wal/records.js';

export type EntryType = 'blob' | 'tag' | 'ts';

export type Entry =
  | { readonly type: 'blob'; readonly content: BlobContent; readonly mime: string; expiry: number }
  | { readonly type: 'tag' }
  | { readonly type: 'ts'; readonly table: Table };

/**
 * The removal a DELETE record asks of a table: its statement planned for that table at its `now`
 * (the query layer's removalOfStatement, handed in so storage never imports the query layer).
 */
export type RemovalPlanner = (table: Table, statement: string, nowNs: bigint) => RowRemoval;

const NO_PLANNER: RemovalPlanner = () => {
  throw new Error('this store cannot apply DELETE records: it was made without a removal planner');
};

/**
 * What the store needs of engine/views (handed in like the removal planner, so the catalog
 * imports neither the query layer nor the refresher).
 */
export interface ViewHooks {
  /**
   * A view's table as its SELECT text defines it over `source`: its columns and shard size, or
   * the SvcError saying why the SELECT cannot define a view (validation of a createView write).
   */
  shape(select: string, source: Table): { readonly columns: readonly ColumnDef[]; readonly shardSize: bigint };
  /**
   * The rows of `source` before `before` are about to leave it (TTL, retention): `view` keeps
   * them — its pending buckets there computed from them now, its edge moved (synchronously: the
   * apply of the removal cannot wait).
   */
  freeze(view: MaterializedView, source: Table, before: bigint): void;
}

const NO_VIEWS: ViewHooks = {
  shape: () => { throw new Error('this store cannot create materialized views: it was made without view hooks'); },
  freeze: () => { throw new Error('this store cannot keep materialized views: it was made without view hooks'); },
};

/** How many removal counts are kept for their writers to read (a cluster node applies others' too). */
const KEPT_COUNTS = 1024;

export class EntryStore {
  readonly entries = new Map<string, Entry>();
  /** alias → tags attached to it, and tag → aliases carrying it. */
  readonly tagsOf = new Map<string, Set<string>>();
  readonly entriesOf = new Map<string, Set<string>>();
  /** Removals prepared ahead of their records' apply, by the record's id. */
  private readonly prepared = new Map<string, PreparedRemoval>();
  /** Rows each recent DELETE record removed, by its id (QueryCatalog.removedRows). */
  private readonly removed = new Map<string, number>();
  /** Materialized views by name (each also a table entry), and by source table. */
  readonly views = new Map<string, MaterializedView>();
  private readonly viewsBySource = new Map<string, Set<MaterializedView>>();
  /** Called when a view got buckets to compute again (its refresher wakes up). */
  onViewsDirty: (() => void) | null = null;

  constructor(readonly context: StorageContext, private readonly planRemoval: RemovalPlanner = NO_PLANNER, readonly viewHooks: ViewHooks = NO_VIEWS) {}

  /** The views whose source is table `name`. */
  viewsOf(name: string): readonly MaterializedView[] {
    const set = this.viewsBySource.get(name);
    return set === undefined ? [] : [...set];
  }

  /**
   * Work ahead of applying `records` that may wait (rows read back from disk): a DELETE's removal is
   * computed and its replacement batches built, for apply to swap in. The state readers see is
   * unchanged; apply is right with or without it.
   */
  async prepare(records: readonly WalRecord[]): Promise<void> {
    for (const r of records) {
      if (r.kind !== 'RowsDelete') continue;
      const e = this.entries.get(r.name);
      if (e?.type !== 'ts') continue;
      const prepared = await e.table.prepareRemoval(this.planRemoval(e.table, r.statement, r.nowNs));
      this.prepared.get(r.id)?.dispose();
      this.prepared.set(r.id, prepared);
    }
  }

  /** Drops what prepare() computed for `records` and apply did not take (a write that failed). */
  unprepare(records: readonly WalRecord[]): void {
    for (const r of records) {
      if (r.kind !== 'RowsDelete') continue;
      this.prepared.get(r.id)?.dispose();
      this.prepared.delete(r.id);
    }
  }

  /** The rows DELETE record `id` removed when applied here (0 when unknown), forgotten once read. */
  takeRemoved(id: string): number {
    const n = this.removed.get(id) ?? 0;
    this.removed.delete(id);
    return n;
  }

  apply(r: WalRecord): void {
    switch (r.kind) {
      case 'BlobPut':
        this.release(r.alias);
        this.entries.set(r.alias, { type: 'blob', content: new BlobContent(r.data, r.data.length, this.context.budget), mime: r.mime, expiry: r.expiry });
        return;
      case 'Remove':
        return this.remove(r.alias);
      case 'TagAttach':
        if (!this.entries.has(r.tag)) this.entries.set(r.tag, { type: 'tag' });
        link(this.tagsOf, r.alias, r.tag);
        link(this.entriesOf, r.tag, r.alias);
        return;
      case 'TagDetach':
        unlink(this.tagsOf, r.alias, r.tag);
        unlink(this.entriesOf, r.tag, r.alias);
        return;
      case 'ExpirySet': {
        const e = this.entries.get(r.alias);
        if (e?.type === 'blob') e.expiry = r.expiry;
        return;
      }
      case 'TableCreate': {
        const table = new Table(r.name, r.columns, r.shardSize, this.context);
        table.ttl = r.ttl ?? null;
        this.entries.set(r.name, { type: 'ts', table });
        return;
      }
      case 'TableSetTtl': {
        const e = this.entries.get(r.name);
        if (e?.type === 'ts') e.table.ttl = r.ttl;
        return;
      }
      case 'RowsDelete': {
        const e = this.entries.get(r.name);
        const prepared = this.prepared.get(r.id) ?? null;
        this.prepared.delete(r.id);
        if (e?.type !== 'ts') {
          prepared?.dispose();
          return;
        }
        const removal = this.planRemoval(e.table, r.statement, r.nowNs);
        const n = e.table.removeRows(removal, prepared);
        this.removed.set(r.id, n);
        if (this.removed.size > KEPT_COUNTS) this.removed.delete(this.removed.keys().next().value!);
        if (n > 0) this.markViews(r.name, (v) => { for (const range of removal.ranges) v.markTimes(range.from, range.to); });
        return;
      }
      case 'ShardsDrop': {
        const e = this.entries.get(r.name);
        if (e?.type !== 'ts') return;
        // Its views keep what leaves: their edge moves before the rows go.
        for (const view of this.viewsOf(r.name)) this.viewHooks.freeze(view, e.table, r.before);
        e.table.dropShardsBefore(r.before);
        // A view's own TTL: nothing before its cutoff is computed again.
        this.views.get(r.name)?.dirty.clearBefore(r.before);
        return;
      }
      case 'ViewCreate':
        this.createView(r, r.columns, r.shardSize, r.ttl);
        return;
      case 'TableAddColumns': {
        const e = this.entries.get(r.name);
        if (e?.type === 'ts') e.table.addColumns(r.columns);
        return;
      }
      case 'TableInsert': {
        const e = this.entries.get(r.name);
        if (e?.type !== 'ts') return;
        e.table.insert(r.batch);
        this.markViews(r.name, (v) => v.markRows(r.batch.ts));
        return;
      }
      default:
        return assertNever(r);
    }
  }

  /**
   * A view's entry: the table of its rows and its definition. Its source's rows so far are marked
   * for the refresher, which fills the view in the background.
   */
  private createView(definition: ViewDefinition, columns: readonly ColumnDef[], shardSize: bigint, ttl: Table['ttl']): MaterializedView {
    const table = new Table(definition.name, columns, shardSize, this.context);
    table.ttl = ttl;
    this.entries.set(definition.name, { type: 'ts', table });
    const view = new MaterializedView(definition, table);
    this.views.set(view.name, view);
    let set = this.viewsBySource.get(view.source);
    if (set === undefined) this.viewsBySource.set(view.source, (set = new Set()));
    set.add(view);
    const source = this.entries.get(view.source);
    if (source?.type === 'ts') for (const span of source.table.shardSpans()) view.markTimes(span.start, span.end);
    this.onViewsDirty?.();
    return view;
  }

  /**
   * Takes back a view a checkpoint kept: its definition, the table of its rows (already loaded as
   * a table entry) and what it still had to compute.
   */
  restoreView(definition: ViewDefinition, dirty: readonly (readonly [bigint, bigint])[], edge: bigint, edgeStates: readonly (readonly unknown[])[]): void {
    const e = this.entries.get(definition.name);
    if (e?.type !== 'ts') throw new Error(`the checkpoint names view '${definition.name}' without its table`);
    const view = new MaterializedView(definition, e.table);
    view.edge = edge;
    view.edgeStates = edgeStates;
    for (const [from, to] of dirty) view.dirty.mark(from, to);
    this.views.set(view.name, view);
    let set = this.viewsBySource.get(view.source);
    if (set === undefined) this.viewsBySource.set(view.source, (set = new Set()));
    set.add(view);
    if (!view.dirty.isEmpty) this.onViewsDirty?.();
  }

  /** Runs `mark` on each view of table `name` and wakes the refresher. */
  private markViews(name: string, mark: (view: MaterializedView) => void): void {
    const set = this.viewsBySource.get(name);
    if (set === undefined) return;
    for (const view of set) mark(view);
    this.onViewsDirty?.();
  }

  /** The entry `alias` leaves the store: its data leaves the memory budget. */
  private release(alias: string): void {
    const e = this.entries.get(alias);
    if (e?.type === 'ts') e.table.drop();
    else if (e?.type === 'blob') e.content.retire();
  }

  private remove(alias: string): void {
    this.release(alias);
    this.entries.delete(alias);
    const view = this.views.get(alias);
    if (view !== undefined) {
      this.views.delete(alias);
      this.viewsBySource.get(view.source)?.delete(view);
      if (this.viewsBySource.get(view.source)?.size === 0) this.viewsBySource.delete(view.source);
    }
    for (const tag of this.tagsOf.get(alias) ?? []) unlink(this.entriesOf, tag, alias);
    this.tagsOf.delete(alias);
    for (const entry of this.entriesOf.get(alias) ?? []) unlink(this.tagsOf, entry, alias);
    this.entriesOf.delete(alias);
  }
}

function link(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
}

function unlink(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

export function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}
