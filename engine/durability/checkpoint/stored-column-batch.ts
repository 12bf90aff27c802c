// A sealed batch as a column file (manifest version 6) holds it, and how to read some of its
// columns back: neighbouring columns in one readv (a gap of up to MAX_GAP unread bytes is read
// through), a raw column straight into its read-back buffer, an encoded one into scratch memory
// and decoded from there into its buffer — through the batch's series order, read with them,
// when the batch is in series-major order (batch-codec.ts); every region's bytes are checked
// against their CRC-32 before they are used. Scratch buffers are recycled (scratch-buffers.ts), so a cold scan
// allocates nothing per batch.
import type { Data } from 'apache-arrow';
import { crc32 } from '@node-rs/crc32';
import { SvcError } from '../../errors.js';
import type { StoredBatch } from '../../storage/sealed-batch.js';
import type { TableLayout } from '../../storage/table-layout.js';
import type { ColumnType } from '../../types.js';
import type { CheckpointFiles } from './checkpoint-files.js';
import { decodeSeriesOrder, seriesMajor } from '../../codecs/series-order.js';
import { decodeColumn } from './column-codec.js';
import { columnData } from './column-layout.js';
import type { RowOrder } from './series-layout.js';
import type { ColumnPlace, RegionPlace } from './column-file.js';
import { giveScratch, takeScratch } from './scratch-buffers.js';

const MAX_GAP = 64 * 1024;

/** What a read fetches: a column (its index) or the batch's series order (-1). */
interface Region {
  readonly key: number;
  readonly start: number;
  readonly size: number;
}

interface Read {
  /** File byte range read, and the regions in it. */
  readonly start: number;
  readonly end: number;
  readonly regions: Region[];
}

const ORDER = -1;

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
    /** Where the batch's series order lies (null: its columns are in time order). */
    readonly order: RegionPlace | null,
  ) {}

  bytesOf(column: number): number {
    return this.columns[column][3];
  }

  async read(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Promise<Data[]> {
    const into = this.buffers(columns, allocate);
    try {
      for (const r of into.reads) await this.files.read(this.file, r.parts, r.start);
      return this.decode(columns, into);
    } finally {
      giveScratch(into.scratch);
    }
  }

  readSync(columns: readonly number[], allocate: (bytes: number) => Uint8Array): Data[] {
    const into = this.buffers(columns, allocate);
    try {
      for (const r of into.reads) this.files.readSync(this.file, r.parts, r.start);
      return this.decode(columns, into);
    } finally {
      giveScratch(into.scratch);
    }
  }

  /** The regions of `columns` (ascending), and the series order when an encoded column needs it, grouped into reads of neighbouring bytes. */
  private plan(columns: readonly number[]): Read[] {
    const regions: Region[] = columns.map((c) => ({ key: c, start: this.columns[c][1], size: this.columns[c][2] }));
    if (this.order !== null && columns.some((c) => this.columns[c][0] !== 'raw')) regions.unshift({ key: ORDER, start: this.order[0], size: this.order[1] });
    regions.sort((a, b) => a.start - b.start);
    const reads: Read[] = [];
    for (const g of regions) {
      const last = reads.at(-1);
      if (last !== undefined && g.start >= last.end && g.start - last.end <= MAX_GAP) {
        reads[reads.length - 1] = { start: last.start, end: g.start + g.size, regions: [...last.regions, g] };
      } else {
        reads.push({ start: g.start, end: g.start + g.size, regions: [g] });
      }
    }
    return reads;
  }

  /**
   * Where the reads' bytes go: a raw column into its own read-back buffer; the series order,
   * encoded columns and the gaps between regions into one scratch buffer (each region 8-byte
   * aligned in it), followed by room to decode a column in series-major order before it is put
   * in time order.
   */
  private buffers(columns: readonly number[], allocate: (bytes: number) => Uint8Array) {
    const reads = this.plan(columns);
    let encodedBytes = 0;
    let largest = 0;
    for (const r of reads) {
      for (const g of r.regions) if (g.key === ORDER || this.columns[g.key][0] !== 'raw') encodedBytes += Math.ceil(g.size / 8) * 8;
    }
    if (this.order !== null) for (const c of columns) if (this.columns[c][0] !== 'raw') largest = Math.max(largest, this.columns[c][3]);
    const gapRoom = reads.some((r) => r.regions.length > 1) ? MAX_GAP : 0;
    const scratch = takeScratch(encodedBytes + Math.ceil(largest / 8) * 8 + gapRoom);
    const gap = scratch.subarray(scratch.length - gapRoom);
    const decodeRoom = scratch.subarray(encodedBytes, encodedBytes + largest);
    const bytes = new Map<number, Uint8Array>();
    const targets = new Map<number, Uint8Array>();
    let used = 0;
    const planned = reads.map((r) => {
      const parts: Uint8Array[] = [];
      let at = r.start;
      for (const g of r.regions) {
        if (g.start > at) parts.push(gap.subarray(0, g.start - at));
        let place: Uint8Array;
        if (g.key !== ORDER && this.columns[g.key][0] === 'raw') {
          const [, , size, decoded] = this.columns[g.key];
          if (size !== decoded) throw this.damaged(g.key, `is raw but ${size} bytes on disk for ${decoded} in memory`);
          place = allocate(decoded);
          targets.set(g.key, place);
        } else {
          place = scratch.subarray(used, used + g.size);
          used += Math.ceil(g.size / 8) * 8;
          if (g.key !== ORDER) targets.set(g.key, allocate(this.columns[g.key][3]));
        }
        bytes.set(g.key, place);
        parts.push(place);
        at = g.start + g.size;
      }
      return { start: r.start, parts };
    });
    return { reads: planned, bytes, targets, scratch, decodeRoom };
  }

  /** The columns read: each checked against its CRC-32, decoded into its buffer (unless raw: read there), as Arrow Data. */
  private decode(columns: readonly number[], into: ReturnType<StoredColumnBatch['buffers']>): Data[] {
    let order: RowOrder | null = null;
    const encodedOrder = into.bytes.get(ORDER);
    if (encodedOrder !== undefined) {
      if (crc32(encodedOrder) >>> 0 !== this.order![2]) throw this.damaged(ORDER, 'fails its checksum');
      try {
        const series = decodeSeriesOrder(encodedOrder);
        if (series.ids.length !== this.rows) throw new RangeError(`${series.ids.length} rows, expected ${this.rows}`);
        order = { order: series, rowsAt: seriesMajor(series.ids, series.series) };
      } catch (e) {
        if (e instanceof RangeError) throw this.damaged(ORDER, `does not decode (${e.message})`);
        throw e;
      }
    }
    return columns.map((c) => this.data(c, into.bytes.get(c)!, into.targets.get(c)!, order, into.decodeRoom));
  }

  /** Column `c`: its bytes on disk checked, decoded into `into` (unless raw: read there), as Arrow Data. */
  private data(c: number, encoded: Uint8Array, into: Uint8Array, order: RowOrder | null, decodeRoom: Uint8Array): Data {
    const [codec, , , , crc] = this.columns[c];
    if (crc32(encoded) >>> 0 !== crc) throw this.damaged(c, 'fails its checksum');
    const type: ColumnType = c === 0 ? 'TIMESTAMP' : this.layout.columns[c - 1].type;
    try {
      decodeColumn(codec, encoded, type, this.rows, this.nullCounts[c], into, codec === 'raw' ? null : order, decodeRoom, this.symbolIndex(c));
    } catch (e) {
      if (e instanceof RangeError) throw this.damaged(c, `does not decode (${e.message})`);
      throw e;
    }
    const dictionary = c === 0 ? null : (this.layout.dictionaries[c - 1]?.toVector() ?? null);
    return columnData(this.layout.schema.fields[c].type, type, this.rows, this.nullCounts[c], into, dictionary);
  }

  /** Column `c`'s place among the batch's SYMBOL columns (its series table's order), or -1. */
  private symbolIndex(c: number): number {
    if (c === 0 || this.layout.columns[c - 1].type !== 'SYMBOL') return -1;
    let k = 0;
    for (let i = 1; i < c; i++) if (this.layout.columns[i - 1].type === 'SYMBOL') k++;
    return k;
  }

  private damaged(c: number, what: string): SvcError {
    const part = c === ORDER ? 'the series order' : `column ${c}`;
    return new SvcError('CheckpointCorrupt', `checkpoint file ${this.file} is damaged: ${part} of batch ${this.index} ${what}`);
  }
}
