// Arrow column data (apache-arrow `makeData`) built straight from a result's typed arrays: the
// Float64Array / BigInt64Array values are used as they are (no copy), validity bitmaps are
// packed from the result's one-byte-per-row null flags, strings and blobs are laid out once into
// one offsets array and one byte buffer, symbols become a Dictionary<Utf8, Int32>. NaN and
// ±Infinity stay IEEE values here (Arrow has them; the JSON encoders write them as null).
import {
  Binary, Bool, Dictionary, Field, Float64, Int32, Int64, makeData, makeVector, Null, TimestampNanosecond, Utf8,
} from 'apache-arrow';
import type { Data, DataType } from 'apache-arrow';
import type { ResultColumn } from '../query/result.js';

export interface ArrowColumn {
  readonly field: Field;
  readonly data: Data;
}

/** The row time of a result table: `timestamp`, Timestamp(ns, UTC), nullable. */
export function rowTimeColumn(timestamps: BigInt64Array, nulls: Uint8Array | null, length: number): ArrowColumn {
  const type = new TimestampNanosecond('UTC');
  const { nullBitmap, nullCount } = validity(nulls, null, length);
  return { field: new Field('timestamp', type, true), data: makeData({ type, length, nullCount, nullBitmap, data: timestamps.subarray(0, length) }) };
}

/** A result column as Arrow data of its type (SPEC §7); `none` (all null) → the Null type. */
export function resultColumn(column: ResultColumn, length: number): ArrowColumn {
  const data = columnData(column, length);
  return { field: new Field(column.name, data.type, true), data };
}

function columnData(column: ResultColumn, length: number): Data<DataType> {
  switch (column.type) {
    case 'none':
      return makeData({ type: new Null(), length });
    case 'double': {
      const { nullBitmap, nullCount } = validity(column.nulls, null, length);
      return makeData({ type: new Float64(), length, nullCount, nullBitmap, data: (column.values as Float64Array).subarray(0, length) });
    }
    case 'boolean': {
      const { nullBitmap, nullCount } = validity(column.nulls, null, length);
      const values = column.values as Float64Array;
      const bits = new Uint8Array((length + 7) >> 3);
      for (let i = 0; i < length; i++) if (values[i] !== 0) bits[i >> 3] |= 1 << (i & 7);
      return makeData({ type: new Bool(), length, nullCount, nullBitmap, data: bits });
    }
    case 'int64':
    case 'count': {
      const { nullBitmap, nullCount } = validity(column.nulls, null, length);
      return makeData({ type: new Int64(), length, nullCount, nullBitmap, data: (column.values as BigInt64Array).subarray(0, length) });
    }
    case 'timestamp': {
      const { nullBitmap, nullCount } = validity(column.nulls, null, length);
      const type = new TimestampNanosecond('UTC');
      return makeData({ type, length, nullCount, nullBitmap, data: (column.values as BigInt64Array).subarray(0, length) });
    }
    case 'string': {
      const values = column.values as (string | null)[];
      const { nullBitmap, nullCount } = validity(column.nulls, values, length);
      return utf8Data(values, nullBitmap, nullCount, length);
    }
    case 'symbol':
      return symbolData(column.values as (string | null)[], column.nulls, length);
    case 'blob': {
      const values = column.values as (Uint8Array | null)[];
      const { nullBitmap, nullCount } = validity(column.nulls, values, length);
      const valueOffsets = new Int32Array(length + 1);
      let size = 0;
      for (let i = 0; i < length; i++) {
        const v = values[i];
        if (v !== null && nullBitmap[i >> 3] & (1 << (i & 7))) size += v.byteLength;
        valueOffsets[i + 1] = size;
      }
      const bytes = new Uint8Array(size);
      for (let i = 0; i < length; i++) {
        const v = values[i];
        if (valueOffsets[i + 1] > valueOffsets[i]) bytes.set(v!, valueOffsets[i]);
      }
      return makeData({ type: new Binary(), length, nullCount, nullBitmap, valueOffsets, data: bytes });
    }
  }
}

/**
 * Arrow validity (bit set = valid) from one-byte null flags and, for string/blob columns, null
 * entries of the values themselves. Always returns a bitmap (the writer omits an all-valid one
 * only when nullCount is 0, which costs nothing to keep).
 */
function validity(nulls: Uint8Array | null, values: readonly unknown[] | null, length: number): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < length; i++) {
    if ((nulls !== null && nulls[i] !== 0) || (values !== null && values[i] === null)) nullCount++;
    else nullBitmap[i >> 3] |= 1 << (i & 7);
  }
  return { nullBitmap, nullCount };
}

/**
 * Utf8 data of the valid strings. All-ASCII text (the common case) is encoded in one call and
 * its offsets are the string lengths; otherwise each string is measured and written in place
 * (a lone surrogate becomes U+FFFD, as any UTF-8 encoder writes it).
 */
function utf8Data(values: readonly (string | null)[], nullBitmap: Uint8Array, nullCount: number, length: number): Data<Utf8> {
  const isValid = (i: number) => (nullBitmap[i >> 3] & (1 << (i & 7))) !== 0;
  const valueOffsets = new Int32Array(length + 1);
  const parts: string[] = [];
  let chars = 0;
  for (let i = 0; i < length; i++) {
    if (isValid(i)) {
      const v = values[i]!;
      parts.push(v);
      chars += v.length;
    }
    valueOffsets[i + 1] = chars;
  }
  let bytes: Uint8Array = Buffer.from(parts.join(''), 'utf8');
  if (bytes.byteLength !== chars) {
    let size = 0;
    for (let i = 0; i < length; i++) {
      if (isValid(i)) size += Buffer.byteLength(values[i]!, 'utf8');
      valueOffsets[i + 1] = size;
    }
    const buffer = Buffer.allocUnsafe(size);
    for (let i = 0; i < length; i++) {
      if (isValid(i)) buffer.write(values[i]!, valueOffsets[i], 'utf8');
    }
    bytes = buffer;
  }
  return makeData({ type: new Utf8(), length, nullCount, nullBitmap, valueOffsets, data: bytes });
}

/** Dictionary<Utf8, Int32> of a symbol column: each distinct value once, in first-seen order. */
function symbolData(values: readonly (string | null)[], nulls: Uint8Array | null, length: number): Data<Dictionary<Utf8, Int32>> {
  const { nullBitmap, nullCount } = validity(nulls, values, length);
  const codes = new Map<string, number>();
  const indices = new Int32Array(length);
  for (let i = 0; i < length; i++) {
    if ((nullBitmap[i >> 3] & (1 << (i & 7))) === 0) continue;
    const v = values[i]!;
    let code = codes.get(v);
    if (code === undefined) {
      code = codes.size;
      codes.set(v, code);
    }
    indices[i] = code;
  }
  const words = [...codes.keys()];
  const allValid = new Uint8Array((words.length + 7) >> 3).fill(255);
  const dictionary = makeVector(utf8Data(words, allValid, 0, words.length));
  const type = new Dictionary(new Utf8(), new Int32());
  return makeData({ type, length, nullCount, nullBitmap, data: indices, dictionary });
}
