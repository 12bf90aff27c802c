// Bytes held as several chunks in order — the parts of a log entry cut under a message limit
// (engine/cluster/entry-chunks.ts) — read where they are: numbers and short runs across a chunk
// border, long runs copied once into a buffer of their own. So an entry of several parts is
// checked and decoded (frame.ts, records.ts) without first being joined into one copy; a single
// chunk (a WAL frame, a one-part entry) reads as the array itself.
import { crc32c } from '@node-rs/crc32';

export class ByteChunks {
  readonly length: number;
  /** Offset of each chunk's first byte. */
  private readonly starts: number[] = [];

  private readonly chunks: readonly Uint8Array[];

  constructor(chunks: readonly Uint8Array[]) {
    this.chunks = chunks.length === 0 ? [new Uint8Array(0)] : chunks;
    let at = 0;
    for (const c of this.chunks) {
      this.starts.push(at);
      at += c.length;
    }
    this.length = at;
  }

  /** Bytes [from, to) as one array: a view when they lie in one chunk, else a copy. */
  view(from: number, to: number): Uint8Array {
    const i = this.chunkAt(from);
    const c = this.chunks[i];
    const start = this.starts[i];
    if (to - start <= c.length) return c.subarray(from - start, to - start);
    const out = new Uint8Array(to - from);
    this.copyInto(out, from, to);
    return out;
  }

  /** A copy of bytes [from, to) in a buffer of its own (8-byte aligned: typed arrays may view it). */
  copy(from: number, to: number): ArrayBuffer {
    const out = new Uint8Array(to - from);
    this.copyInto(out, from, to);
    return out.buffer;
  }

  /** The little-endian u32 at `at`. */
  u32(at: number): number {
    const b = this.view(at, at + 4);
    return (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
  }

  /** Bytes [from, to) as chunks of their own (views, nothing copied). */
  slice(from: number, to: number): ByteChunks {
    const out: Uint8Array[] = [];
    for (let i = this.chunkAt(from); i < this.chunks.length && this.starts[i] < to; i++) {
      const start = this.starts[i];
      const c = this.chunks[i];
      out.push(c.subarray(Math.max(0, from - start), Math.min(c.length, to - start)));
    }
    return new ByteChunks(out);
  }

  /** crc32c of bytes [from, to), continuing `seed`. */
  crc32c(from: number, to: number, seed = 0): number {
    let crc = seed;
    for (let i = this.chunkAt(from); i < this.chunks.length && this.starts[i] < to; i++) {
      const start = this.starts[i];
      const c = this.chunks[i];
      crc = crc32c(c.subarray(Math.max(0, from - start), Math.min(c.length, to - start)), crc);
    }
    return crc >>> 0;
  }

  private copyInto(out: Uint8Array, from: number, to: number): void {
    let written = 0;
    for (let i = this.chunkAt(from); written < to - from; i++) {
      const start = this.starts[i];
      const c = this.chunks[i];
      const part = c.subarray(Math.max(0, from - start), Math.min(c.length, to - start));
      out.set(part, written);
      written += part.length;
    }
  }

  /** The chunk holding byte `at` (the last chunk for `at` = length). */
  private chunkAt(at: number): number {
    if (at < 0 || at > this.length) throw new RangeError(`byte ${at} is outside ${this.length} bytes`);
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i] > at) i--;
    return i;
  }
}
