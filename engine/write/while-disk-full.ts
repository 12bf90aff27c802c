// Which writes go on while the disk is below the floor (SPEC §14): those that only take data away
// — so a user can make room — and nothing that adds any. One table over every write-op kind: a
// kind added to WriteOp without a row here is a compile error, so every new kind is classified.
import type { WriteOp, WriteOpKind } from './write-ops.js';

/** `allow`: the op only removes data (it frees space, eventually); `refuse`: it adds data or metadata. */
export const WHILE_DISK_FULL: Readonly<Record<WriteOpKind, 'allow' | 'refuse'>> = {
  createTable: 'refuse',
  dropTable: 'allow',
  // A view's rows take memory and, once checkpointed, disk.
  createView: 'refuse',
  dropView: 'allow',
  addColumns: 'refuse',
  insert: 'refuse',
  putBlob: 'refuse',
  remove: 'allow',
  // An expiry only frees space when it comes (a past one is refused anyway): remove frees it now.
  setExpiry: 'refuse',
  attachTag: 'refuse',
  // SPEC §14 refuses "tag changes"; a detach frees nothing worth a user's while.
  detachTag: 'refuse',
  sweep: 'allow',
  // The lifecycle: DELETE and shard removals take data away (a checkpoint then frees it); a TTL
  // change leads to them.
  deleteRows: 'allow',
  dropShards: 'allow',
  setTtl: 'allow',
};

/** True when every op of a write may go on while the disk is full. */
export function isAllowedWhileFull(ops: readonly WriteOp[]): boolean {
  return ops.every((op) => WHILE_DISK_FULL[op.kind] === 'allow');
}
