// What expression evaluation reads from: a batch (row context) or the finished groups of an
// aggregate query (group context). Both hand out Vecs addressed by position and own the scratch
// buffers of the run.
import type { Data } from 'apache-arrow';
import type { BatchView } from '../../../storage/sealed-batch.js';
import type { ColumnType } from '../../../types.js';
import type { Scratch } from '../run/scratch.js';
import { i64Vec } from '../../vector/vec.js';
import type { Vec } from '../../vector/vec.js';

export interface Frame {
  /** Number of addressable positions (batch rows or groups): the size of scratch buffers. */
  readonly size: number;
  readonly scratch: Scratch;
  column(index: number): Vec;
  aggregate(slot: number): Vec;
  groupKey(slot: number): Vec;
  bucket(): Vec;
  /** The values of row-sequence call `slot` at these positions (set by the operator). */
  sequence(slot: number): Vec;
}

/**
 * Row context: positions are rows, so group-context reads are planner bugs; row-sequence values
 * of the rows are set by the operator before the outputs read them.
 */
export abstract class RowContextFrame implements Frame {
  /** Row-sequence values of these rows, by slot. */
  readonly sequences: Vec[] = [];
  abstract readonly size: number;
  abstract readonly scratch: Scratch;
  abstract column(index: number): Vec;

  aggregate(): Vec {
    throw new Error('planner bug: aggregate read in row context');
  }

  groupKey(): Vec {
    throw new Error('planner bug: group key read in row context');
  }

  bucket(): Vec {
    throw new Error('planner bug: bucket read in row context');
  }

  sequence(slot: number): Vec {
    return this.sequences[slot];
  }
}

/**
 * Row context over one batch, whose columns the plan reads are loaded (scan/slice-reader.ts).
 * Column Vecs are built once per batch and shared by all readers.
 */
export class BatchFrame extends RowContextFrame {
  private readonly vecs: (Vec | undefined)[] = [];

  constructor(
    readonly view: BatchView,
    /** Types of batch columns by index: [TIMESTAMP, ...schema types]. */
    private readonly types: readonly ColumnType[],
    readonly scratch: Scratch,
  ) {
    super();
  }

  get size(): number {
    return this.view.rowCount;
  }

  column(index: number): Vec {
    let vec = this.vecs[index];
    if (vec === undefined) {
      vec = toVec(this.view, index, this.types[index]);
      this.vecs[index] = vec;
    }
    return vec;
  }
}

const dictionaries = new WeakMap<object, string[]>();

/**
 * Column `index` of a batch as a Vec, from the batch's Arrow Data directly (`getChildAt` would
 * build a Vector object per call, which costs more than answering a batch from its statistics).
 */
function toVec(view: BatchView, index: number, type: ColumnType): Vec {
  const data = view.column(index);
  const validity = data.nullCount > 0 ? (data.nullBitmap as Uint8Array) : null;
  switch (type) {
    case 'DOUBLE': return { kind: 'f64', values: data.values as Float64Array, validity };
    case 'INT64':
    case 'TIMESTAMP': return i64Vec(data.values as BigInt64Array, validity);
    case 'STRING':
    case 'BLOB': return { kind: 'bytes', offsets: data.valueOffsets as Int32Array, data: data.values as Uint8Array, validity };
    case 'SYMBOL': {
      const dictionary = data.dictionary!;
      let strings = dictionaries.get(dictionary);
      if (strings === undefined) { strings = dictionary.toArray() as string[]; dictionaries.set(dictionary, strings); }
      return { kind: 'dict', indices: data.values as Int32Array, dictionary: strings, validity };
    }
    case 'BOOLEAN': return { kind: 'f64', values: booleanValues(data), validity };
  }
}

const booleans = new WeakMap<object, Float64Array>();

/** A Bool column's bits as 0/1 doubles (made once per batch column): `boolean` values run as numbers. */
function booleanValues(data: Data): Float64Array {
  let out = booleans.get(data);
  if (out === undefined) {
    const bits = data.values as Uint8Array;
    out = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = (bits[i >> 3] >> (i & 7)) & 1;
    booleans.set(data, out);
  }
  return out;
}

/** Group context: finished aggregates, group keys and bucket starts, by group id. */
export class GroupFrame implements Frame {
  constructor(
    readonly size: number,
    readonly scratch: Scratch,
    private readonly aggregates: (slot: number) => Vec,
    private readonly keys: (slot: number) => Vec,
    private readonly buckets: () => Vec,
    /** Row-sequence values over the groups, by slot (filled before the outputs are evaluated). */
    readonly sequences: Vec[] = [],
  ) {}

  column(): Vec {
    throw new Error('planner bug: column read in group context');
  }

  aggregate(slot: number): Vec {
    return this.aggregates(slot);
  }

  groupKey(slot: number): Vec {
    return this.keys(slot);
  }

  bucket(): Vec {
    return this.buckets();
  }

  sequence(slot: number): Vec {
    return this.sequences[slot];
  }
}
