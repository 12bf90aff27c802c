// Materialized views (SPEC §15): the refresher that keeps each view's rows equal to its SELECT
// over its source. The views themselves — definition, rows, dirty ranges — are catalog entries
// (catalog/materialized-view.ts); the SELECT's rules are the query planner's (query/plan/plan-view.ts).
export { ViewRefresher } from './view-refresher.js';
export type { RefresherOptions } from './view-refresher.js';
