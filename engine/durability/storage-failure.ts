// The one conversion of a disk error into the engine's error catalog: what open, close and
// checkpoint let escape is always an SvcError — StorageFull for "no space" (ENOSPC, EDQUOT: it
// passes once space is freed), else StorageFailed, naming the path Node's error names (EACCES,
// ENOTDIR, …) — never a raw ERR_FS_* or errno error.
import { SvcError } from '../errors.js';
import { isNoSpace } from './disk-guard.js';

/** `e` itself when it is an SvcError; otherwise a StorageFull or StorageFailed saying `what` and the path. */
export function storageFailure(e: unknown, what: string): SvcError {
  if (e instanceof SvcError) return e;
  const err = e as NodeJS.ErrnoException;
  const path = typeof err?.path === 'string' ? ` (${err.path})` : '';
  return new SvcError(isNoSpace(e) ? 'StorageFull' : 'StorageFailed', `${what}${path}: ${err?.message ?? String(e)}`, { cause: e });
}
