// Reads one column of a batch as plain typed arrays, the form every hot loop works on. Arrow's
// per-value accessors (Vector.get) are 20–70× slower and never used on a scan path.
import type { Vector } from 'apache-arrow';
import type { SealedBatch } from './sealed-batch.js';
import type { ColumnType, ColumnVector } from '../types.js';

const dictionaryCache = new WeakMap<object, string[]>();

/** Column `index` of `view` (0 = `$timestamp`, i+1 = schema column i; loaded) of type `type`. */
export function columnVector(view: SealedBatch, index: number, type: ColumnType): ColumnVector {
  const data = view.column(index);
  const validity = data.nullCount > 0 ? (data.nullBitmap as Uint8Array) : null;
  switch (type) {
    case 'DOUBLE':
      return { type, values: data.values as Float64Array, validity };
    case 'INT64':
    case 'TIMESTAMP':
      return { type, values: data.values as BigInt64Array, validity };
    case 'STRING':
    case 'BLOB':
      return { type, offsets: data.valueOffsets as Int32Array, data: data.values as Uint8Array, validity };
    case 'SYMBOL':
      return { type, indices: data.values as Int32Array, dictionary: dictionaryStrings(data.dictionary!), validity };
    case 'BOOLEAN':
      return { type, values: data.values as Uint8Array, validity };
  }
}

function dictionaryStrings(dictionary: Vector): string[] {
  let strings = dictionaryCache.get(dictionary);
  if (strings === undefined) {
    strings = dictionary.toArray() as string[];
    dictionaryCache.set(dictionary, strings);
  }
  return strings;
}
