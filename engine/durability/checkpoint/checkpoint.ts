// Incremental checkpoints. Sealed batches are immutable objects, so a batch written once is never
// written again: the Checkpointer remembers, by object identity, which file holds each batch it
// wrote or restored, and a checkpoint writes only batches it has not seen — into Arrow IPC stream
// files of bounded size, each with the SYMBOL dictionaries of its table at that moment (a
// table's dictionary only grows, so a later one is a superset of an earlier one). Its MANIFEST
// names every file it keeps, those of earlier checkpoints included. A file whose batches are
// mostly gone (replaced by compaction or late rows) has its live ones rewritten, so dead rows
// cannot pile up. Blobs are kept the same way: a blob's data and MIME type never change (a put
// makes a new entry object), so each is written once, into a blob file of the checkpoint that
// first saw it, and later manifests name that file with the indexes of its items that died since;
// a blob file mostly dead has its live blobs rewritten. Tags, attachments and the expiry of kept
// blobs whose expiry changed are small, and rewritten each time. All of it is streamed as frames.
//
// Crash safety: data files are written and fsynced, the directory fsynced, then the manifest is
// written to a temporary file, fsynced, renamed and the directory fsynced again. Until that
// rename the previous manifest is the database, and the new files are leftovers; after it, the
// files no manifest names are deleted (on open too, for a checkpoint cut short by a crash).
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeData, RecordBatch, Struct } from 'apache-arrow';
import type { Vector } from 'apache-arrow';
import type { Entry, EntryStore } from '../../catalog/entry-store.js';
import { SvcError } from '../../errors.js';
import { viewOfBatch } from '../../storage/batch-builder.js';
import { widenView } from '../../storage/widen-view.js';
import { SymbolDictionary } from '../../storage/symbol-dictionary.js';
import { Table } from '../../storage/table.js';
import type { BatchView } from '../../types.js';
import { ioLimits } from '../io-limits.js';
import { listSegments, segmentName } from '../wal/segments.js';
import { syncDir } from '../wal/wal-writer.js';
import { readArrowFile } from './arrow-file-reader.js';
import { batchBytes, writeArrowFile } from './arrow-file-writer.js';
import { readEntryFile, writeEntryFiles } from './entries-file.js';
import type { EntryItem } from './entries-file.js';
import { checkpointName, checkpointsDir, listManifests, manifestName, OWNED_NAME, readManifest, writeManifest } from './manifest.js';
import type { BatchRef, DataFile, Manifest, TableManifest } from './manifest.js';

/**
 * Written once the first manifest is durable and never removed: with it, a directory without a
 * manifest has lost one (damage), and without it, data files there are leftovers of a first
 * checkpoint that a crash cut short (deleted).
 */
const FORMAT_MARKER = 'FORMAT';

/** A frozen copy of the state taken synchronously, written out asynchronously. */
export interface Snapshot {
  readonly walStart: number;
  /** Tags and attachments. */
  readonly entries: EntryItem[];
  readonly blobs: readonly SnapshotBlob[];
  readonly tables: readonly SnapshotTable[];
}

interface SnapshotBlob {
  readonly alias: string;
  /** The store's entry: its identity says whether a checkpoint file already holds this blob. */
  readonly entry: BlobEntry;
  /** The entry's expiry when the snapshot was taken (the one field of an entry that changes). */
  readonly expiry: number;
}

type BlobEntry = Extract<Entry, { type: 'blob' }>;

interface BlobLocation extends BatchLocation {
  /** The expiry the file holds for the blob. */
  readonly expiry: number;
}

interface SnapshotTable {
  readonly table: Table;
  readonly batches: BatchView[];
  /** The table's SYMBOL dictionaries when the snapshot was taken (null for other columns). */
  readonly dictionaries: (Vector | null)[];
}

interface BatchLocation {
  readonly file: string;
  readonly index: number;
}

export function takeSnapshot(store: EntryStore, walStart: number): Snapshot {
  const entries: EntryItem[] = [];
  const blobs: SnapshotBlob[] = [];
  const tables: SnapshotTable[] = [];
  for (const [alias, e] of store.entries) {
    if (e.type === 'blob') blobs.push({ alias, entry: e, expiry: e.expiry });
    else if (e.type === 'tag') entries.push(['tag', alias]);
    else tables.push({ table: e.table, batches: e.table.allBatches(), dictionaries: e.table.layout.dictionaries.map((d) => d?.toVector() ?? null) });
  }
  for (const [alias, tags] of store.tagsOf) for (const tag of tags) entries.push(['attach', alias, tag]);
  return { walStart, entries, blobs, tables };
}

export class Checkpointer {
  /** Where each batch of the newest durable checkpoint lives (weak: dropped batches vanish). */
  private readonly persisted = new WeakMap<BatchView, BatchLocation>();
  /** Where each blob of the newest durable checkpoint lives, by store entry (weak, likewise). */
  private readonly persistedBlobs = new WeakMap<BlobEntry, BlobLocation>();
  /** The data files the newest durable manifest names. */
  private files: Record<string, DataFile> = {};
  /** FORMAT_MARKER is known to exist. */
  private hasMarker = false;

  constructor(readonly dataDir: string) {}

  /** Loads the newest checkpoint into `store` and returns the WAL segment to replay from. */
  async load(store: EntryStore, batchRows: number): Promise<number> {
    const dir = checkpointsDir(this.dataDir);
    const seq = (await listManifests(this.dataDir)).at(-1);
    const names = await readdir(dir);
    this.hasMarker = names.includes(FORMAT_MARKER);
    if (seq === undefined) {
      if (this.hasMarker) {
        throw new SvcError('CheckpointCorrupt', `the checkpoint manifest in ${dir} is missing; the write-ahead log it covered is gone, so restore the data directory from a backup`);
      }
      if (names.some((n) => /^\d{12}$/.test(n))) {
        throw new SvcError('CheckpointCorrupt', `the checkpoint in ${dir} has the layout of an earlier svc version, which this one does not read`);
      }
      // No checkpoint ever completed here: data files are leftovers of a first one cut short.
      await this.removeUnnamed(null);
      return 0;
    }
    const manifest = await readManifest(this.dataDir, seq, damaged);
    const sumOf = (name: string): DataFile => {
      const sum = manifest.files[name];
      if (sum === undefined) throw damaged(join(dir, name));
      return sum;
    };
    const attachments: [string, string][] = [];
    for (const [name, deadItems] of Object.entries(manifest.blobs ?? {})) {
      const dead = new Set(deadItems);
      await readEntryFile(join(dir, name), sumOf(name), (item, index) => {
        if (item[0] !== 'blob') throw damaged(join(dir, name));
        store.apply({ kind: 'BlobPut', alias: item[1], data: item[2], mime: item[3], expiry: item[4] });
        this.persistedBlobs.set(store.entries.get(item[1]) as BlobEntry, { file: name, index, expiry: item[4] });
      }, () => damaged(join(dir, name)), (index) => dead.has(index));
    }
    for (const name of manifest.entries) {
      await readEntryFile(join(dir, name), sumOf(name), (item) => {
        // Version 2 manifests keep blobs here (not remembered: the next checkpoint moves them to blob files).
        if (item[0] === 'blob') store.apply({ kind: 'BlobPut', alias: item[1], data: item[2], mime: item[3], expiry: item[4] });
        else if (item[0] === 'tag') store.entries.set(item[1], { type: 'tag' });
        else if (item[0] === 'expiry') store.apply({ kind: 'ExpirySet', alias: item[1], expiry: item[2] });
        else attachments.push([item[1], item[2]]);
      }, () => damaged(join(dir, name)));
    }
    for (const t of manifest.tables) {
      const table = new Table(t.name, t.columns, t.shardSize, batchRows);
      store.entries.set(t.name, { type: 'ts', table });
      await this.restoreTable(table, t, sumOf);
    }
    for (const [alias, tag] of attachments) store.apply({ kind: 'TagAttach', alias, tag });
    this.files = manifest.files;
    await this.removeUnnamed(seq);
    return manifest.walStart;
  }

  /** Writes `snap` as checkpoint `seq`: the batches not yet on disk, the entries, the manifest. */
  async write(seq: number, snap: Snapshot): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    const prefix = checkpointName(seq);
    const files: Record<string, DataFile> = {};
    const placed = new Map<BatchView, BatchLocation>();
    const isKept = this.keptFiles(snap);
    let fileCount = 0;
    const tables: TableManifest[] = [];
    for (const { table, batches, dictionaries } of snap.tables) {
      const refs: BatchRef[] = new Array(batches.length);
      let group: number[] = [];
      let groupBytes = 0;
      const flush = async () => {
        if (group.length === 0) return;
        const file = `${prefix}-${fileCount++}.arrows`;
        const sum = await writeArrowFile(join(dir, file), group.map((i) => withDictionaries(table, batches[i], dictionaries)));
        files[file] = { ...sum, rows: group.reduce((n, i) => n + batches[i].rowCount, 0) };
        group.forEach((i, index) => {
          placed.set(batches[i], { file, index });
          refs[i] = { file, index, stats: [...batches[i].stats] };
        });
        group = [];
        groupBytes = 0;
      };
      for (let i = 0; i < batches.length; i++) {
        const at = this.persisted.get(batches[i]);
        if (at !== undefined && isKept(at.file)) {
          files[at.file] = this.files[at.file];
          refs[i] = { file: at.file, index: at.index, stats: [...batches[i].stats] };
          continue;
        }
        group.push(i);
        groupBytes += batchBytes(batches[i].batch);
        if (groupBytes >= ioLimits.checkpointFileBytes) await flush();
      }
      await flush();
      tables.push({ name: table.name, columns: [...table.columns], shardSize: table.shardSize, batches: refs });
    }
    const { blobs, expiries, placedBlobs } = await this.writeBlobs(snap, prefix, files, isKept);
    const entries: string[] = [];
    for (const { path, sum } of await writeEntryFiles([...snap.entries, ...expiries], (n) => join(dir, `${prefix}-e${n}.bin`))) {
      const name = path.slice(dir.length + 1);
      entries.push(name);
      files[name] = { ...sum, rows: 0, ends: [], crcs: [] };
    }
    // The new files' names must be durable before a manifest names them.
    await syncDir(dir);
    const manifest: Manifest = { version: 3, walStart: snap.walStart, files, blobs, entries, tables };
    await writeManifest(this.dataDir, seq, manifest);
    if (!this.hasMarker) {
      await writeSynced(join(dir, FORMAT_MARKER), 'svc checkpoints, format 2\n');
      await syncDir(dir);
      this.hasMarker = true;
    }
    for (const [view, at] of placed) this.persisted.set(view, at);
    for (const [entry, at] of placedBlobs) this.persistedBlobs.set(entry, at);
    this.files = files;
    await this.removeUnnamed(seq);
  }

  /**
   * The blobs of `snap` not in a kept file, written to new blob files (named in `files`); returns
   * each blob file's dead item indexes, the expiry changes of kept blobs, and where the new blobs
   * went (remembered once the manifest is durable).
   */
  private async writeBlobs(snap: Snapshot, prefix: string, files: Record<string, DataFile>, isKept: (file: string) => boolean) {
    const dir = checkpointsDir(this.dataDir);
    const live = new Map<string, Set<number>>();
    const liveIn = (file: string): Set<number> => {
      let s = live.get(file);
      if (s === undefined) live.set(file, (s = new Set()));
      return s;
    };
    const expiries: EntryItem[] = [];
    const fresh: SnapshotBlob[] = [];
    for (const b of snap.blobs) {
      const at = this.persistedBlobs.get(b.entry);
      if (at === undefined || !isKept(at.file)) { fresh.push(b); continue; }
      files[at.file] = this.files[at.file];
      liveIn(at.file).add(at.index);
      if (b.expiry !== at.expiry) expiries.push(['expiry', b.alias, b.expiry]);
    }
    const placedBlobs = new Map<BlobEntry, BlobLocation>();
    const written = await writeEntryFiles(fresh.map((b): EntryItem => ['blob', b.alias, b.entry.data, b.entry.mime, b.expiry]), (n) => join(dir, `${prefix}-b${n}.bin`));
    let k = 0;
    for (const { path, sum, ends } of written) {
      const file = path.slice(dir.length + 1);
      files[file] = { ...sum, rows: ends.length, ends, crcs: [] };
      for (let index = 0; index < ends.length; index++, k++) {
        placedBlobs.set(fresh[k].entry, { file, index, expiry: fresh[k].expiry });
        liveIn(file).add(index);
      }
    }
    const blobs: Record<string, number[]> = {};
    for (const [file, indexes] of live) blobs[file] = Array.from({ length: files[file].rows }, (_, i) => i).filter((i) => !indexes.has(i));
    return { blobs, expiries, placedBlobs };
  }

  /**
   * Files of the last checkpoint worth keeping: those at least half of whose rows (Arrow files)
   * or bytes (blob files) are still live in `snap`. The live batches and blobs of the others are
   * written again, so the dead ones go.
   */
  private keptFiles(snap: Snapshot): (file: string) => boolean {
    const live = new Map<string, number>();
    const add = (file: string, n: number) => live.set(file, (live.get(file) ?? 0) + n);
    for (const { batches } of snap.tables) {
      for (const b of batches) {
        const at = this.persisted.get(b);
        if (at !== undefined) add(at.file, b.rowCount);
      }
    }
    for (const b of snap.blobs) {
      const at = this.persistedBlobs.get(b.entry);
      const ends = at === undefined ? undefined : this.files[at.file]?.ends;
      if (ends !== undefined) add(at!.file, ends[at!.index] - (at!.index === 0 ? 0 : ends[at!.index - 1]));
    }
    return (file) => {
      const known = this.files[file];
      if (known === undefined) return false;
      const whole = file.endsWith('.arrows') ? known.rows : known.size;
      return 2 * (live.get(file) ?? 0) >= whole;
    };
  }

  /** Reads the table's files one at a time, keeping the batches the manifest names, in order. */
  private async restoreTable(table: Table, t: TableManifest, sumOf: (name: string) => DataFile): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    const wanted = new Map<string, Map<number, number>>();
    t.batches.forEach((ref, position) => {
      let m = wanted.get(ref.file);
      if (m === undefined) wanted.set(ref.file, (m = new Map()));
      m.set(ref.index, position);
    });
    const loaded: RecordBatch[] = new Array(t.batches.length);
    for (const [file, positions] of wanted) {
      const path = join(dir, file);
      await readArrowFile(path, sumOf(file), (index) => positions.has(index), (batch, index) => {
        loaded[positions.get(index)!] = batch;
      }, () => damaged(path));
    }
    const { dictionaries } = table.layout;
    for (let c = 0; c < dictionaries.length; c++) {
      if (dictionaries[c] === null) continue;
      // Every file carries its table's dictionary as it was then; the longest is the newest.
      let longest: Vector | null = null;
      for (const b of loaded) {
        // A file written before the column was added has no such child.
        const dict = b?.data.children[c + 1]?.dictionary;
        if (dict !== undefined && (longest === null || dict.length > longest.length)) longest = dict;
      }
      dictionaries[c] = new SymbolDictionary(longest === null ? [] : (longest.toArray() as string[]));
    }
    t.batches.forEach((ref, position) => {
      const batch = loaded[position];
      if (batch === undefined) throw damaged(join(dir, ref.file));
      const view = viewOfBatch(batch, ref.stats);
      table.restore(view);
      this.persisted.set(view, { file: ref.file, index: ref.index });
    });
  }

  /** Deletes what the checkpoint code wrote that the manifest `seq` does not name. */
  private async removeUnnamed(seq: number | null): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    const keep = seq === null ? null : manifestName(seq);
    for (const name of await readdir(dir)) {
      if (!OWNED_NAME.test(name) || name === keep || this.files[name] !== undefined) continue;
      await rm(join(dir, name), { force: true });
    }
  }
}

/** Deletes the WAL segments a durable checkpoint covers. */
export async function removeWalBefore(dataDir: string, walStart: number): Promise<void> {
  const walDir = join(dataDir, 'wal');
  for (const seq of await listSegments(walDir)) if (seq < walStart) await rm(join(walDir, segmentName(seq)), { force: true });
}

/**
 * A batch with the table's schema object and, for SYMBOL columns, the dictionary of the
 * snapshot: a batch may point at an older, shorter version of it, and one IPC stream carries one
 * dictionary per column. (Batches restored from a file carry an equal-looking schema — timestamp
 * timezone null, not undefined — that Arrow's writer would treat as a different one.)
 */
function withDictionaries(table: Table, view: BatchView, dictionaries: (Vector | null)[]): RecordBatch {
  const { schema } = table.layout;
  // A batch sealed before columns were added gets them as nulls: one schema per file.
  const { batch } = widenView(view, table.layout);
  const children = schema.fields.map((_, c) => {
    const data = batch.data.children[c];
    // Columns added after the snapshot have no dictionary in it: their (null) data is kept as it is.
    const dictionary = c === 0 ? null : dictionaries[c - 1];
    if (dictionary === null || dictionary === undefined) return data;
    return makeData({ type: data.type, length: data.length, nullCount: data.nullCount, data: data.values, nullBitmap: data.nullBitmap, dictionary } as never);
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children }));
}

async function writeSynced(path: string, text: string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function damaged(path: string): SvcError {
  return new SvcError('CheckpointCorrupt', `checkpoint file ${path} is damaged or missing (size or checksum mismatch); the write-ahead log it covered is gone, so restore the data directory from a backup`);
}
