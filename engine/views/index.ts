// Materialized views (SPEC §15): the refresher that keeps each view's rows equal to its SELECT
// over its source. The views themselves — definition, rows, dirty ranges — are catalog entries
// (catalog/materialized-view.ts); the SELECT's rules are the query planner's (query/plan/plan-view.ts).
import type { ViewHooks } from '../catalog/entry-store.js';
import { viewShapeOfText } from '../query/plan/plan-view.js';
import { freezeBefore } from './frozen-edge.js';

export { ViewRefresher } from './view-refresher.js';

/** What the catalog asks of views: a view's shape from its SELECT (validation), and keeping a source's rows as they leave. */
export const VIEW_HOOKS: ViewHooks = { shape: viewShapeOfText, freeze: freezeBefore };
export type { RefresherOptions } from './view-refresher.js';
