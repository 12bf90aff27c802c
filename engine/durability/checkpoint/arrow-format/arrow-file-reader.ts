// Reads the live batches of an Arrow IPC stream file (manifest versions 2–5), region by region
// through a file handle (never the whole file in one Buffer, which Node caps at 2 GiB; never a
// dead batch). Each region is checked against its crc32c in the MANIFEST before Arrow sees it.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { crc32c } from '@node-rs/crc32';
import { RecordBatchReader } from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { ioLimits } from '../../io-limits.js';
import type { RegionFileSum } from '../file-sums.js';

/**
 * Calls `onBatch` with each batch of the file that `isWanted`, and its index, in order. Rejects
 * with `damaged()` when the file's size or a region's bytes do not match `sum`, or do not parse.
 */
export async function readArrowFile(
  path: string, sum: RegionFileSum, isWanted: (index: number) => boolean,
  onBatch: (batch: RecordBatch, index: number) => void, damaged: () => Error,
): Promise<void> {
  const fh = await open(path, 'r').catch((e: NodeJS.ErrnoException) => { throw e.code === 'ENOENT' ? damaged() : e; });
  try {
    if ((await fh.stat()).size !== sum.size || sum.ends.at(-1) !== sum.size || sum.ends.length !== sum.crcs.length) throw damaged();
    const last = sum.ends.length - 1;
    // The first region holds the schema and dictionaries, the last the end-of-stream marker.
    const isRead = (i: number) => i === 0 || i === last || isWanted(i);
    const order: number[] = [];
    try {
      const reader = await RecordBatchReader.from(regions(fh, sum, isRead, order, damaged));
      let k = 0;
      for await (const batch of reader) {
        const index = order[k++];
        if (index !== last && isWanted(index)) onBatch(batch, index);
      }
      // Every region read but the end marker held exactly one batch.
      if (order.at(-1) !== last || k !== order.length - 1) throw damaged();
    } catch (e) {
      // Arrow's own parse errors carry no errno code: damaged bytes.
      if ((e as NodeJS.ErrnoException).code === undefined) throw damaged();
      throw e;
    }
  } finally {
    await fh.close();
  }
}

/**
 * The regions to read, each checked, as views of fresh buffers (batches keep views of them, so a
 * buffer is never reused). Neighbouring regions are read together up to the chunk size.
 * Regions start 8-byte aligned in the file and buffers at offset 0, so Arrow's buffers stay
 * aligned and are used in place.
 */
async function* regions(
  fh: FileHandle, sum: RegionFileSum, isRead: (i: number) => boolean, order: number[], damaged: () => Error,
): AsyncGenerator<Uint8Array> {
  const startOf = (i: number) => (i === 0 ? 0 : sum.ends[i - 1]);
  for (let i = 0; i < sum.ends.length;) {
    if (!isRead(i)) { i++; continue; }
    let j = i;
    while (j + 1 < sum.ends.length && isRead(j + 1) && sum.ends[j + 1] - startOf(i) <= ioLimits.readChunkBytes) j++;
    const from = startOf(i);
    const buf = Buffer.allocUnsafeSlow(sum.ends[j] - from);
    for (let at = 0; at < buf.length;) {
      const { bytesRead } = await fh.read(buf, at, buf.length - at, from + at);
      if (bytesRead === 0) throw damaged();
      at += bytesRead;
    }
    for (let k = i; k <= j; k++) {
      const view = buf.subarray(startOf(k) - from, sum.ends[k] - from);
      if (crc32c(view) >>> 0 !== sum.crcs[k]) throw damaged();
      order.push(k);
      yield view;
    }
    i = j + 1;
  }
}
