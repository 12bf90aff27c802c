// A sealed batch as a checkpoint file holds it: where its columns lie (BatchPlace, kept in the
// manifest) and how to read some of them back. Columns next to each other in the file are read
// with one readv call, each into a buffer of its own (so each can be evicted and its memory
// reused alone; a gap of up to MAX_GAP unread bytes is read through rather than split); each
// column's bytes are checked against their checksum (CRC-32, or crc32c for places written under
// version 4 manifests) before Arrow Data is made over them.
import type { Data } from 'apache-arrow';
import { SvcError } from '../../../errors.js';
import type { StoredBatch } from '../../../storage/sealed-batch.js';
import type { TableLayout } from '../../../storage/table-layout.js';
import { crc32, crc32c } from '@node-rs/crc32';
import type { CheckpointFiles } from '../checkpoint-files.js';
import { fieldData, fieldSpan, firstBuffers } from './ipc-layout.js';

/** Unread bytes between two wanted columns that are read through rather than split into two reads. */
const MAX_GAP = 64 * 1024;
/** Where the bytes between two wanted columns of one read go (never looked at). */
const GAP = new Uint8Array(MAX_GAP);

interface Read {
  /** Body-relative byte range read, and the columns in it. */
  readonly start: number;
  readonly end: number;
  readonly columns: number[];
}

/** Where one batch lies in its file: what reading its columns back needs. */
export interface BatchPlace {
  /** File offset of the batch's message body. */
  readonly body: number;
  /** [offset, length] of each body buffer relative to `body`, in field order (flattened). */
  readonly buffers: number[];
  /** Checksum of each field's bytes (its buffers, from the first's start to the last's end). */
  readonly crcs: number[];
  /**
   * How `crcs` were computed: 'crc32' (CRC-32, IEEE) since version 5 manifests; absent, crc32c
   * (places kept from version 4 manifests, whose files later manifests still name).
   */
  readonly checksum?: 'crc32';
}

export class StoredArrowBatch implements StoredBatch {
  /** Per column, the index of its first buffer in `place.buffers`. */
  private readonly first: number[];
  /** The checksum `place.crcs` holds. */
  private readonly sum: (bytes: Uint8Array) => number;

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
    this.sum = place.checksum === 'crc32' ? crc32 : crc32c;
  }

  bytesOf(column: number): number {
    const [start, end] = fieldSpan(this.place.buffers, this.first, column);
    return end - start;
  }

  async read(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Promise<Data[]> {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const into = this.buffers(r, allocate);
      await this.files.read(this.file, into.parts, this.place.body + r.start);
      r.columns.forEach((c, k) => out.push(this.data(c, into.columns[k])));
    }
    return out;
  }

  readSync(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Data[] {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const into = this.buffers(r, allocate);
      this.files.readSync(this.file, into.parts, this.place.body + r.start);
      r.columns.forEach((c, k) => out.push(this.data(c, into.columns[k])));
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

  /** One buffer per column of a read (its own memory), the bytes between them into scratch. */
  private buffers(r: Read, allocate: (bytes: number) => Uint8Array): { parts: Uint8Array[]; columns: Uint8Array[] } {
    const parts: Uint8Array[] = [];
    const columns: Uint8Array[] = [];
    let at = r.start;
    for (const c of r.columns) {
      const [start, end] = fieldSpan(this.place.buffers, this.first, c);
      if (start > at) parts.push(GAP.subarray(0, start - at));
      const column = allocate(end - start);
      parts.push(column);
      columns.push(column);
      at = end;
    }
    return { parts, columns };
  }

  /** Column `c` over `bytes` (its span of the body), once they pass their checksum. */
  private data(c: number, bytes: Uint8Array): Data {
    const [start] = fieldSpan(this.place.buffers, this.first, c);
    if (this.sum(bytes) >>> 0 !== this.place.crcs[c]) {
      throw new SvcError('CheckpointCorrupt', `checkpoint file ${this.file} is damaged: column ${c} of batch ${this.index} fails its checksum`);
    }
    const type = this.layout.schema.fields[c].type;
    const dictionary = c === 0 ? null : (this.layout.dictionaries[c - 1]?.toVector() ?? null);
    return fieldData(type, this.rows, this.nullCounts[c], bytes, start, this.place.buffers, this.first[c], dictionary);
  }
}
