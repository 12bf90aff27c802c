// What a parsed protocol request becomes for the engine's write path: ONE write holding, per
// table, "create it if missing", "add these columns if missing" and its rows as typed columns —
// logged as one WAL payload, so the request is applied whole or not at all (every line or none).
// Parsing and this call run in one synchronous stretch after the body arrived, so the schemas
// the parser checked types against are the ones the write is validated against.
import { isSvcError } from '../../../engine/index.js';
import type { Database, WriteOp } from '../../../engine/index.js';
import type { IngestTable, SchemaLookup } from './ingest-batch.js';

export function ingestOps(tables: readonly IngestTable[]): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const t of tables) {
    if (t.timestamps.length === 0) continue;
    // A table made by this request also gets "add these columns if missing": in a cluster another
    // node's first write may create it first (with its own columns); the write is then validated
    // again, the create skipped and the columns this request needs added.
    if (t.create) ops.push({ kind: 'createTable', name: t.name, columns: t.addColumns, ifNotExists: true });
    if (t.addColumns.length > 0) ops.push({ kind: 'addColumns', table: t.name, columns: t.addColumns, ifMissing: true });
    const columns: Record<string, IngestTable['columns'][number]['values']> = {};
    for (const c of t.columns) columns[c.name] = c.values;
    ops.push({ kind: 'insert', table: t.name, rows: { ts: t.timestamps, columns } });
  }
  return ops;
}

/**
 * The parsers' view of a table's schema: column name → type, null when the table does not
 * exist; an alias that is not a table throws the engine's IncompatibleType.
 */
export function schemaLookup(db: Database): SchemaLookup {
  return (table) => {
    try {
      return new Map(db.describeTable(table).columns.map((c) => [c.name, c.type]));
    } catch (e) {
      if (isSvcError(e) && e.code === 'TableNotFound') return null;
      throw e;
    }
  };
}
