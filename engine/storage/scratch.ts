// Reusable working arrays for the sorting and partitioning loops. A fresh typed array per insert
// or per sort is new memory each time (it is freed only by a later GC), so every first write to it
// missed the cache and often faulted a page in; profiles of shuffled inserts spent more time on
// those stores than on the work. Each named slot keeps one buffer, grown by doubling, and hands
// out views of it: a view is valid until the next request for the same slot, so a slot is used
// by one function for the span of one call (never across an await), and nothing keeps one.

const buffers = new Map<string, ArrayBuffer>();
/** Larger requests (one huge insert) get a buffer of their own, so none is held for good. */
const MAX_KEPT_BYTES = 8 << 20;

function bytes(slot: string, size: number): ArrayBuffer {
  if (size > MAX_KEPT_BYTES) return new ArrayBuffer(size);
  let buffer = buffers.get(slot);
  if (buffer === undefined || buffer.byteLength < size) {
    buffer = new ArrayBuffer(Math.min(MAX_KEPT_BYTES, Math.max(size, 2 * (buffer?.byteLength ?? 0), 4096)));
    buffers.set(slot, buffer);
  }
  return buffer;
}

/** `n` float64s of slot `slot`; contents undefined. */
export function scratchF64(slot: string, n: number): Float64Array {
  return new Float64Array(bytes(slot, n * 8), 0, n);
}

/** `n` int32s of slot `slot`; contents undefined. */
export function scratchI32(slot: string, n: number): Int32Array {
  return new Int32Array(bytes(slot, n * 4), 0, n);
}

/** `n` uint32s of slot `slot`; contents undefined. */
export function scratchU32(slot: string, n: number): Uint32Array {
  return new Uint32Array(bytes(slot, n * 4), 0, n);
}

/** `n` bytes of slot `slot`; contents undefined. */
export function scratchU8(slot: string, n: number): Uint8Array {
  return new Uint8Array(bytes(slot, n), 0, n);
}
