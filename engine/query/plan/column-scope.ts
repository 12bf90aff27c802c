// The columns a table plan's expressions may name, and where each sits in the batches the
// executor reads (index 0 is the row time, `$timestamp`). A plain table: its schema columns at
// 1…n. An ASOF JOIN: each joined table's `$timestamp` and columns in a block of their own, named
// `table.column` (a column may go unqualified when one table alone has it); `t.$timestamp` is the
// time of the row that table contributed, `$timestamp` the joined row's.
import type { Table } from '../../storage/table.js';
import type { ColumnType } from '../../types.js';
import { semanticError } from '../query-errors.js';
import type { JoinSide } from './plan-types.js';

export interface ScopeColumn {
  readonly name: string;
  readonly index: number;
  readonly type: ColumnType;
}

export interface ColumnScope {
  /** The result table's name (`$table`, error messages). */
  readonly name: string;
  /** Types of the batch columns by index: [$timestamp, …]. */
  readonly columnTypes: readonly ColumnType[];
  /** The columns `*` and `count(*)` stand for, in order. */
  readonly columns: readonly ScopeColumn[];
  /** The column `name` refers to; QuerySemantic at `offset` when none or several. */
  resolve(name: string, offset: number): ScopeColumn;
  /** Whether `name` is a column (HAVING's AS names give way to columns). */
  has(name: string): boolean;
}

/** The columns of one table. */
export function tableScope(table: Table, name: string): ColumnScope {
  const columns = table.columns.map((c, i) => ({ name: c.name, index: i + 1, type: c.type }));
  return {
    name,
    columnTypes: ['TIMESTAMP', ...table.columns.map((c) => c.type)],
    columns,
    resolve(column, offset) {
      const c = table.columnIndex(column);
      if (c < 0) throw semanticError(`table '${name}' has no column '${column}'`, offset);
      return columns[c];
    },
    has: (column) => table.columnIndex(column) >= 0,
  };
}

/** The columns of joined tables (the FROM source first): each table's block after the row time. */
export function joinScope(sides: readonly JoinSide[]): ColumnScope {
  const columnTypes: ColumnType[] = ['TIMESTAMP'];
  const columns: ScopeColumn[] = [];
  for (const side of sides) {
    columnTypes.push('TIMESTAMP', ...side.table.columns.map((c) => c.type));
    side.table.columns.forEach((c, i) => columns.push({ name: `${side.name}.${c.name}`, index: side.firstColumn + 1 + i, type: c.type }));
  }
  const candidates = (column: string): ScopeColumn[] => {
    const found: ScopeColumn[] = [];
    for (const side of sides) {
      if (column.startsWith(`${side.name}.`)) {
        const rest = column.slice(side.name.length + 1);
        if (rest === '$timestamp') found.push({ name: column, index: side.firstColumn, type: 'TIMESTAMP' });
        const c = side.table.columnIndex(rest);
        if (c >= 0) found.push({ name: column, index: side.firstColumn + 1 + c, type: side.table.columns[c].type });
      }
      const c = side.table.columnIndex(column);
      if (c >= 0) found.push({ name: `${side.name}.${column}`, index: side.firstColumn + 1 + c, type: side.table.columns[c].type });
    }
    return found.filter((f, i) => found.findIndex((g) => g.index === f.index) === i);
  };
  return {
    name: sides[0].name,
    columnTypes,
    columns,
    resolve(column, offset) {
      const found = candidates(column);
      if (found.length === 1) return found[0];
      if (found.length === 0) throw semanticError(`no joined table (${sides.map((s) => s.name).join(', ')}) has a column '${column}'`, offset);
      throw semanticError(`column '${column}' is ambiguous: it may be ${found.map((f) => f.name).join(' or ')}; qualify it with its table's name`, offset);
    },
    has: (column) => candidates(column).length > 0,
  };
}
