// An import: a CSV or Parquet file into one table, as ONE write of the write path — the table
// created from the file's columns when missing (or the columns it lacks added), and every row
// inserted — so the import is atomic like any write (one WAL record: replayed whole or not at
// all), refused the way every write is (a full disk, a memory budget that cannot take it: then
// nothing is stored), and validated before anything is logged: a row that does not fit fails the
// whole import with its row number and column. One write means one WAL record, which the memory
// budget must admit whole: a file whose rows take more than the budget is refused (MemoryLimit),
// to be split; see docs/export-import.md.
import { SvcError } from '../../errors.js';
import type { ColumnValues } from '../../storage/column-values.js';
import type { ColumnDef, ColumnType } from '../../types.js';
import type { TableRows, WriteOp } from '../../write/index.js';
import { readCsv } from './csv-reader.js';
import { readParquet } from './parquet-reader.js';
import type { FileColumn } from './file-column.js';

export type ImportFormat = 'csv' | 'parquet';

export interface ImportOptions {
  readonly format: ImportFormat;
}

export interface ImportResult {
  readonly table: string;
  /** Rows stored. */
  readonly rows: number;
  /** True when the import created the table. */
  readonly isCreated: boolean;
}

/** The time column of an imported file: `$timestamp`, else `timestamp`. */
const TIME_COLUMNS = ['$timestamp', 'timestamp'];

/**
 * The write ops that import `bytes` into `table` (whose columns are `existing`, or null when
 * it does not exist), and the number of rows.
 */
export async function importOps(table: string, bytes: Uint8Array, options: ImportOptions, existing: readonly ColumnDef[] | null): Promise<{ ops: WriteOp[]; rows: number }> {
  const format = options?.format;
  if (format !== 'csv' && format !== 'parquet') throw new SvcError('InvalidArgument', `the import format must be csv or parquet, not ${JSON.stringify(format)}`);
  const typeOf = (name: string): ColumnType | undefined => (TIME_COLUMNS.includes(name) ? 'TIMESTAMP' : existing?.find((c) => c.name === name)?.type);
  const file = format === 'csv'
    ? (() => { const f = readCsv(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), typeOf); return { columns: f.columns, groups: [f.values], rows: f.rows }; })()
    : (() => { const f = readParquet(bytes); return { columns: f.columns, groups: f.groups(), rows: f.rows }; })();
  const timeAt = file.columns.findIndex((c) => c.name === TIME_COLUMNS[0]) >= 0
    ? file.columns.findIndex((c) => c.name === TIME_COLUMNS[0])
    : file.columns.findIndex((c) => c.name === TIME_COLUMNS[1]);
  if (timeAt < 0) throw new SvcError('InvalidArgument', `the file needs a time column named ${TIME_COLUMNS.join(' or ')} (RFC 3339 times or integer nanoseconds)`);
  const timeType = file.columns[timeAt].type;
  if (timeType !== 'TIMESTAMP' && timeType !== 'INT64') throw new SvcError('InvalidArgument', `the time column '${file.columns[timeAt].name}' is ${timeType}, not a time`);
  const columns = file.columns.filter((_, k) => k !== timeAt);
  const ops: WriteOp[] = [];
  if (existing === null) ops.push({ kind: 'createTable', name: table, columns: columns.map(({ name, type }) => ({ name, type })) });
  else {
    for (const c of columns) {
      const had = existing.find((d) => d.name === c.name);
      if (had !== undefined && !fits(c.type, had.type)) {
        throw new SvcError('InvalidArgument', `column '${c.name}' is ${c.type} in the file and ${had.type} in table '${table}'`);
      }
    }
    const added = columns.filter((c) => !existing.some((d) => d.name === c.name));
    if (added.length > 0) ops.push({ kind: 'addColumns', table, columns: added.map(({ name, type }) => ({ name, type })) });
  }
  let first = 1;
  for await (const group of file.groups) {
    const time = group[timeAt] as Extract<ColumnValues, { values: BigInt64Array }>;
    if (time.nulls !== null) {
      const at = time.nulls.indexOf(1);
      throw new SvcError('InvalidArgument', `row ${first + at}, column '${file.columns[timeAt].name}': the time is missing (every row needs one)`);
    }
    const byName: Record<string, ColumnValues> = {};
    columns.forEach((c) => {
      const k = file.columns.indexOf(c);
      const target = existing?.find((d) => d.name === c.name)?.type ?? c.type;
      byName[c.name] = convert(group[k], target);
    });
    const rows: TableRows = { ts: time.values, columns: byName };
    ops.push({ kind: 'insert', table, rows });
    first += time.values.length;
  }
  return { ops, rows: file.rows };
}

/** Whether a file column of type `from` goes into a table column of type `to`. */
function fits(from: ColumnType, to: ColumnType): boolean {
  return from === to || (from === 'INT64' && (to === 'DOUBLE' || to === 'TIMESTAMP')) || (from === 'STRING' && to === 'SYMBOL') || (from === 'SYMBOL' && to === 'STRING');
}

function convert(col: ColumnValues, to: ColumnType): ColumnValues {
  if (col.type === to) return col;
  if (col.type === 'INT64' && to === 'DOUBLE') return { type: 'DOUBLE', values: Float64Array.from(col.values, (v) => Number(v)), nulls: col.nulls };
  if (col.type === 'INT64' && to === 'TIMESTAMP') return { type: 'TIMESTAMP', values: col.values, nulls: col.nulls };
  if ((col.type === 'STRING' || col.type === 'SYMBOL') && (to === 'STRING' || to === 'SYMBOL')) return { type: to, values: col.values };
  throw new SvcError('InvalidArgument', `a ${col.type} column cannot go into a ${to} column`);
}

