// A blob as a checkpoint's blob file holds it: item `index` of the file, one framed msgpack item
// (entries-file.ts) between the end of the item before it and its own end. Reading it back reads
// that frame alone and checks its crc32c.
import { SvcError } from '../../errors.js';
import type { StoredBlob } from '../../catalog/blob-content.js';
import type { CheckpointFiles } from './checkpoint-files.js';
import { decodeEntryFrame } from './entries-file.js';

export class StoredEntryBlob implements StoredBlob {
  constructor(
    private readonly files: CheckpointFiles,
    readonly file: string,
    readonly index: number,
    /** Where the item's frame starts and ends in the file. */
    private readonly start: number,
    private readonly end: number,
  ) {}

  async read(): Promise<Uint8Array> {
    const frame = Buffer.allocUnsafeSlow(this.end - this.start);
    await this.files.read(this.file, [frame], this.start);
    const item = decodeEntryFrame(frame);
    if (item === null || item[0] !== 'blob') {
      throw new SvcError('CheckpointCorrupt', `checkpoint file ${this.file} is damaged: blob item ${this.index} fails its checksum`);
    }
    // A plain view of the frame's bytes (msgpack hands out a Buffer).
    return new Uint8Array(item[2].buffer, item[2].byteOffset, item[2].byteLength);
  }
}
