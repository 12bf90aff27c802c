// Streams record batches into an Arrow IPC stream file on disk. Arrow's writer emits zero-copy
// chunks (message headers plus views of the column buffers); they are written as they come, with
// at most IN_FLIGHT bytes queued, so a checkpoint neither builds one huge buffer (tableToIPC
// would copy everything) nor blocks the event loop while it serializes. The stream format (not
// the file format) lets the reader stream it back without seeking to a footer.
import { open } from 'node:fs/promises';
import { crc32c } from '@node-rs/crc32';
import { RecordBatchStreamWriter } from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { writeAll } from '../write-all.js';

const IN_FLIGHT = 64 * 1024 * 1024;
const WRITE_BYTES = 1024 * 1024;

export interface FileSum {
  readonly size: number;
  readonly crc: number;
}

/** Writes `batches` to `path` (fsynced); returns the file's size and crc32c. */
export async function writeArrowFile(path: string, batches: readonly RecordBatch[]): Promise<FileSum> {
  const fh = await open(path, 'w');
  try {
    const writer = new RecordBatchStreamWriter();
    let size = 0;
    let crc = 0;
    let produced = 0;
    // Resolved by the consumer after each chunk, while the producer waits for room.
    const waiting: { wake: (() => void) | null } = { wake: null };
    // Arrow emits a header, each buffer and its padding as separate small chunks: gathered into
    // one writev of about WRITE_BYTES, not one write call (a thread-pool round trip) apiece.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const chunks = pending;
      pending = [];
      pendingBytes = 0;
      size += await writeAll(fh, chunks, size);
    };
    const consume = (async () => {
      for await (const chunk of writer) {
        crc = crc32c(chunk, crc);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= WRITE_BYTES) {
          await flush();
          waiting.wake?.();
        }
      }
      await flush();
    })();
    // A failed write ends the consumer: wake the producer so the error surfaces, not a hang.
    let isDone = false;
    void consume.catch(() => undefined).finally(() => { isDone = true; waiting.wake?.(); });
    for (const batch of batches) {
      writer.write(batch);
      produced += batchBytes(batch);
      while (!isDone && produced - size > IN_FLIGHT) await new Promise<void>((resolve) => { waiting.wake = resolve; });
      waiting.wake = null;
    }
    writer.finish();
    await consume;
    await fh.sync();
    return { size, crc: crc >>> 0 };
  } finally {
    await fh.close();
  }
}

/** Approximate bytes of a batch's buffers (enough for back-pressure and for sizing files). */
export function batchBytes(batch: RecordBatch): number {
  let sum = 0;
  for (const d of batch.data.children) sum += (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0);
  return sum;
}
