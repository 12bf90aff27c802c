// Batches as worker threads see them (operators/aggregate-parts.ts): the columns a part reads
// described by where they lie in SharedArrayBuffer memory (memory/memory-budget.ts: a database
// with workers seals and reads back its batches there), and in the worker the batch rebuilt as
// Arrow data over that same memory — nothing copied either way. Only fixed-width columns travel
// (numbers, times, booleans); a column in plain memory (a tail's view, an older file read whole)
// or of another type keeps its slice on the main thread.
import { makeData } from 'apache-arrow';
import type { Data } from 'apache-arrow';
import { arrowType } from '../../../storage/arrow-schema.js';
import type { BatchView, SealedBatch } from '../../../storage/sealed-batch.js';
import type { ColumnStats, ColumnType } from '../../../types.js';

/** A typed view's memory: the buffer, the byte offset and the byte length. */
type SharedView = readonly [SharedArrayBuffer, number, number];

interface ColumnShare {
  readonly nullCount: number;
  readonly values: SharedView;
  readonly validity: SharedView | null;
}

/** A batch's rows as a part reads them: its bounds and the shared columns it reads, by batch column index. */
export interface BatchShare {
  readonly rowCount: number;
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly columns: readonly (ColumnShare | null)[];
}

/** The column types workers read. */
export function isShareableType(type: ColumnType): boolean {
  return type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP' || type === 'BOOLEAN';
}

/**
 * The loaded `columns` of `view` as shared memory, or null when one of them is not (or is past
 * the batch's own columns: added to the table after it was written).
 */
export function shareBatch(view: SealedBatch, columns: readonly number[]): BatchShare | null {
  const out: (ColumnShare | null)[] = [];
  for (const c of columns) {
    if (c >= view.stats.length) return null;
    const d = view.column(c);
    const values = sharedView(d.values as ArrayBufferView);
    const validity = d.nullCount > 0 ? sharedView(d.nullBitmap as ArrayBufferView) : null;
    if (values === null || (d.nullCount > 0 && validity === null)) return null;
    out[c] = { nullCount: d.nullCount, values, validity };
  }
  return { rowCount: view.rowCount, minTs: view.minTs, maxTs: view.maxTs, columns: out };
}

function sharedView(a: ArrayBufferView | undefined): SharedView | null {
  if (a === undefined || !(a.buffer instanceof SharedArrayBuffer)) return null;
  return [a.buffer, a.byteOffset, a.byteLength];
}

/** A shared batch in a worker, over the memory the main thread described. */
export class SharedBatchView implements BatchView {
  private readonly data: (Data | undefined)[] = [];

  constructor(private readonly share: BatchShare, private readonly types: readonly ColumnType[]) {}

  get rowCount(): number {
    return this.share.rowCount;
  }

  get minTs(): bigint {
    return this.share.minTs;
  }

  get maxTs(): bigint {
    return this.share.maxTs;
  }

  get ts(): BigInt64Array {
    return this.column(0).values as BigInt64Array;
  }

  column(index: number): Data {
    let d = this.data[index];
    if (d !== undefined) return d;
    const c = this.share.columns[index];
    if (c === null || c === undefined) throw new Error(`column ${index} of a shared batch was read without being shared`);
    const type = this.types[index];
    const n = this.share.rowCount;
    const [buffer, offset, bytes] = c.values;
    const values = type === 'DOUBLE' ? new Float64Array(buffer, offset, bytes / 8)
      : type === 'BOOLEAN' ? new Uint8Array(buffer, offset, bytes) : new BigInt64Array(buffer, offset, bytes / 8);
    const nullBitmap = c.validity === null ? undefined : new Uint8Array(c.validity[0], c.validity[1], c.validity[2]);
    d = makeData({ type: arrowType(type), length: n, nullCount: c.nullCount, data: values, nullBitmap } as never) as Data;
    this.data[index] = d;
    return d;
  }

  statsOf(): ColumnStats {
    throw new Error('a worker never answers a batch from its statistics: the main thread does');
  }
}
