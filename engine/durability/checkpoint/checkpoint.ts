// Checkpoints: one Arrow IPC file per table plus an entries/tags snapshot, described by a
// MANIFEST that records every file's size and crc32c and the first WAL segment to replay after
// it. A checkpoint is built in a temporary directory, every file fsynced, then renamed into place
// and the parent directory fsynced: it exists whole or not at all.
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from '@node-rs/crc32';
import { makeData, RecordBatch, Struct, tableFromIPC } from 'apache-arrow';
import { writeArrowFile } from './arrow-file-writer.js';
import { Packr } from 'msgpackr';
import { viewOfBatch } from '../../storage/batch-builder.js';
import type { EntryStore } from '../../catalog/entry-store.js';
import { SvcError } from '../../errors.js';
import { SymbolDictionary } from '../../storage/symbol-dictionary.js';
import { Table } from '../../storage/table.js';
import type { BatchView, ColumnDef, ColumnStats } from '../../types.js';
import { listSegments, segmentName } from '../wal/segments.js';
import { syncDir } from '../wal/wal-writer.js';

// useBigIntExtension: an INT64 column's exact sum statistic may exceed 64 bits.
const packr = new Packr({ int64AsType: 'bigint', useRecords: false, moreTypes: false, useBigIntExtension: true });
const MANIFEST = 'MANIFEST';

interface FileSum { readonly size: number; readonly crc: number }

interface TableManifest {
  readonly name: string;
  readonly columns: ColumnDef[];
  readonly shardSize: bigint;
  readonly file: string | null;
  readonly stats: ColumnStats[][];
}

interface Manifest {
  readonly version: 1;
  readonly walStart: number;
  readonly files: Record<string, FileSum>;
  readonly tables: TableManifest[];
}

/** A frozen copy of the state taken synchronously, written out asynchronously. */
export interface Snapshot {
  readonly walStart: number;
  readonly blobs: [alias: string, data: Uint8Array, mime: string, expiry: number][];
  readonly tags: string[];
  readonly attachments: [alias: string, tag: string][];
  readonly tables: { readonly table: Table; readonly batches: BatchView[] }[];
}

export function takeSnapshot(store: EntryStore, walStart: number): Snapshot {
  const snap: Snapshot = { walStart, blobs: [], tags: [], attachments: [], tables: [] };
  for (const [alias, e] of store.entries) {
    if (e.type === 'blob') snap.blobs.push([alias, e.data, e.mime, e.expiry]);
    else if (e.type === 'tag') snap.tags.push(alias);
    else snap.tables.push({ table: e.table, batches: e.table.allBatches() });
  }
  for (const [alias, tags] of store.tagsOf) for (const tag of tags) snap.attachments.push([alias, tag]);
  return snap;
}

export function checkpointsDir(dataDir: string): string {
  return join(dataDir, 'checkpoints');
}

/** The directory name of checkpoint `seq` (the WAL segment it starts replay from). */
export function checkpointName(seq: number): string {
  return String(seq).padStart(12, '0');
}

/** Writes `snap` as checkpoint number `seq`; returns its directory. */
export async function writeCheckpoint(dataDir: string, seq: number, snap: Snapshot): Promise<string> {
  const parent = checkpointsDir(dataDir);
  const final = join(parent, checkpointName(seq));
  const tmp = `${final}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const files: Record<string, FileSum> = {};
  const put = async (name: string, bytes: Uint8Array) => {
    await writeSynced(join(tmp, name), bytes);
    files[name] = { size: bytes.length, crc: crc32c(bytes) >>> 0 };
  };
  await put('entries.bin', packr.pack({ blobs: snap.blobs, tags: snap.tags, attachments: snap.attachments }));
  const tables: TableManifest[] = [];
  for (let i = 0; i < snap.tables.length; i++) {
    const { table, batches } = snap.tables[i];
    const file = batches.length === 0 ? null : `table-${i}.arrow`;
    if (file !== null) files[file] = await writeArrowFile(join(tmp, file), withFinalDictionaries(table, batches));
    tables.push({ name: table.name, columns: [...table.columns], shardSize: table.shardSize, file, stats: batches.map((b) => [...b.stats]) });
  }
  const manifest: Manifest = { version: 1, walStart: snap.walStart, files, tables };
  const body = packr.pack(manifest);
  const framed = Buffer.alloc(body.length + 4);
  framed.writeUInt32LE(crc32c(body) >>> 0, 0);
  framed.set(body, 4);
  await writeSynced(join(tmp, MANIFEST), framed);
  await syncDir(tmp);
  await rename(tmp, final);
  await syncDir(parent);
  return final;
}

/** Numbers of complete checkpoints, ascending (temporary directories are ignored). */
export async function listCheckpoints(dataDir: string): Promise<number[]> {
  const names = await readdir(checkpointsDir(dataDir)).catch(() => [] as string[]);
  return names.filter((n) => /^\d{12}$/.test(n)).map(Number).sort((a, b) => a - b);
}

/** Loads checkpoint `seq` into `store`; returns the WAL segment to replay from. */
export async function loadCheckpoint(dataDir: string, seq: number, store: EntryStore, batchRows: number): Promise<number> {
  const dir = join(checkpointsDir(dataDir), checkpointName(seq));
  const raw = await readComplete(join(dir, MANIFEST));
  if (raw.length < 4 || (crc32c(raw.subarray(4)) >>> 0) !== raw.readUInt32LE(0)) throw damaged(join(dir, MANIFEST));
  const manifest = packr.unpack(raw.subarray(4)) as Manifest;
  const read = async (name: string): Promise<Buffer> => {
    const path = join(dir, name);
    const bytes = await readComplete(path);
    const sum = manifest.files[name];
    if (sum === undefined || bytes.length !== sum.size || (crc32c(bytes) >>> 0) !== sum.crc) throw damaged(path);
    return bytes;
  };
  const entries = packr.unpack(await read('entries.bin')) as Pick<Snapshot, 'blobs' | 'tags' | 'attachments'>;
  for (const [alias, data, mime, expiry] of entries.blobs) {
    store.apply({ kind: 'BlobPut', alias, data: new Uint8Array(data), mime, expiry });
  }
  for (const tag of entries.tags) store.entries.set(tag, { type: 'tag' });
  for (const t of manifest.tables) {
    const table = new Table(t.name, t.columns, t.shardSize, batchRows);
    store.entries.set(t.name, { type: 'ts', table });
    if (t.file === null) continue;
    const batches = tableFromIPC(await read(t.file)).batches;
    restoreDictionaries(table, batches);
    batches.forEach((b, i) => table.restore(viewOfBatch(b, t.stats[i])));
  }
  for (const [alias, tag] of entries.attachments) store.apply({ kind: 'TagAttach', alias, tag });
  return manifest.walStart;
}

/**
 * Batches of a SYMBOL column may point at older, shorter versions of the table's dictionary;
 * the IPC file format allows one dictionary per column, so all batches get the final one.
 * Every batch also gets the table's schema object: batches restored from an IPC file carry an
 * equal-looking one (timestamp timezone null, not undefined) that Arrow's Table rejects.
 */
function withFinalDictionaries(table: Table, batches: BatchView[]): RecordBatch[] {
  const { schema, dictionaries } = table.layout;
  const finals = dictionaries.map((d) => d?.toVector() ?? null);
  return batches.map(({ batch }) => {
    const children = schema.fields.map((_, c) => {
      const data = batch.getChildAt(c)!.data[0];
      const dictionary = c === 0 ? null : finals[c - 1];
      if (dictionary === null) return data;
      return makeData({ type: data.type, length: data.length, nullCount: data.nullCount, data: data.values, nullBitmap: data.nullBitmap, dictionary } as never);
    });
    return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children }));
  });
}

function restoreDictionaries(table: Table, batches: RecordBatch[]): void {
  const { dictionaries } = table.layout;
  for (let c = 0; c < dictionaries.length; c++) {
    if (dictionaries[c] === null || batches.length === 0) continue;
    const dict = batches[0].getChildAt(c + 1)!.data[0].dictionary;
    dictionaries[c] = new SymbolDictionary(dict === undefined ? [] : (dict.toArray() as string[]));
  }
}

async function writeSynced(path: string, bytes: Uint8Array): Promise<void> {
  const fh = await open(path, 'w');
  try {
    let at = 0;
    while (at < bytes.length) at += (await fh.write(bytes, at, bytes.length - at, at)).bytesWritten;
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A file of a complete (renamed) checkpoint; one that is missing makes it damaged. */
async function readComplete(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw damaged(path);
    throw e;
  }
}

function damaged(path: string): SvcError {
  return new SvcError('CheckpointCorrupt', `checkpoint file ${path} is damaged (size or checksum mismatch); the write-ahead log it covered is gone, so restore the data directory from a backup`);
}

/** Deletes WAL segments before `walStart` and checkpoints other than `keep`. */
export async function removeObsolete(dataDir: string, walStart: number, keep: number | undefined): Promise<void> {
  const walDir = join(dataDir, 'wal');
  for (const seq of await listSegments(walDir)) if (seq < walStart) await rm(join(walDir, segmentName(seq)), { force: true });
  const dir = checkpointsDir(dataDir);
  for (const name of await readdir(dir)) {
    if (keep !== undefined && name === checkpointName(keep)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
  }
}
