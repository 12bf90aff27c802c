// Recycled memory for encoded column bytes between the read from a checkpoint file and their
// decoding into the column's read-back buffer. A cold scan reads back thousands of batches;
// a fresh buffer per read made V8 collect them (external memory drives its GC, as the memory
// budget's buffer pool found). A few reads are in flight at once (a scan reads ahead), so a
// small free list of size-classed buffers serves them; beyond MAX_FREE the largest go to the GC.
// This memory is transient and not counted in the budget: at most the encoded bytes of the reads
// in flight plus MAX_FREE buffers (a few MB).
import { sizeClass } from '../../memory/index.js';

const MAX_FREE = 8;
const free: ArrayBuffer[] = [];

/** A buffer of at least `bytes` at its offset 0 (8-byte aligned), until giveScratch. */
export function takeScratch(bytes: number): Uint8Array {
  let best = -1;
  for (let i = 0; i < free.length; i++) {
    if (free[i].byteLength >= bytes && (best < 0 || free[i].byteLength < free[best].byteLength)) best = i;
  }
  const buffer = best >= 0 ? free.splice(best, 1)[0] : new ArrayBuffer(sizeClass(Math.max(bytes, 1)));
  return new Uint8Array(buffer, 0, bytes);
}

/** Returns a buffer from takeScratch. */
export function giveScratch(view: Uint8Array): void {
  free.push(view.buffer as ArrayBuffer);
  if (free.length > MAX_FREE) {
    free.sort((a, b) => a.byteLength - b.byteLength);
    free.pop();
  }
}
