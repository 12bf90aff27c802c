// Routes under /api/v1/blobs/:alias and /api/v1/tags/:alias act on that type only: the entry
// must exist (404) and have the type (422), like GET on them (SPEC §3).
import type { Database, EntryType } from '../../../engine/index.js';
import { SvcError } from '../../../engine/index.js';

const NAMES: Record<EntryType, string> = { blob: 'blob', tag: 'tag', ts: 'table' };

/** Throws AliasNotFound or IncompatibleType unless `alias` is a live entry of type `expected`. */
export function requireType(db: Database, alias: string, expected: EntryType | null): void {
  if (expected === null) return;
  const actual = db.entryType(alias);
  if (actual !== expected) throw new SvcError('IncompatibleType', `'${alias}' is a ${NAMES[actual]}, not a ${NAMES[expected]}`);
}
