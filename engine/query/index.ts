// Public exports of the query layer: run a statement against a catalog, and the plain result.
export { executePart, executeQuery, streamQuery, MAX_QUERY_BYTES } from './execute-query.js';
export type { QueryOptions, ResultShape } from './execute-query.js';
export type { ResultSink } from './exec/run/run-context.js';
export type { QuerySignal } from './exec/run/run-context.js';
export type { FindFilter, PartPlacement, PartRequest, QueryCatalog, SelectPart, ViewInfo } from './catalog.js';
export { viewShape, viewShapeOfText } from './plan/plan-view.js';
export type { ViewShape } from './plan/plan-view.js';
export type { QueryResult, ResultColumn, ResultTable, ResultType } from './result.js';
export { DEFAULT_DEADLINE_MS } from './deadline.js';
export { DEFAULT_QUERY_LIMITS, resolveLimits } from './limits.js';
export type { QueryLimits } from './limits.js';
export { removalOfStatement } from './statements/run-delete.js';

/** The module of the query layer's worker-thread tasks (WorkerPool.load). */
export const QUERY_TASKS = new URL('./exec/operators/aggregate-part-task.js', import.meta.url);
