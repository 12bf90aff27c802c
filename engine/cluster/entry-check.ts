// The check every replica makes before it applies an entry, so that a write validated on a node
// whose state was behind the log cannot corrupt what is there. Inserts are positional (a batch's
// columns are the table's columns when the write was validated), so an insert must meet the
// table's exact current schema; a create must find its alias free; columns added must be new. An
// entry that fails is applied nowhere — every replica decides alike, in the log's order, from the
// same state — and its writer validates the write again once caught up (StaleWrite).
//
// One check per record kind, in a table the compiler proves complete: a new kind does not pass
// unchecked by default, its author has to say what a replica must find before applying it.
import type { WalRecord, WalRecordKind } from '../durability/wal/records.js';
import type { ColumnDef } from '../types.js';
import type { StateView } from '../log/database-log.js';

/** Why the entry cannot be applied on the state `view` shows, or null when it can. */
export function entryConflict(records: readonly WalRecord[], view: StateView): string | null {
  const tables = new EntryTables(view);
  for (const r of records) {
    // A kind this node does not know (written by a newer svc) cannot be applied here: stop, rather than diverge.
    if (!Object.hasOwn(CHECKS, r.kind)) throw new Error(`record kind ${JSON.stringify(r.kind)} is unknown to this svc version`);
    const conflict = (CHECKS[r.kind] as Check<WalRecordKind>)(r, tables);
    if (conflict !== null) return conflict;
  }
  return null;
}

/**
 * The tables an entry's records meet: the replica's, as the entry's earlier records leave them.
 * Only tables are looked at: they and this check live in one stream, so every replica meets the
 * same state here. Blobs and tags (another stream) are kept off a table's name by the alias
 * claim, made before the entry was appended.
 */
class EntryTables {
  private readonly changed = new Map<string, readonly ColumnDef[] | null>();
  /** Views the entry created (their source) or removed (null). */
  private readonly views = new Map<string, string | null>();

  constructor(private readonly view: StateView) {}

  /** The columns of table `name` (null: no such table). */
  columnsOf(name: string): readonly ColumnDef[] | null {
    return this.changed.has(name) ? this.changed.get(name)! : this.view.columnsOf(name);
  }

  /** Whether `name` is a materialized view. */
  isView(name: string): boolean {
    return (this.views.has(name) ? this.views.get(name)! : this.view.sourceOf(name)) !== null;
  }

  /** The views of table `name` still there. */
  viewsOf(name: string): string[] {
    const made = [...this.views].filter(([, source]) => source === name).map(([view]) => view);
    return [...this.view.viewsOf(name).filter((view) => this.views.get(view) !== null), ...made];
  }

  set(name: string, columns: readonly ColumnDef[], source: string | null = null): void {
    this.changed.set(name, columns);
    if (source !== null) this.views.set(name, source);
  }

  remove(name: string): void {
    this.changed.set(name, null);
    if (this.isView(name)) this.views.set(name, null);
  }
}

type Check<K extends WalRecordKind> = (record: Extract<WalRecord, { kind: K }>, tables: EntryTables) => string | null;

/** Why a record of table `name` cannot apply: the table is gone (null: it is there). */
function tableGone(name: string, tables: EntryTables): string | null {
  return tables.columnsOf(name) === null ? `table '${name}' is gone` : null;
}

/** Records of the meta stream (blobs, tags, expiry): nothing of a table's state to meet. */
const noTable = (): null => null;

const CHECKS: { readonly [K in WalRecordKind]: Check<K> } = {
  TableCreate: (r, tables) => {
    if (tables.columnsOf(r.name) !== null) return `table '${r.name}' was created meanwhile`;
    tables.set(r.name, r.columns);
    return null;
  },
  TableAddColumns: (r, tables) => {
    const columns = tables.columnsOf(r.name);
    if (columns === null) return `table '${r.name}' is gone`;
    if (tables.isView(r.name)) return `'${r.name}' became a materialized view meanwhile`;
    const clash = r.columns.find((c) => columns.some((have) => have.name === c.name));
    if (clash !== undefined) return `column '${clash.name}' of '${r.name}' was added meanwhile`;
    tables.set(r.name, [...columns, ...r.columns]);
    return null;
  },
  TableInsert: (r, tables) => {
    const columns = tables.columnsOf(r.name);
    if (columns === null) return `table '${r.name}' is gone`;
    if (tables.isView(r.name)) return `'${r.name}' became a materialized view meanwhile`;
    const batch = r.batch.columns;
    if (batch.length !== columns.length || batch.some((c, i) => c.type !== columns[i].type)) return `the schema of '${r.name}' changed meanwhile`;
    return null;
  },
  // TTL, DELETE and shard removals change a table's rows or their lifetime: the table must be there.
  TableSetTtl: (r, tables) => tableGone(r.name, tables),
  RowsDelete: (r, tables) => tableGone(r.name, tables) ?? (tables.isView(r.name) ? `'${r.name}' became a materialized view meanwhile` : null),
  ShardsDrop: (r, tables) => tableGone(r.name, tables),
  // A removal applies unless views were made over the table meanwhile (an alias already gone
  // stays gone); a later record of the entry meets no table.
  Remove: (r, tables) => {
    const views = tables.viewsOf(r.alias);
    if (views.length > 0) return `materialized view '${views[0]}' over '${r.alias}' was created meanwhile`;
    tables.remove(r.alias);
    return null;
  },
  // A view needs its source, and its name free.
  ViewCreate: (r, tables) => {
    if (tables.columnsOf(r.source) === null) return `table '${r.source}' is gone`;
    if (tables.columnsOf(r.name) !== null) return `'${r.name}' was created meanwhile`;
    tables.set(r.name, r.columns, r.source);
    return null;
  },
  BlobPut: noTable,
  TagAttach: noTable,
  TagDetach: noTable,
  ExpirySet: noTable,
};
