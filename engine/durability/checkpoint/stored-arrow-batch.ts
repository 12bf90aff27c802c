// A sealed batch as a checkpoint file holds it: where its columns lie (BatchPlace, kept in the
// manifest) and how to read some of them back. Columns next to each other in the file are read
// with one read call (a gap of up to MAX_GAP unread bytes is read through rather than split);
// each column's bytes are checked against their crc32c before Arrow Data is made over them.
import type { Data } from 'apache-arrow';
import { SvcError } from '../../errors.js';
import type { StoredBatch } from '../../storage/sealed-batch.js';
import type { TableLayout } from '../../storage/table-layout.js';
import { crc32c } from '@node-rs/crc32';
import type { BatchPlace } from './arrow-file-writer.js';
import type { CheckpointFiles } from './checkpoint-files.js';
import { fieldData, fieldSpan, firstBuffers } from './ipc-layout.js';

/** Unread bytes between two wanted columns that are read through rather than split into two reads. */
const MAX_GAP = 64 * 1024;

interface Read {
  /** Body-relative byte range read, and the columns in it. */
  readonly start: number;
  readonly end: number;
  readonly columns: number[];
}

export class StoredArrowBatch implements StoredBatch {
  /** Per column, the index of its first buffer in `place.buffers`. */
  private readonly first: number[];

  constructor(
    private readonly files: CheckpointFiles,
    readonly file: string,
    readonly index: number,
    private readonly layout: TableLayout,
    private readonly rows: number,
    /** Null count of each of the batch's columns (from its statistics). */
    private readonly nullCounts: readonly number[],
    readonly place: BatchPlace,
  ) {
    this.first = firstBuffers(layout.schema.fields.slice(0, place.crcs.length).map((f) => f.type));
  }

  bytesOf(column: number): number {
    const [start, end] = fieldSpan(this.place.buffers, this.first, column);
    return end - start;
  }

  async read(columns: readonly number[]): Promise<Data[]> {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const bytes = Buffer.allocUnsafeSlow(r.end - r.start);
      await this.files.read(this.file, bytes, this.place.body + r.start);
      for (const c of r.columns) out.push(this.data(c, bytes, r.start));
    }
    return out;
  }

  readSync(columns: readonly number[]): Data[] {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const bytes = Buffer.allocUnsafeSlow(r.end - r.start);
      this.files.readSync(this.file, bytes, this.place.body + r.start);
      for (const c of r.columns) out.push(this.data(c, bytes, r.start));
    }
    return out;
  }

  /** `columns` (ascending) grouped into reads of neighbouring bytes. */
  private plan(columns: readonly number[]): Read[] {
    const reads: Read[] = [];
    for (const c of columns) {
      const [start, end] = fieldSpan(this.place.buffers, this.first, c);
      const last = reads.at(-1);
      if (last !== undefined && start >= last.end && start - last.end <= MAX_GAP) {
        reads[reads.length - 1] = { start: last.start, end, columns: [...last.columns, c] };
      } else {
        reads.push({ start, end, columns: [c] });
      }
    }
    return reads;
  }

  /** Column `c` over `bytes` (holding the body from `at` on), once its bytes pass their checksum. */
  private data(c: number, bytes: Uint8Array, at: number): Data {
    const [start, end] = fieldSpan(this.place.buffers, this.first, c);
    if (crc32c(bytes.subarray(start - at, end - at)) >>> 0 !== this.place.crcs[c]) {
      throw new SvcError('CheckpointCorrupt', `checkpoint file ${this.file} is damaged: column ${c} of batch ${this.index} fails its checksum`);
    }
    const type = this.layout.schema.fields[c].type;
    const dictionary = c === 0 ? null : (this.layout.dictionaries[c - 1]?.toVector() ?? null);
    return fieldData(type, this.rows, this.nullCounts[c], bytes, at, this.place.buffers, this.first[c], dictionary);
  }
}
