// Schemas grow (ALTER TABLE … ADD COLUMN, ingest protocols), batches do not: a batch sealed (or
// read back from a checkpoint) before a column was added keeps the columns it had. This is the
// one place where such a batch meets the current schema: widenView gives it the missing columns
// as all-null ones, with all-null statistics, so every reader — query scans, compaction, the
// checkpoint writer — sees one column per schema column. Made once per batch and width and kept
// while the batch lives (a WeakMap on the batch's view), never stored in place of the batch:
// checkpoints recognise batches by identity, so a batch written once is not written again.
import { makeData, RecordBatch, Struct } from 'apache-arrow';
import type { Data } from 'apache-arrow';
import { columnData } from './batch-builder.js';
import { columnStats } from './batch-stats.js';
import { nullColumn } from './column-values.js';
import type { TableLayout } from './table-layout.js';
import type { BatchView } from '../types.js';

const widened = new WeakMap<BatchView, BatchView>();

/** `view` with every column of `layout` (`view` itself when it has them all). */
export function widenView(view: BatchView, layout: TableLayout): BatchView {
  const want = layout.columns.length + 1;
  const have = view.batch.data.children.length;
  // Stats are counted apart: a checkpoint written just after a column was added may hold the
  // column's (null) data while its manifest's statistics predate it.
  const haveStats = view.stats.length;
  if (have >= want && haveStats >= want) return view;
  const hit = widened.get(view);
  if (hit !== undefined && hit.batch.data.children.length >= want && hit.stats.length >= want) return hit;
  const n = view.rowCount;
  const { schema, columns, dictionaries } = layout;
  const stats = [...view.stats];
  for (let c = haveStats - 1; c < columns.length; c++) stats.push(columnStats(nullColumn(columns[c].type, n), n));
  let { batch } = view;
  if (have < want) {
    const children: Data[] = [...batch.data.children];
    for (let c = have - 1; c < columns.length; c++) {
      children.push(columnData(schema.fields[c + 1].type, nullColumn(columns[c].type, n), n, n, dictionaries[c]));
    }
    batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }));
  }
  const wide: BatchView = { ...view, batch, stats };
  widened.set(view, wide);
  return wide;
}
