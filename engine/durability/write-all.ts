// Positional gathered writes that finish: writev may write less than asked, so it continues
// from where the last call stopped. One call per group of chunks, not one per chunk — each call
// is a thread-pool round trip, which dominates when a file is many small chunks.
import type { FileHandle } from 'node:fs/promises';

/** Writes `chunks` at `position`; returns the bytes written (their total length). */
export async function writeAll(fh: FileHandle, chunks: readonly Uint8Array[], position: number): Promise<number> {
  let rest = chunks.filter((c) => c.length > 0);
  let written = 0;
  while (rest.length > 0) {
    let { bytesWritten } = await fh.writev(rest, position + written);
    written += bytesWritten;
    let i = 0;
    while (i < rest.length && bytesWritten >= rest[i].length) { bytesWritten -= rest[i].length; i++; }
    rest = rest.slice(i);
    if (rest.length > 0 && bytesWritten > 0) rest[0] = rest[0].subarray(bytesWritten);
  }
  return written;
}
