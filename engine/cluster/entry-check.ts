// The check every replica makes before it applies an entry, so that a write validated on a node
// whose state was behind the log cannot corrupt what is there. Inserts are positional (a batch's
// columns are the table's columns when the write was validated), so an insert must meet the
// table's exact current schema; a create must find its alias free; columns added must be new. An
// entry that fails is applied nowhere — every replica decides alike, in the log's order, from the
// same state — and its writer validates the write again once caught up (StaleWrite).
import type { WalRecord } from '../durability/wal/records.js';
import type { ColumnDef } from '../types.js';
import type { ReplicaView } from '../replication.js';

/** Why the entry cannot be applied on the state `view` shows, or null when it can. */
export function entryConflict(records: readonly WalRecord[], view: ReplicaView): string | null {
  // The entry's own records change the state the next ones meet.
  const tables = new Map<string, readonly ColumnDef[] | null>();
  const removed = new Set<string>();
  const columnsOf = (name: string): readonly ColumnDef[] | null => (tables.has(name) ? tables.get(name)! : removed.has(name) ? null : view.columnsOf(name));
  for (const r of records) {
    switch (r.kind) {
      case 'TableCreate':
        // Only tables are looked at: they and this check live in one stream, so every replica
        // meets the same state here. Blobs and tags (another stream) are kept off a table's name
        // by the alias claim, made before the entry was appended.
        if (columnsOf(r.name) !== null) return `table '${r.name}' was created meanwhile`;
        tables.set(r.name, r.columns);
        break;
      case 'TableAddColumns': {
        const columns = columnsOf(r.name);
        if (columns === null) return `table '${r.name}' is gone`;
        const clash = r.columns.find((c) => columns.some((have) => have.name === c.name));
        if (clash !== undefined) return `column '${clash.name}' of '${r.name}' was added meanwhile`;
        tables.set(r.name, [...columns, ...r.columns]);
        break;
      }
      case 'TableInsert': {
        const columns = columnsOf(r.name);
        if (columns === null) return `table '${r.name}' is gone`;
        const batch = r.batch.columns;
        if (batch.length !== columns.length || batch.some((c, i) => c.type !== columns[i].type)) return `the schema of '${r.name}' changed meanwhile`;
        break;
      }
      case 'Remove':
        tables.delete(r.alias);
        removed.add(r.alias);
        break;
      default:
        break;
    }
  }
  return null;
}
