// Reads one column of a batch as plain typed arrays, the form every hot loop works on. Arrow's
// per-value accessors (Vector.get) are 20–70× slower and never used on a scan path.
import type { Data, Vector } from 'apache-arrow';
import type { BatchView, ColumnType, ColumnVector } from '../types.js';

const dictionaryCache = new WeakMap<object, string[]>();

/** Column `index` of `view` (0 = `$timestamp`, i+1 = schema column i) of type `type`. */
export function columnVector(view: BatchView, index: number, type: ColumnType): ColumnVector {
  // batch.data.children, not getChildAt(): that builds a Vector object on every call.
  const data = view.batch.data.children[index] as Data;
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
