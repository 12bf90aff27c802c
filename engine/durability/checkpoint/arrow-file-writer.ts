// Writes record batches as an Arrow IPC stream file and records where each batch's bytes lie
// (one region per batch: any dictionary or schema message before it, then its own message; a
// last region holds the end-of-stream marker) with a crc32c per region. The reader then reads a
// file region by region — each batch's bytes one contiguous piece, so Arrow uses them in place
// instead of copying a message that straddles two reads — and skips batches no longer live.
// Chunks are gathered into one writev of about WRITE_BYTES, so neither one huge buffer is built
// (tableToIPC would copy everything) nor one write call issued per small chunk. For each batch it
// also records where its body and each body buffer lie, and a CRC-32 of each field's bytes: a
// batch's column can then be read back alone (ipc-layout.ts), checked. Those are the checksums of
// batch data; whole regions are checksummed only where they are read whole — the first (schema
// and dictionaries, read at open) and the end marker — so every byte is summed once, not three
// times (per file, per region, per column: a fifth of a checkpoint's CPU time under a budget).
// Column checksums are CRC-32 (IEEE), not crc32c like the rest: every cold read checks them, and
// @node-rs/crc32's crc32c calls a function per 8 bytes (its SSE4.2 instruction is not inlined:
// ~3 GB/s) where its CRC-32 folds with carry-less multiplies (~8 GB/s); on a cold scan of one
// column that was a quarter of the CPU time against a tenth.
import { open } from 'node:fs/promises';
import { crc32, crc32c } from '@node-rs/crc32';
import { AsyncByteQueue, RecordBatchStreamWriter } from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { writeAll } from '../write-all.js';
import { ChunkBytes, fieldSpan, firstBuffers, recordBatchLayout } from './ipc-layout.js';

const WRITE_BYTES = 1024 * 1024;

export interface FileSum {
  readonly size: number;
  readonly crc: number;
}

export interface ArrowFileSum extends FileSum {
  /** End offset of each region: batch i's is ends[i]; the last one is the end-of-stream marker's. */
  readonly ends: number[];
  /**
   * crc32c of each region's bytes. Files written since columns carry their own checksums
   * (BatchPlace.crcs) have them for the first and last regions only (0 for the others), and a
   * file checksum (FileSum.crc) of 0: no reader reads more of them whole.
   */
  readonly crcs: number[];
}

/**
 * A batch to write; `release` is called once its bytes are written (its memory may be reused
 * then: the writer's chunks are views of it, not copies).
 */
export interface BatchToWrite {
  readonly batch: RecordBatch;
  readonly release?: () => void;
}

/** Where one batch lies in its file: what reading its columns back needs. */
export interface BatchPlace {
  /** File offset of the batch's message body. */
  readonly body: number;
  /** [offset, length] of each body buffer relative to `body`, in field order (flattened). */
  readonly buffers: number[];
  /** Checksum of each field's bytes (its buffers, from the first's start to the last's end). */
  readonly crcs: number[];
  /**
   * How `crcs` were computed: 'crc32' (CRC-32, IEEE) since version 5 manifests; absent, crc32c
   * (places kept from version 4 manifests, whose files later manifests still name).
   */
  readonly checksum?: 'crc32';
}

/** The writer's sink, collecting its chunks synchronously so each batch's bytes are known at once. */
class ChunkSink extends AsyncByteQueue {
  chunks: Uint8Array[] = [];
  bytes = 0;

  override write(value: Uint8Array): void {
    if (value.byteLength === 0) return;
    this.chunks.push(value);
    this.bytes += value.byteLength;
  }
}

/**
 * Writes `batches` (of one schema) to `path` (fsynced); returns the file's size, crc32c and
 * regions, and where each batch lies.
 */
export async function writeArrowFile(path: string, batches: AsyncIterable<BatchToWrite> | Iterable<BatchToWrite>): Promise<ArrowFileSum & { places: BatchPlace[] }> {
  const fh = await open(path, 'w');
  /** Releases of the batches whose bytes are not all written yet. */
  let unwritten: (() => void)[] = [];
  const releaseWritten = () => {
    for (const release of unwritten) release();
    unwritten = [];
  };
  try {
    const sink = new ChunkSink();
    const writer = new RecordBatchStreamWriter();
    writer.reset(sink as never);
    let size = 0;
    const ends: number[] = [];
    const crcs: number[] = [];
    const places: BatchPlace[] = [];
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let first: number[] | null = null;
    const place = (batch: RecordBatch) => {
      const region = new ChunkBytes(sink.chunks);
      const layout = recordBatchLayout(sink.chunks);
      first ??= firstBuffers(batch.schema.fields.map((f) => f.type));
      const fieldCrcs = batch.schema.fields.map((_, f) => {
        const [start, end] = fieldSpan(layout.buffers, first!, f);
        let crc = 0;
        region.each(layout.body + start, end - start, (part) => { crc = crc32(part, crc); });
        return crc >>> 0;
      });
      places.push({ body: size + layout.body, buffers: layout.buffers, crcs: fieldCrcs, checksum: 'crc32' });
    };
    const region = (isReadWhole: boolean) => {
      let regionCrc = 0;
      if (isReadWhole) for (const c of sink.chunks) regionCrc = crc32c(c, regionCrc);
      pending.push(...sink.chunks);
      pendingBytes += sink.bytes;
      size += sink.bytes;
      sink.chunks = [];
      sink.bytes = 0;
      ends.push(size);
      crcs.push(regionCrc >>> 0);
    };
    let written = 0;
    const flush = async () => {
      const chunks = pending;
      pending = [];
      pendingBytes = 0;
      written += await writeAll(fh, chunks, written);
      releaseWritten();
    };
    for await (const { batch, release } of batches) {
      if (release !== undefined) unwritten.push(release);
      writer.write(batch);
      place(batch);
      region(ends.length === 0);
      if (pendingBytes >= WRITE_BYTES) await flush();
    }
    writer.finish();
    region(true);
    await flush();
    await fh.sync();
    return { size, crc: 0, ends, crcs, places };
  } finally {
    releaseWritten();
    await fh.close();
  }
}

