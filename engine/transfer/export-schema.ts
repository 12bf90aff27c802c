// What an export writes: one table of typed columns, whatever the SELECT's shape. A file format
// has one schema, so the result tables of a SELECT over several tables must agree on their
// columns (names and types, as `FROM a, b` selects the same list from each), and their rows
// follow one another. The row time comes first as `$timestamp` — unless the select list has a
// `$timestamp` column already (`SELECT *`) — so that a file exported from a table imports back
// into the same table; it is the bucket start under GROUP BY, and may be null (aggregates
// without a range). Types are the plan's: a chunk whose column happens to be all null (`none`)
// keeps its column's type, so every chunk of one export has the same schema.
import { SvcError } from '../errors.js';
import type { ResultShape } from '../query/index.js';
import type { ResultColumn, ResultTable, ResultType } from '../query/result.js';

/** Column types of an export; `none` (no value in any row, e.g. `SELECT NULL`) is written as STRING. */
export type ExportType = Exclude<ResultType, 'none'>;

export interface ExportColumn {
  readonly name: string;
  readonly type: ExportType;
}

export interface ExportSchema {
  readonly columns: readonly ExportColumn[];
  /** The source table when there is one (Arrow schema metadata `table`). */
  readonly table: string | null;
  /** Whether the first column is the row time added by the export (not a selected column). */
  readonly hasRowTime: boolean;
}

/** One chunk of rows in the schema's column order. */
export interface ExportChunk {
  readonly rowCount: number;
  readonly columns: readonly ResultColumn[];
}

export const ROW_TIME = '$timestamp';

/** The one schema of a SELECT's result tables, or InvalidArgument when they disagree. */
export function exportSchema(shape: ResultShape): ExportSchema {
  const [first, ...others] = shape.tables;
  const selected = (first?.columns ?? []).map((c) => ({ name: c.name, type: exportType(c.type) }));
  for (const t of others) {
    const same = t.columns.length === selected.length && t.columns.every((c, i) => c.name === selected[i].name && exportType(c.type) === selected[i].type);
    if (!same) {
      throw new SvcError('InvalidArgument',
        `an export writes one table, and the tables '${first.name}' and '${t.name}' give different columns (${describe(selected)} and ${describe(t.columns.map((c) => ({ name: c.name, type: exportType(c.type) })))})`);
    }
  }
  const hasRowTime = !selected.some((c) => c.name === ROW_TIME);
  return {
    columns: hasRowTime ? [{ name: ROW_TIME, type: 'timestamp' }, ...selected] : selected,
    table: shape.tables.length === 1 ? first.name : null,
    hasRowTime,
  };
}

/** A result table's rows in the schema's columns (row time first when the schema adds it). */
export function exportChunk(schema: ExportSchema, table: ResultTable): ExportChunk {
  const selected = table.columns.map((c, i): ResultColumn => {
    const type = schema.columns[i + (schema.hasRowTime ? 1 : 0)].type;
    if (c.type === type) return c;
    // A column `none` in this chunk holds the array of its expression's type (result.ts), all
    // null; one of no type at all (SELECT NULL) is written as strings.
    const nulls = new Uint8Array(table.rowCount).fill(1);
    return Array.isArray(c.values) || type !== 'string' ? { ...c, type, nulls } : { ...c, type, values: new Array<null>(table.rowCount).fill(null), nulls };
  });
  if (!schema.hasRowTime) return { rowCount: table.rowCount, columns: selected };
  const time: ResultColumn = { name: ROW_TIME, type: 'timestamp', values: table.timestamps, nulls: table.timestampNulls };
  return { rowCount: table.rowCount, columns: [time, ...selected] };
}

function exportType(type: ResultType): ExportType {
  return type === 'none' ? 'string' : type;
}

function describe(columns: readonly ExportColumn[]): string {
  return columns.map((c) => `${c.name} ${c.type}`).join(', ');
}
