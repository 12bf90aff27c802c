// Standalone find(...): the aliases of matching entries (any type unless `type=` says otherwise).
import type { Find } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { findFilter } from '../plan/plan-sources.js';
import type { QueryResult } from '../result.js';

export function runFind(ast: Find, catalog: QueryCatalog): QueryResult {
  const filter = findFilter(ast, null);
  const aliases = filter === null ? [] : catalog.findEntries(filter);
  return { kind: 'find', tables: [], scannedRowsCount: 0, aliases };
}
