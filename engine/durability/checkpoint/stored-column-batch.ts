// A sealed batch as a column file (manifest version 6) holds it, and how to read some of its
// columns back: neighbouring columns in one readv (a gap of up to MAX_GAP unread bytes is read
// through), a raw column straight into its read-back buffer, an encoded one into scratch memory
// and decoded from there into its buffer; every column's bytes are checked against their CRC-32
// before they are used. Scratch buffers are recycled (scratch-buffers.ts), so a cold scan
// allocates nothing per batch.
import type { Data } from 'apache-arrow';
import { crc32 } from '@node-rs/crc32';
import { SvcError } from '../../errors.js';
import type { StoredBatch } from '../../storage/sealed-batch.js';
import type { TableLayout } from '../../storage/table-layout.js';
import type { ColumnType } from '../../types.js';
import type { CheckpointFiles } from './checkpoint-files.js';
import { columnData, decodeColumn } from './column-codec.js';
import type { ColumnPlace } from './column-file.js';
import { giveScratch, takeScratch } from './scratch-buffers.js';

const MAX_GAP = 64 * 1024;

interface Read {
  /** File byte range read, and the columns in it. */
  readonly start: number;
  readonly end: number;
  readonly columns: number[];
}

export class StoredColumnBatch implements StoredBatch {
  constructor(
    private readonly files: CheckpointFiles,
    readonly file: string,
    readonly index: number,
    private readonly layout: TableLayout,
    private readonly rows: number,
    /** Null count of each of the batch's columns (from its statistics). */
    private readonly nullCounts: readonly number[],
    readonly columns: readonly ColumnPlace[],
  ) {}

  bytesOf(column: number): number {
    return this.columns[column][3];
  }

  async read(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Promise<Data[]> {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const into = this.buffers(r, allocate);
      try {
        await this.files.read(this.file, into.parts, r.start);
        r.columns.forEach((c, k) => out.push(this.data(c, into.encoded[k], into.columns[k])));
      } finally {
        if (into.scratch !== null) giveScratch(into.scratch);
      }
    }
    return out;
  }

  readSync(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Data[] {
    const out: Data[] = [];
    for (const r of this.plan(columns)) {
      const into = this.buffers(r, allocate);
      try {
        this.files.readSync(this.file, into.parts, r.start);
        r.columns.forEach((c, k) => out.push(this.data(c, into.encoded[k], into.columns[k])));
      } finally {
        if (into.scratch !== null) giveScratch(into.scratch);
      }
    }
    return out;
  }

  /** `columns` (ascending) grouped into reads of neighbouring bytes. */
  private plan(columns: readonly number[]): Read[] {
    const reads: Read[] = [];
    for (const c of columns) {
      const [, start, size] = this.columns[c];
      const end = start + size;
      const last = reads.at(-1);
      if (last !== undefined && start >= last.end && start - last.end <= MAX_GAP) {
        reads[reads.length - 1] = { start: last.start, end, columns: [...last.columns, c] };
      } else {
        reads.push({ start, end, columns: [c] });
      }
    }
    return reads;
  }

  /**
   * Where a read's bytes go: a raw column into its own read-back buffer, encoded columns and the
   * gaps between columns into one scratch buffer (each encoded column 8-byte aligned in it).
   */
  private buffers(r: Read, allocate: (bytes: number) => Uint8Array) {
    let scratchBytes = 0;
    for (const c of r.columns) if (this.columns[c][0] !== 'raw') scratchBytes += Math.ceil(this.columns[c][2] / 8) * 8;
    const gaps = r.end - r.start;
    const scratch = takeScratch(scratchBytes + Math.min(gaps, MAX_GAP));
    const parts: Uint8Array[] = [];
    const columns: Uint8Array[] = [];
    const encoded: Uint8Array[] = [];
    let at = r.start;
    let used = 0;
    const gapAt = scratch.length - Math.min(gaps, MAX_GAP);
    for (const c of r.columns) {
      const [codec, start, size, bytes] = this.columns[c];
      if (start > at) parts.push(scratch.subarray(gapAt, gapAt + (start - at)));
      const column = allocate(bytes);
      columns.push(column);
      if (codec === 'raw') {
        if (size !== bytes) throw this.damaged(c, `is raw but ${size} bytes on disk for ${bytes} in memory`);
        parts.push(column);
        encoded.push(column);
      } else {
        const into = scratch.subarray(used, used + size);
        used += Math.ceil(size / 8) * 8;
        parts.push(into);
        encoded.push(into);
      }
      at = start + size;
    }
    return { parts, columns, encoded, scratch };
  }

  /** Column `c`: its bytes on disk checked, decoded into `into` (unless raw: read there), as Arrow Data. */
  private data(c: number, encoded: Uint8Array, into: Uint8Array): Data {
    const [codec, , , , crc] = this.columns[c];
    if (crc32(encoded) >>> 0 !== crc) throw this.damaged(c, 'fails its checksum');
    const type: ColumnType = c === 0 ? 'TIMESTAMP' : this.layout.columns[c - 1].type;
    try {
      decodeColumn(codec, encoded, type, this.rows, this.nullCounts[c], into);
    } catch (e) {
      if (e instanceof RangeError) throw this.damaged(c, `does not decode (${e.message})`);
      throw e;
    }
    const dictionary = c === 0 ? null : (this.layout.dictionaries[c - 1]?.toVector() ?? null);
    return columnData(this.layout.schema.fields[c].type, type, this.rows, this.nullCounts[c], into, dictionary);
  }

  private damaged(c: number, what: string): SvcError {
    return new SvcError('CheckpointCorrupt', `checkpoint file ${this.file} is damaged: column ${c} of batch ${this.index} ${what}`);
  }
}
