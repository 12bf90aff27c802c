// The types of values while a query runs, and how column types and operators meet them: a leaf
// of the planner that the expression trees (plan-expr.ts), the aggregate registry and the
// executor's builders all import.
import type { ColumnType } from '../../types.js';

/**
 * Types of values while a query runs. `symbol` behaves as `string`; `bool` only in conditions.
 * `boolean` is a BOOLEAN column's value (or TRUE/FALSE): held as 0/1 doubles, it compares with
 * `=` and `!=` only and takes count, first, last, min, max and distinct_count.
 */
export type ValueType = 'double' | 'int64' | 'timestamp' | 'string' | 'blob' | 'symbol' | 'boolean' | 'bool' | 'null';

/** The value type of each column type. */
export const VALUE_TYPES: Readonly<Record<ColumnType, ValueType>> = {
  DOUBLE: 'double', INT64: 'int64', TIMESTAMP: 'timestamp', STRING: 'string', BLOB: 'blob', SYMBOL: 'symbol', BOOLEAN: 'boolean',
};

export function isNumericType(t: ValueType): boolean {
  return t === 'double' || t === 'int64' || t === 'timestamp';
}

export function isTextType(t: ValueType): boolean {
  return t === 'string' || t === 'symbol';
}

/** Strings, symbols and blobs: the types regex operators accept. */
export function isBytesType(t: ValueType): boolean {
  return t === 'string' || t === 'symbol' || t === 'blob';
}
