// The tables a query reads, for placing it on a node that holds their rows: the sources of a
// SELECT and of its ASOF JOIN. `all` when a source is FIND(…) (its tables are known only when it
// runs); null for any other statement (writes go through the log, SHOW and FIND read the catalog
// every node holds) and for a text that does not parse (it fails the same way here).
import { parse } from '../../grammar/index.js';
import type { Find, TableRef } from '../../grammar/index.js';

export function queryTables(text: string): string[] | 'all' | null {
  let statement;
  try {
    statement = parse(text);
  } catch {
    return null;
  }
  if (statement.kind !== 'Select') return null;
  const sources: readonly (TableRef | Find)[] = [...statement.sources, ...(statement.join?.sources ?? [])];
  if (sources.some((s) => s.kind === 'Find')) return 'all';
  return sources.map((s) => (s as TableRef).name);
}
