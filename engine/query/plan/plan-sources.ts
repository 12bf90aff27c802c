// Resolves FROM: table names must exist; FIND(...) contributes the tables among its matches.
// A table named twice is read once, keeping the first mention's place.
import type { Find, TableRef } from '../../../grammar/index.js';
import type { Table } from '../../storage/table.js';
import type { FindFilter, QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';

export interface Source {
  readonly name: string;
  readonly table: Table;
}

export function resolveSources(refs: readonly (TableRef | Find)[], catalog: QueryCatalog): Source[] {
  const out: Source[] = [];
  const add = (name: string, table: Table): void => {
    if (!out.some((s) => s.name === name)) out.push({ name, table });
  };
  for (const ref of refs) {
    if (ref.kind === 'TableRef') {
      const table = catalog.table(ref.name);
      if (table === undefined) throw semanticError(`no table named '${ref.name}'`, ref.offset);
      add(ref.name, table);
      continue;
    }
    const filter = findFilter(ref, 'ts');
    if (filter === null) continue;
    for (const alias of catalog.findEntries(filter)) {
      const table = catalog.table(alias);
      if (table !== undefined) add(alias, table);
    }
  }
  return out;
}

/**
 * The catalog filter of a FIND. Conditions are ANDed, so two different `type=` conditions match
 * nothing (null). `restrictTo` narrows the types further (a FIND in FROM only yields tables).
 */
export function findFilter(find: Find, restrictTo: 'ts' | null): FindFilter | null {
  const withTags: string[] = [];
  const withoutTags: string[] = [];
  let type: 'blob' | 'tag' | 'ts' | null = restrictTo;
  for (const c of find.conditions) {
    if (c.kind === 'FindTag') (c.isNegated ? withoutTags : withTags).push(c.tag);
    else if (type === null) type = c.type;
    else if (type !== c.type) return null;
  }
  return { withTags, withoutTags, types: type === null ? [] : [type] };
}
