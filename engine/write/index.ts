// The write path: the one module every write goes through (validate → log → apply → ack).
export { WritePath } from './write-path.js';
export type { WriteLog } from './write-path.js';
export type { TableRows, WriteOp, WriteOpKind } from './write-ops.js';
