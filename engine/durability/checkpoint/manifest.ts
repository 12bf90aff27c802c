// The MANIFEST of a checkpoint (its name and folder: checkpoint-folder.ts), a crc32c-prefixed
// msgpack document naming every file the checkpoint keeps (with size and crc32c) — files written
// by earlier checkpoints included — and the first WAL segment to replay after it. The newest
// manifest is the database; data files no manifest names are leftovers, deleted.
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from '@node-rs/crc32';
import { Packr } from 'msgpackr';
import type { ColumnDef, ColumnStats, TimeToLive } from '../../types.js';
import { syncDir } from '../wal/wal-writer.js';
import type { FileSum } from './file-sums.js';
import type { BatchPlace } from './arrow-format/stored-arrow-batch.js';
import type { ColumnPlace, RegionPlace } from './column-file.js';
import { manifestName } from './checkpoint-folder.js';

// useBigIntExtension: an INT64 column's exact sum statistic may exceed 64 bits.
const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false, useBigIntExtension: true });

export interface DataFile extends FileSum {
  /** Rows held by an Arrow file, or items by a blob file (live or not); 0 for other entries files. */
  readonly rows: number;
  /** An Arrow file's regions (see ArrowFileSum), or where each item of a blob file ends; empty for other entries files. */
  readonly ends: number[];
  readonly crcs: number[];
}

export interface BatchRef {
  /** The Arrow file holding the batch, and the batch's index in it. */
  readonly file: string;
  readonly index: number;
  /** Per column of the batch (`$timestamp` first): open answers from these without reading data. */
  readonly stats: ColumnStats[];
  /** Where the batch's columns lie in its Arrow file (versions 4 and 5; older manifests have none). */
  readonly place?: BatchPlace;
  /** Version 6: where each column lies in its column file, how it is encoded, and its CRC-32. */
  readonly columns?: ColumnPlace[];
  /** Version 6: where the batch's series order lies, when its columns are in series-major order. */
  readonly order?: RegionPlace;
}

/** A blob as the manifest knows it: alias, MIME type, expiry (UNIX seconds), size in bytes. */
export type BlobItem = [alias: string, mime: string, expiry: number, size: number];

export interface TableManifest {
  readonly name: string;
  readonly columns: ColumnDef[];
  readonly shardSize: bigint;
  /** The table's time to live (absent in manifests written before TTLs existed, or none). */
  readonly ttl?: TimeToLive | null;
  /** Every batch of the table, in `Table.allBatches()` order. */
  readonly batches: BatchRef[];
  /** Present when the table holds a materialized view's rows (SPEC §15; older manifests have none). */
  readonly view?: ViewManifest;
}

/**
 * A materialized view: its definition, the ranges its refresher had yet to compute when the
 * checkpoint was taken (the log after it marks the rest again on replay), and its edge: where its
 * source's rows stopped being read, and the partial states of the bucket holding it
 * (catalog/materialized-view.ts).
 */
export interface ViewManifest {
  readonly source: string;
  readonly select: string;
  /** [from, to) pairs, ascending. */
  readonly dirty: [bigint, bigint][];
  readonly edge: bigint;
  readonly edgeStates: (readonly unknown[])[];
}

export interface Manifest {
  /**
   * 6 writes column files (`.cols`, column-file.ts): every column encoded by a codec chosen for
   * it (or raw), recorded per batch with its sizes and CRC-32 (BatchRef.columns); batches of
   * earlier versions' files are rewritten by the first version 6 checkpoint. 5 checks the columns of batches it wrote with CRC-32 (BatchPlace.checksum; places kept
   * from version 4 keep their crc32c); 4 keeps where each batch's columns lie (BatchRef.place)
   * and the statistics that answer min/max/first/last without reading data; 3 added blob files
   * kept across checkpoints (`blobs`); 2 had every blob in `entries`. 2 and 3 are read by
   * loading every batch.
   */
  readonly version: 2 | 3 | 4 | 5 | 6;
  readonly walStart: number;
  readonly files: Record<string, DataFile>;
  /**
   * Blob files, each with the indexes of its items no longer live (replaced or removed since it
   * was written). Applied before `entries`.
   */
  readonly blobs?: Record<string, number[]>;
  /**
   * Version 4: per blob file, each live item's alias, MIME type, expiry and size (null for items
   * no longer live), so open knows every blob without reading blob files.
   */
  readonly blobItems?: Record<string, (BlobItem | null)[]>;
  /** Entries files in the order their items are applied. */
  readonly entries: string[];
  readonly tables: TableManifest[];
}

/** Writes the manifest of checkpoint `seq` into folder `dir` atomically: temporary file, fsync, rename, fsync of the directory. */
export async function writeManifest(dir: string, seq: number, manifest: Manifest): Promise<void> {
  const final = join(dir, manifestName(seq));
  const body = packr.pack({ ...manifest, tables: manifest.tables.map((t) => ({ ...t, batches: t.batches.map((b) => ({ ...b, stats: b.stats.map(packStats) })) })) });
  const framed = Buffer.alloc(body.length + 4);
  framed.writeUInt32LE(crc32c(body) >>> 0, 0);
  framed.set(body, 4);
  const fh = await open(`${final}.tmp`, 'w');
  try {
    let at = 0;
    while (at < framed.length) at += (await fh.write(framed, at, framed.length - at, at)).bytesWritten;
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(`${final}.tmp`, final);
  await syncDir(dir);
}

/** The manifest of checkpoint `seq` in folder `dir`; `damaged` makes the error for a bad one. */
export async function readManifest(dir: string, seq: number, damaged: (path: string) => Error): Promise<Manifest> {
  const path = join(dir, manifestName(seq));
  const raw = await readFile(path);
  if (raw.length < 4 || (crc32c(raw.subarray(4)) >>> 0) !== raw.readUInt32LE(0)) throw damaged(path);
  const manifest = packr.unpack(raw.subarray(4)) as Manifest;
  if (![2, 3, 4, 5, 6].includes(manifest.version)) throw damaged(path);
  for (const t of manifest.tables) for (const b of t.batches) b.stats.forEach((s, i) => { b.stats[i] = unpackStats(s); });
  return manifest;
}

/** The statistics' number fields that may hold -0, which msgpack would write as the integer 0. */
const SIGNED_FIELDS = ['min', 'max', 'sum', 'first', 'last'] as const;
const NEGATIVE_ZERO = '-0';

/** `s` with -0 written as a string (min(x) and first(x) answered from statistics keep the sign). */
function packStats(s: ColumnStats): ColumnStats {
  if (!SIGNED_FIELDS.some((f) => Object.is(s[f], -0))) return s;
  const out: Record<string, unknown> = { ...s };
  for (const f of SIGNED_FIELDS) if (Object.is(s[f], -0)) out[f] = NEGATIVE_ZERO;
  return out as unknown as ColumnStats;
}

function unpackStats(s: ColumnStats): ColumnStats {
  if (!SIGNED_FIELDS.some((f) => (s[f] as unknown) === NEGATIVE_ZERO)) return s;
  const out: Record<string, unknown> = { ...s };
  for (const f of SIGNED_FIELDS) if (out[f] === NEGATIVE_ZERO) out[f] = -0;
  return out as unknown as ColumnStats;
}
