// SHOW name: the table's columns and types as a two-column result (`name`, `type`), starting
// with the implicit `$timestamp`. Row times are null: the rows describe the schema, not data.
import type { Show } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';
import type { QueryResult } from '../result.js';

export function runShow(ast: Show, catalog: QueryCatalog): QueryResult {
  const table = catalog.table(ast.table);
  if (table === undefined) throw semanticError(`no table named '${ast.table}'`, ast.tableOffset);
  const names = ['$timestamp', ...table.columns.map((c) => c.name)];
  const types = ['TIMESTAMP', ...table.columns.map((c) => c.type)];
  const n = names.length;
  return {
    kind: 'rows',
    scannedRowsCount: 0,
    tables: [{
      name: ast.table,
      rowCount: n,
      timestamps: new BigInt64Array(n),
      timestampNulls: new Uint8Array(n).fill(1),
      columns: [
        { name: 'name', type: 'string', values: names, nulls: null },
        { name: 'type', type: 'string', values: types, nulls: null },
      ],
    }],
  };
}
