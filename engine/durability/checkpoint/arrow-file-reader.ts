// Reads an Arrow IPC stream file back batch by batch from a file stream read in chunks (never
// the whole file in one Buffer, which Node caps at 2 GiB), checking the file's size and crc32c
// against what the MANIFEST recorded as the bytes go by.
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { crc32c } from '@node-rs/crc32';
import { RecordBatchReader } from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { ioLimits } from '../io-limits.js';
import type { FileSum } from './arrow-file-writer.js';

/**
 * Calls `onBatch` with each batch of the file and its index, in order. Rejects with `damaged()`
 * when the bytes do not match `sum` or do not parse; batches handed out before the damage was
 * seen must then be discarded by the caller (the open fails).
 */
export async function readArrowFile(path: string, sum: FileSum, onBatch: (batch: RecordBatch, index: number) => void, damaged: () => Error): Promise<void> {
  let size = 0;
  let crc = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      crc = crc32c(chunk, crc);
      done(null, chunk);
    },
  });
  const source = createReadStream(path, { highWaterMark: ioLimits.readChunkBytes });
  source.on('error', (e) => tap.destroy(e));
  source.pipe(tap);
  let index = 0;
  try {
    const reader = await RecordBatchReader.from(tap);
    for await (const batch of reader) onBatch(batch, index++);
  } catch (e) {
    source.destroy();
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || !(e as NodeJS.ErrnoException).code) throw damaged();
    throw e;
  }
  if (size !== sum.size || crc >>> 0 !== sum.crc) throw damaged();
}
