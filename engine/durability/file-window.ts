// A sliding window over a file read in chunks through a file handle, so files of any size are
// read without ever holding them whole (readFile stops at Node's 2 GiB Buffer cap). A range asked
// for may straddle chunks or exceed the chunk size; the window then grows to hold it.
import type { FileHandle } from 'node:fs/promises';
import { crc32c } from '@node-rs/crc32';
import { ioLimits } from './io-limits.js';

export class FileWindow {
  private buf: Buffer;
  /** File offset of buf[0], and how many bytes of buf are loaded. */
  private start = 0;
  private loaded = 0;

  constructor(private readonly fh: FileHandle, readonly size: number) {
    this.buf = Buffer.allocUnsafe(Math.max(16, Math.min(ioLimits.readChunkBytes, size)));
  }

  /** File offset just past the loaded bytes. */
  get end(): number {
    return this.start + this.loaded;
  }

  /** True when [pos, pos + length) is loaded: `peek` may then be called without awaiting. */
  holds(pos: number, length: number): boolean {
    return pos >= this.start && pos + length <= this.end;
  }

  /** A view of loaded bytes [pos, pos + length); valid until the next `load`. */
  peek(pos: number, length: number): Buffer {
    return this.buf.subarray(pos - this.start, pos - this.start + length);
  }

  /**
   * Loads [pos, pos + length) (plus as much after it as fits) and returns a view of it. The
   * caller keeps pos + length within the file.
   */
  async load(pos: number, length: number): Promise<Buffer> {
    if (!this.holds(pos, length)) {
      const want = Math.max(length, Math.min(ioLimits.readChunkBytes, this.size - pos));
      if (want > this.buf.length) this.buf = Buffer.allocUnsafe(want);
      this.start = pos;
      this.loaded = 0;
      while (this.loaded < want) {
        const { bytesRead } = await this.fh.read(this.buf, this.loaded, want - this.loaded, pos + this.loaded);
        if (bytesRead === 0) throw new Error(`file ended at byte ${pos + this.loaded}, expected ${this.size} bytes`);
        this.loaded += bytesRead;
      }
    }
    return this.peek(pos, length);
  }
}

/** crc32c of the file's bytes [pos, pos + length), read in chunks without disturbing any window. */
export async function crcOfRange(fh: FileHandle, pos: number, length: number, crc = 0): Promise<number> {
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(ioLimits.readChunkBytes, length)));
  for (let at = 0; at < length;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, length - at), pos + at);
    if (bytesRead === 0) break;
    crc = crc32c(buf.subarray(0, bytesRead), crc);
    at += bytesRead;
  }
  return crc >>> 0;
}
