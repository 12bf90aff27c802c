// SHOW name: the table's columns and types as a two-column result (`name`, `type`), starting
// with the implicit `$timestamp`, then the table's properties on rows of their own, named like
// pseudo-columns so no column can take their name: `$ttl` (the TTL as a duration) when it has
// one, `$tags` (its tags, comma-separated in alias order) when it has some; for a materialized
// view, `$view` (its definition: the SELECT) and `$refresh` (`up to date`, or what its refresher
// has yet to compute). Row times are null: the rows describe the schema, not data.
import { formatDuration, NS_PER_DAY } from '../../../grammar/index.js';
import type { TimeToLive } from '../../types.js';
import type { Show } from '../../../grammar/index.js';
import type { QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';
import type { QueryResult } from '../result.js';

export function runShow(ast: Show, catalog: QueryCatalog): QueryResult {
  const table = catalog.table(ast.table);
  if (table === undefined) throw semanticError(`no table named '${ast.table}'`, ast.tableOffset);
  const names = ['$timestamp', ...table.columns.map((c) => c.name)];
  const types = ['TIMESTAMP', ...table.columns.map((c) => c.type)];
  if (table.ttl !== null) {
    names.push('$ttl');
    types.push(ttlText(table.ttl));
  }
  const view = catalog.viewOf?.(ast.table);
  if (view !== undefined) {
    names.push('$view', '$refresh');
    types.push(view.select, view.pendingRanges === 0 ? 'up to date' : `${view.pendingRanges} time range${view.pendingRanges > 1 ? 's' : ''} to compute, the oldest for ${(view.lagMs / 1000).toFixed(1)} s`);
  }
  const tags = catalog.tagsOf(ast.table);
  if (tags.length > 0) {
    names.push('$tags');
    types.push(tags.join(', '));
  }
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

/** A TTL as written: `30d` (not `4w2d`), `1y`, `6mon 12h`. */
function ttlText(ttl: TimeToLive): string {
  const months = ttl.months === 0 ? '' : ttl.months % 12 === 0 ? `${ttl.months / 12}y` : `${ttl.months}mon`;
  const nanos = ttl.nanos === 0n ? '' : ttl.nanos % NS_PER_DAY === 0n ? `${ttl.nanos / NS_PER_DAY}d` : formatDuration({ months: 0, nanos: ttl.nanos, calendarUnit: null });
  return [months, nanos].filter((p) => p !== '').join(' ');
}
