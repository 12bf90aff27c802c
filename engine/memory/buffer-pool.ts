// Recycled memory for columns read back from checkpoint files. A scan that reads a table larger
// than its budget evicts as much as it reads back; allocating every read-back buffer afresh made
// V8 collect the evicted ones (external memory drives its GC: ~40 % of a cold scan's time), and
// glibc kept the freed memory in its heap anyway (allocations up to 32 MiB come from its arenas
// once a large block was freed), so RSS did not drop. Buffers of an evicted column go back to a
// free list of their size class and the next read-back of that size takes them.
// Size classes are a power of two split in 8 (at most 12.5 % unused), from 4 KiB.

const MIN_CLASS = 4096;

/** The memory column data lies in: shared with worker threads (a database with them) or not. */
export type ColumnMemory = ArrayBuffer | SharedArrayBuffer;

/** The size of the buffer that holds `bytes`. */
export function sizeClass(bytes: number): number {
  if (bytes <= MIN_CLASS) return MIN_CLASS;
  const step = 2 ** (Math.floor(Math.log2(bytes)) - 3);
  return Math.ceil(bytes / step) * step;
}

export class BufferPool {
  private readonly free = new Map<number, ColumnMemory[]>();
  /** Bytes of the buffers waiting in free lists. */
  freeBytes = 0;

  /** A free buffer of `size` (a size class), or null. */
  take(size: number): ColumnMemory | null {
    const list = this.free.get(size);
    const buffer = list?.pop() ?? null;
    if (buffer !== null) this.freeBytes -= size;
    return buffer;
  }

  /** Takes back a buffer no one reads any more. */
  give(buffer: ColumnMemory): void {
    let list = this.free.get(buffer.byteLength);
    if (list === undefined) this.free.set(buffer.byteLength, (list = []));
    list.push(buffer);
    this.freeBytes += buffer.byteLength;
  }

  /** Lets go of free buffers (to the garbage collector) until at most `keep` bytes remain. */
  trim(keep: number): void {
    for (const [size, list] of this.free) {
      while (list.length > 0 && this.freeBytes > keep) {
        list.pop();
        this.freeBytes -= size;
      }
      if (list.length === 0) this.free.delete(size);
      if (this.freeBytes <= keep) return;
    }
  }
}
