// INSERT INTO t ($timestamp, col, …) VALUES (…), (…): checks names and value types against the
// table (semantic errors at the offending token), writes each value straight into a typed column
// (the write path's form: no further conversion) and inserts them through the catalog's write
// path, durable when the promise resolves. Unlisted columns are null; without a `$timestamp`
// column every row gets the query's `now`.
import { resolveTimePoint } from '../../../grammar/index.js';
import type { ColumnRef, Insert, InsertValue } from '../../../grammar/index.js';
import { nullColumn } from '../../storage/column-values.js';
import type { ColumnValues } from '../../storage/column-values.js';
import type { ColumnType } from '../../types.js';
import type { QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';
import type { QueryResult } from '../result.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const encoder = new TextEncoder();

type Cell = number | bigint | string | Uint8Array | boolean | null;

export async function runInsert(ast: Insert, catalog: QueryCatalog, nowNs: bigint): Promise<QueryResult> {
  const table = catalog.table(ast.table);
  if (table === undefined) throw semanticError(`no table named '${ast.table}'`, ast.tableOffset);
  const types = ast.columns.map((ref) => columnType(ref, ast, (name) => table.columns.find((c) => c.name === name)?.type));
  const n = ast.rows.length;
  const ts = new BigInt64Array(n).fill(nowNs);
  const columns = types.map((type) => (type === '$timestamp' ? null : nullColumn(type, n)));
  ast.rows.forEach((row, r) => {
    if (row.length !== ast.columns.length) {
      const at = row[Math.min(row.length, ast.columns.length) - 1]?.offset ?? ast.offset;
      throw semanticError(`row ${r + 1} has ${row.length} values for ${ast.columns.length} columns`, at);
    }
    row.forEach((v, c) => {
      const type = types[c];
      if (type === '$timestamp') {
        const t = convert(v, 'TIMESTAMP', ast.columns[c].name, nowNs);
        if (t === null) throw semanticError('$timestamp cannot be NULL', v.offset);
        ts[r] = t as bigint;
      } else {
        setCell(columns[c]!, r, convert(v, type, ast.columns[c].name, nowNs));
      }
    });
  });
  const byName: Record<string, ColumnValues> = {};
  ast.columns.forEach((ref, c) => { if (columns[c] !== null) byName[ref.name] = withoutEmptyMask(columns[c]!); });
  await catalog.write([{ kind: 'insert', table: ast.table, rows: { ts, columns: byName } }]);
  return { kind: 'ok', tables: [], scannedRowsCount: 0 };
}

/** Stores a converted value at row r of a column made by nullColumn (every row null until set). */
function setCell(col: ColumnValues, r: number, cell: Cell): void {
  if (cell === null) return;
  if ('nulls' in col) {
    col.values[r] = cell as never;
    col.nulls![r] = 0;
  } else {
    (col.values as Cell[])[r] = cell;
  }
}

/** A numeric column whose every row got a value needs no null mask. */
function withoutEmptyMask(col: ColumnValues): ColumnValues {
  return 'nulls' in col && col.nulls !== null && !col.nulls.includes(1) ? { ...col, nulls: null } : col;
}

function columnType(ref: ColumnRef, ast: Insert, typeOf: (name: string) => ColumnType | undefined): ColumnType | '$timestamp' {
  if (ast.columns.find((c) => c.name === ref.name) !== ref) throw semanticError(`column '${ref.name}' is listed twice`, ref.offset);
  if (ref.name === '$timestamp') return '$timestamp';
  const type = typeOf(ref.name);
  if (type === undefined) throw semanticError(`table '${ast.table}' has no column '${ref.name}'`, ref.offset);
  return type;
}

function convert(v: InsertValue, type: ColumnType, column: string, nowNs: bigint): Cell {
  if (v.kind === 'Null') return null;
  const mismatch = (what: string) => semanticError(`column '${column}' (${type}) cannot take ${what}`, v.offset);
  switch (type) {
    case 'DOUBLE':
      if (v.kind === 'Number') return Number(v.value);
      throw mismatch(describe(v));
    case 'INT64':
    case 'TIMESTAMP':
      if (v.kind === 'Number' && v.isInteger) {
        if (v.value < INT64_MIN || v.value > INT64_MAX) throw semanticError(`integer ${v.text} is outside the int64 range`, v.offset);
        return v.value;
      }
      if (v.kind === 'TimePoint' && type === 'TIMESTAMP') return resolveTimePoint(v, nowNs);
      throw mismatch(describe(v));
    case 'STRING':
    case 'SYMBOL':
      if (v.kind === 'String') return v.value;
      throw mismatch(describe(v));
    case 'BLOB':
      if (v.kind === 'String') return encoder.encode(v.value);
      throw mismatch(describe(v));
    case 'BOOLEAN':
      if (v.kind === 'Boolean') return v.value;
      throw mismatch(describe(v));
  }
}

function describe(v: InsertValue): string {
  switch (v.kind) {
    case 'Number': return v.isInteger ? 'an integer' : 'a double';
    case 'String': return 'a string';
    case 'TimePoint': return 'a time';
    case 'Null': return 'NULL';
    case 'Boolean': return 'a boolean';
  }
}
