// Converts a user's columnar batch (the embedded API's input) into typed columns by name, the
// form the write path takes. Typed arrays of the column's type are used as they are, not copied:
// the write path reads them during the insert call (the WAL writes them and the table copies the
// rows it keeps), so the caller may reuse its arrays once the call returns. Rows keep the
// caller's order: the table groups them by shard and each shard sorts its own rows. Lengths and
// missing columns are the write path's to check, as for every other producer.
import type { ColumnValues } from '../storage/column-values.js';
import { SvcError } from '../errors.js';
import { TIMESTAMP_COLUMN } from '../storage/arrow-schema.js';
import type { ColumnDef, ColumnType } from '../types.js';
import type { TableRows } from './write-ops.js';

/** A columnar batch as users pass it: `$timestamp` plus any of the table's columns. */
export type ColumnarBatch = { readonly [column: string]: unknown };

/** `input`'s columns converted to the types of `schema` (ColumnNotFound for a column it lacks). */
export function toTableRows(table: string, schema: readonly ColumnDef[], input: ColumnarBatch): TableRows {
  if (input === null || typeof input !== 'object') throw new SvcError('InvalidArgument', 'a batch must be an object of columns');
  const ts = toInt64(input[TIMESTAMP_COLUMN], TIMESTAMP_COLUMN, false).values;
  const columns: Record<string, ColumnValues> = {};
  for (const key of Object.keys(input)) {
    if (key === TIMESTAMP_COLUMN) continue;
    const def = schema.find((c) => c.name === key);
    if (def === undefined) throw new SvcError('ColumnNotFound', `table '${table}' has no column '${key}'`);
    if (input[key] !== undefined) columns[key] = toColumn(def, input[key]);
  }
  return { ts, columns };
}

function toColumn(def: ColumnDef, raw: unknown): ColumnValues {
  switch (def.type) {
    case 'DOUBLE': return toDouble(raw, def.name);
    case 'INT64':
    case 'TIMESTAMP': return { ...toInt64(raw, def.name, true), type: def.type };
    case 'STRING':
    case 'SYMBOL': return { type: def.type, values: toList(raw, def, (v) => typeof v === 'string') as (string | null)[] };
    case 'BLOB': return { type: 'BLOB', values: toList(raw, def, (v) => v instanceof Uint8Array).map(copyBytes) };
    case 'BOOLEAN': return { type: 'BOOLEAN', values: toList(raw, def, (v) => typeof v === 'boolean') as (boolean | null)[] };
  }
}

function toDouble(raw: unknown, name: string): ColumnValues {
  if (raw instanceof Float64Array) return { type: 'DOUBLE', values: raw, nulls: null };
  const list = asList(raw, name, 'DOUBLE');
  const values = new Float64Array(list.length);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v === null || v === undefined) (nulls ??= new Uint8Array(list.length))[i] = 1;
    else if (typeof v === 'number') values[i] = v;
    else if (typeof v === 'bigint') values[i] = Number(v);
    else throw badValue(name, 'DOUBLE', i, v);
  }
  return { type: 'DOUBLE', values, nulls };
}

function toInt64(raw: unknown, name: string, nullable: boolean): { type: 'INT64'; values: BigInt64Array; nulls: Uint8Array | null } {
  if (raw instanceof BigInt64Array) return { type: 'INT64', values: raw, nulls: null };
  if (raw === undefined && !nullable) throw new SvcError('InvalidArgument', `a batch needs a ${TIMESTAMP_COLUMN} column`);
  const list = asList(raw, name, 'INT64');
  const values = new BigInt64Array(list.length);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if ((v === null || v === undefined) && nullable) (nulls ??= new Uint8Array(list.length))[i] = 1;
    else if (typeof v === 'bigint' && BigInt.asIntN(64, v) === v) values[i] = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) values[i] = BigInt(v);
    else if (v instanceof Date && nullable) values[i] = BigInt(v.getTime()) * 1_000_000n;
    else throw badValue(name, 'an int64', i, v);
  }
  return { type: 'INT64', values, nulls };
}

function toList(raw: unknown, def: ColumnDef, isOk: (v: unknown) => boolean): unknown[] {
  const list = Array.from(asList(raw, def.name, def.type));
  return list.map((v, i) => {
    if (v === null || v === undefined) return null;
    if (!isOk(v)) throw badValue(def.name, def.type, i, v);
    return v;
  });
}

function asList(raw: unknown, name: string, type: ColumnType | 'INT64'): ArrayLike<unknown> {
  if (Array.isArray(raw)) return raw;
  if (ArrayBuffer.isView(raw) && !(raw instanceof DataView)) return raw as unknown as ArrayLike<unknown>;
  throw new SvcError('InvalidArgument', `column '${name}' must be an array of ${type} values`);
}

function copyBytes(v: unknown): Uint8Array | null {
  // Not .slice(): on a Buffer that returns a view sharing the caller's memory.
  return v === null ? null : new Uint8Array(v as Uint8Array);
}

function badValue(name: string, type: string, row: number, v: unknown): SvcError {
  const shown = typeof v === 'string' ? `'${v.slice(0, 40)}'` : typeof v === 'bigint' ? `${v}n` : String(v);
  return new SvcError('InvalidArgument', `column '${name}' row ${row}: ${shown} is not ${type.startsWith('a') ? type : `a ${type}`} value`);
}
