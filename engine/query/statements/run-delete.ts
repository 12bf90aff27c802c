// DELETE (SPEC §6): each source table's rows inside the ranges and calendar filters that match the
// condition (or DUPLICATE) leave it, in one atomic write. The statement is planned here against
// every table first, so a bad column or condition fails with its position before anything is
// logged; the write then carries the statement's text and `now` per table (one WAL record each, in
// one payload), and the table's removal is planned again from them where it is applied — here, on
// replay, on every replica — so every copy removes the same rows. The answer gives, per table, the
// rows it lost.
import { randomUUID } from 'node:crypto';
import type { Delete } from '../../../grammar/index.js';
import { parseCached } from '../ast-cache.js';
import type { QueryCatalog } from '../catalog.js';
import { rowRemoval } from '../exec/operators/row-removal-match.js';
import { planRemoval } from '../plan/plan-removal.js';
import { resolveSources } from '../plan/plan-sources.js';
import type { RowRemoval } from '../../storage/row-removal.js';
import type { Table } from '../../storage/table.js';
import type { QueryResult, ResultTable } from '../result.js';

export async function runDelete(ast: Delete, catalog: QueryCatalog, nowNs: bigint, text: string): Promise<QueryResult> {
  const sources = resolveSources(ast.sources, catalog);
  for (const s of sources) planRemoval(ast, s.table, s.name, nowNs);
  const ops = sources.map((s) => ({ kind: 'deleteRows' as const, table: s.name, statement: text, nowNs, id: randomUUID() }));
  if (ops.length > 0) await catalog.write(ops);
  const tables = ops.map((op): ResultTable => ({
    name: op.table,
    rowCount: 1,
    timestamps: new BigInt64Array(1),
    timestampNulls: new Uint8Array([1]),
    columns: [{ name: 'deleted', type: 'count', values: new BigInt64Array([BigInt(catalog.removedRows(op.id))]), nulls: null }],
  }));
  return { kind: 'rows', tables, scannedRowsCount: 0 };
}

/**
 * The removal a DELETE's record asks of `table`: its statement planned again for that table at
 * the statement's `now` (the write path's apply, WAL replay and every replica call this).
 * @example
 * table.removeRows(removalOfStatement(table, "DELETE FROM t IN RANGE(2024, +1d) WHERE v < 0", now));
 */
export function removalOfStatement(table: Table, statement: string, nowNs: bigint): RowRemoval {
  const ast = parseCached(statement);
  if (ast.kind !== 'Delete') throw new Error(`a row removal record holds a ${ast.kind} statement`);
  return rowRemoval(planRemoval(ast, table, table.name, nowNs));
}
