// Incremental checkpoints. Sealed batches are immutable objects, so a batch written once is never
// written again: each batch knows the file that holds it (SealedBatch.stored, set once the
// manifest naming it is durable — from then on its columns may leave memory), and a checkpoint
// writes only batches no kept file holds — into Arrow IPC stream files of bounded size, each with the SYMBOL dictionaries of its table at that moment (a
// table's dictionary only grows, so a later one is a superset of an earlier one). Its MANIFEST
// names every file it keeps, those of earlier checkpoints included. A file whose batches are
// mostly gone (replaced by compaction or late rows) has its live ones rewritten, so dead rows
// cannot pile up. Blobs are kept the same way: a blob's data and MIME type never change (a put
// makes a new entry object), so each is written once, into a blob file of the checkpoint that
// first saw it, and later manifests name that file with the indexes of its items that died since;
// a blob file mostly dead has its live blobs rewritten. Tags, attachments and the expiry of kept
// blobs whose expiry changed are small, and rewritten each time. All of it is streamed as frames.
// The manifest keeps each batch's statistics and where its columns lie in its file, so `open`
// reads manifests (and one region per table holding its SYMBOL dictionaries), not column data:
// batches are read back column by column when a reader needs them (arrow-format/stored-arrow-batch.ts).
//
// Crash safety: data files are written and fsynced, the directory fsynced, then the manifest is
// written to a temporary file, fsynced, renamed and the directory fsynced again. Until that
// rename the previous manifest is the database, and the new files are leftovers; after it, the
// files no manifest names are deleted (on open too, for a checkpoint cut short by a crash). A
// checkpoint that fails before its manifest is renamed (ENOSPC, typically) deletes what it wrote
// at once, so a full disk is not made fuller by its leftovers; the previous one stays the database.
import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordBatch, Schema, Vector } from 'apache-arrow';
import type { Entry, EntryStore } from '../../catalog/entry-store.js';
import { SvcError } from '../../errors.js';
import { buildBatch } from '../../storage/batch-builder.js';
import { SealedBatch } from '../../storage/sealed-batch.js';
import { SymbolDictionary } from '../../storage/symbol-dictionary.js';
import { Table } from '../../storage/table.js';
import type { TableLayout } from '../../storage/table-layout.js';
import type { BatchStager } from '../../storage/storage-context.js';
import { viewRows } from '../../storage/view-rows.js';
import { isNoSpace } from '../disk-guard.js';
import type { SpaceWatch } from '../disk-guard.js';
import { ioLimits } from '../io-limits.js';
import { listSegments, segmentName } from '../wal/segments.js';
import { syncDir } from '../wal/wal-writer.js';
import { readArrowFile } from './arrow-format/arrow-file-reader.js';
import { encodeBatch } from './batch-codec.js';
import type { EncodedBatch } from './batch-codec.js';
import { decodeHead, encodeHead, writeColumnFile } from './column-file.js';
import type { ColumnPlace, RegionPlace } from './column-file.js';
import { CheckpointFiles } from './checkpoint-files.js';
import { readEntryFile, writeEntryFiles } from './entries-file.js';
import type { EntryItem } from './entries-file.js';
import type { BatchPlace } from './arrow-format/stored-arrow-batch.js';
import type { ColumnDef, ColumnStats, ColumnType, TimeToLive } from '../../types.js';
import { readManifest, writeManifest } from './manifest.js';
import { blobFileName, checkpointsDir, entriesFileName, FORMAT_MARKER, isEarlierLayout, isOwned, isTableFile, isWrittenBy, listManifests, manifestName, stagedFileName, tableFileName, writeFormatMarker, writerOf } from './checkpoint-folder.js';
import type { BatchRef, BlobItem, DataFile, Manifest, TableManifest, ViewManifest } from './manifest.js';
import { StoredEntryBlob } from './stored-blob.js';
import { BlobContent } from '../../catalog/blob-content.js';
import { StoredArrowBatch } from './arrow-format/stored-arrow-batch.js';
import { StoredColumnBatch } from './stored-column-batch.js';
import { crc32 } from '@node-rs/crc32';

/** Staged files' tags: unique to this process, and a counter of the process's stagings after it. */
const STAGE_TAG = `${Date.now().toString(36)}${process.pid.toString(36)}x`;
let stagings = 0;

/** A shard's batches start a new data file when the file under way holds 1/SHARD_FILE_SHARE of the cap. */
const SHARD_FILE_SHARE = 16;

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

/** Where a blob file holds a blob: the file and the item's index in it. */
interface BlobLocation {
  readonly file: string;
  readonly index: number;
}

interface SnapshotTable {
  readonly table: Table;
  /** The table's columns and Arrow schema when the snapshot was taken (columns added later are in the WAL after it). */
  readonly columns: readonly ColumnDef[];
  /** The table's TTL when the snapshot was taken. */
  readonly ttl: TimeToLive | null;
  readonly schema: Schema;
  readonly batches: SealedBatch[];
  /** The table's SYMBOL dictionaries when the snapshot was taken (null for other columns). */
  readonly dictionaries: (Vector | null)[];
  /** The view whose rows the table holds, as it was then (null: a table). */
  readonly view: ViewManifest | null;
}


export function takeSnapshot(store: EntryStore, walStart: number): Snapshot {
  const entries: EntryItem[] = [];
  const blobs: SnapshotBlob[] = [];
  const tables: SnapshotTable[] = [];
  for (const [alias, e] of store.entries) {
    if (e.type === 'blob') blobs.push({ alias, entry: e, expiry: e.expiry });
    else if (e.type === 'tag') entries.push(['tag', alias]);
    else {
      const { layout } = e.table;
      const v = store.views.get(alias);
      const view = v === undefined ? null : { source: v.source, select: v.select, dirty: v.dirty.ranges.map((r): [bigint, bigint] => [r.from, r.to]), edge: v.edge, edgeStates: [...v.edgeStates] };
      tables.push({ table: e.table, columns: layout.columns, ttl: e.table.ttl, schema: layout.schema, batches: e.table.allBatches(), dictionaries: layout.dictionaries.map((d) => d?.toVector() ?? null), view });
    }
  }
  for (const [alias, tags] of store.tagsOf) for (const tag of tags) entries.push(['attach', alias, tag]);
  return { walStart, entries, blobs, tables };
}

export class Checkpointer implements BatchStager {
  /** The data files batches are read back from, and their deferred deletion. */
  readonly reads: CheckpointFiles;
  /** Where each blob of the newest durable checkpoint lives, by store entry (weak, likewise). */
  private readonly persistedBlobs = new WeakMap<BlobEntry, BlobLocation>();
  /** The data files the newest durable manifest names. */
  private files: Record<string, DataFile> = {};
  /** Files staged since the newest manifest and not named by it yet (stage()). */
  private readonly staged = new Map<string, DataFile>();
  /**
   * FORMAT_MARKER is known to exist. It is written once the first manifest is durable and never
   * removed: with it, a folder without a manifest has lost one (damage), and without it, data
   * files there are leftovers of a first checkpoint that a crash cut short (deleted).
   */
  private hasMarker = false;
  /** The newest checkpoint loaded or written here (null before either). */
  private newestSeq: number | null = null;

  /**
   * `compress`: encode columns with codecs (false: write them raw, as in memory); `space` is told
   * what checkpoints write, and when they meet ENOSPC (null: no one watches).
   */
  constructor(readonly dataDir: string, private readonly compress = true, private readonly space: SpaceWatch | null = null) {
    this.reads = new CheckpointFiles(checkpointsDir(dataDir));
  }

  /** Loads the newest checkpoint into `store` and returns the WAL segment to replay from. */
  async load(store: EntryStore): Promise<number> {
    const dir = checkpointsDir(this.dataDir);
    const seq = (await listManifests(dir)).at(-1);
    const names = await readdir(dir);
    this.hasMarker = names.includes(FORMAT_MARKER);
    if (seq === undefined) {
      if (this.hasMarker) {
        throw new SvcError('CheckpointCorrupt', `the checkpoint manifest in ${dir} is missing; the write-ahead log it covered is gone, so restore the data directory from a backup`);
      }
      if (names.some(isEarlierLayout)) {
        throw new SvcError('CheckpointCorrupt', `the checkpoint in ${dir} has the layout of an earlier svc version, which this one does not read`);
      }
      // No checkpoint ever completed here: data files are leftovers of a first one cut short.
      await this.removeUnnamed(null);
      return 0;
    }
    const manifest = await readManifest(dir, seq, damaged);
    const sumOf = (name: string): DataFile => {
      const sum = manifest.files[name];
      if (sum === undefined) throw damaged(join(dir, name));
      return sum;
    };
    // Column data is read (and checked) when used; a file's size is checked now.
    for (const [name, sum] of Object.entries(manifest.files)) {
      const size = await stat(join(dir, name)).then((s) => s.size, () => -1);
      if (size !== sum.size) throw damaged(join(dir, name));
    }
    const attachments: [string, string][] = [];
    if (manifest.blobItems !== undefined) this.restoreBlobs(store, manifest.blobItems, sumOf);
    else await this.loadBlobs(store, manifest.blobs ?? {}, sumOf);
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
      const table = new Table(t.name, t.columns, t.shardSize, store.context);
      table.ttl = t.ttl ?? null;
      store.entries.set(t.name, { type: 'ts', table });
      if (t.batches.every((ref) => ref.place !== undefined || ref.columns !== undefined)) await this.restoreTable(table, t, sumOf);
      else await this.loadTable(table, t, sumOf);
    }
    // Views once every table is back: a view's source may come after it.
    for (const t of manifest.tables) if (t.view !== undefined) store.restoreView({ name: t.name, source: t.view.source, select: t.view.select }, t.view.dirty, t.view.edge, t.view.edgeStates);
    for (const [alias, tag] of attachments) store.apply({ kind: 'TagAttach', alias, tag });
    this.files = manifest.files;
    this.newestSeq = seq;
    await this.removeUnnamed(seq);
    return manifest.walStart;
  }

  /**
   * Bytes of `batch` on disk: its share (by rows) of the data file the newest checkpoint keeps it
   * in, or 0 while no checkpoint holds it (retention by size counts these).
   */
  storedBytesOf(batch: SealedBatch): number {
    const at = batch.stored;
    const file = at === null ? undefined : this.files[at.file];
    return file === undefined || file.rows === 0 ? 0 : (file.size * batch.rowCount) / file.rows;
  }

  /**
   * Writes `snap` as checkpoint `seq`: the batches not yet on disk, the entries, the manifest. If
   * it fails before the manifest is in place, nothing of it is left behind.
   */
  async write(seq: number, snap: Snapshot): Promise<void> {
    // A checkpoint's files are named after it, and the loaded ones are read lazily: one numbered
    // like them would overwrite data the state still reads (a replica that loaded another node's
    // checkpoint n and took its own n in the same second read damaged or foreign batches).
    if (this.newestSeq !== null && seq <= this.newestSeq) {
      throw new Error(`checkpoint ${seq} refused: checkpoint ${this.newestSeq} is here already, and the new one would overwrite its files`);
    }
    try {
      await this.writeFiles(seq, snap);
    } catch (e) {
      if (isNoSpace(e)) this.space?.noteNoSpace(0);
      if (!(await this.hasManifest(seq))) await this.removeAttempt(seq).catch(() => undefined);
      throw e;
    }
  }

  /** Whether manifest `seq` is in place — true also when that cannot be told (then nothing of it may go). */
  private hasManifest(seq: number): Promise<boolean> {
    return stat(join(checkpointsDir(this.dataDir), manifestName(seq))).then(() => true, (e: NodeJS.ErrnoException) => e.code !== 'ENOENT');
  }

  /** Deletes every file checkpoint `seq` wrote (its manifest was never renamed into place). */
  private async removeAttempt(seq: number): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    for (const name of await readdir(dir)) if (isWrittenBy(name, seq)) await rm(join(dir, name), { force: true });
  }

  private async writeFiles(seq: number, snap: Snapshot): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    const files: Record<string, DataFile> = {};
    const placed: [SealedBatch, StoredColumnBatch][] = [];
    const isKept = this.keptFiles(snap);
    let fileCount = 0;
    const tables: TableManifest[] = [];
    for (const { table, columns, ttl, batches, dictionaries, view } of snap.tables) {
      const refs: BatchRef[] = new Array(batches.length);
      let head: Uint8Array | null = null;
      let group: number[] = [];
      let groupBytes = 0;
      const flush = async () => {
        if (group.length === 0) return;
        const file = tableFileName(seq, fileCount++);
        head ??= encodeHead(dictionaries.map((d) => (d === null ? null : d.toArray() as string[])));
        const { places, ...sum } = await writeColumnFile(join(dir, file), head, encodedBatches(group.map((i) => batches[i]), columns, this.compress));
        this.space?.charge(sum.size);
        files[file] = { ...sum, rows: group.reduce((n, i) => n + batches[i].rowCount, 0) };
        group.forEach((i, index) => {
          const b = batches[i];
          const { columns: place, order } = places[index];
          placed.push([b, this.storedColumns(table.layout, b.rowCount, b.stats, file, index, place, order)]);
          refs[i] = { file, index, stats: [...b.stats], columns: place, ...(order === null ? {} : { order }) };
        });
        group = [];
        groupBytes = 0;
      };
      let groupShard: bigint | null = null;
      for (let i = 0; i < batches.length; i++) {
        // Batches of earlier formats' files are written again, in this one.
        const at = batches[i].stored;
        if (at instanceof StoredColumnBatch && isKept(at.file)) {
          files[at.file] = this.known(at.file)!;
          refs[i] = { file: at.file, index: at.index, stats: [...batches[i].stats], columns: [...at.columns], ...(at.order === null ? {} : { order: at.order }) };
          continue;
        }
        // A shard that is large enough starts a file of its own, so that a shard leaving (TTL,
        // retention) frees whole files; small shards share one rather than make a file each.
        const shard = table.shardOf(batches[i].minTs);
        if (shard !== groupShard && groupBytes >= ioLimits.checkpointFileBytes / SHARD_FILE_SHARE) await flush();
        groupShard = shard;
        group.push(i);
        groupBytes += batches[i].bytes;
        if (groupBytes >= ioLimits.checkpointFileBytes) await flush();
      }
      await flush();
      tables.push({ name: table.name, columns: [...columns], shardSize: table.shardSize, ...(ttl === null ? {} : { ttl }), batches: refs, ...(view === null ? {} : { view }) });
    }
    const { blobs, blobItems, placedBlobs } = await this.writeBlobs(snap, seq, files, isKept);
    const entries: string[] = [];
    for (const { path, sum } of await writeEntryFiles(snap.entries, (n) => join(dir, entriesFileName(seq, n)))) {
      const name = path.slice(dir.length + 1);
      entries.push(name);
      files[name] = { ...sum, rows: 0, ends: [], crcs: [] };
    }
    for (const name of Object.keys(files)) if (isWrittenBy(name, seq) && !isTableFile(name)) this.space?.charge(files[name].size);
    // The new files' names must be durable before a manifest names them.
    await syncDir(dir);
    const manifest: Manifest = { version: 6, walStart: snap.walStart, files, blobs, blobItems, entries, tables };
    await writeManifest(dir, seq, manifest);
    if (!this.hasMarker) {
      await writeFormatMarker(dir);
      this.hasMarker = true;
    }
    for (const name of Object.keys(files)) this.staged.delete(name);
    for (const [batch, at] of placed) batch.markStored(at);
    for (const [entry, at] of placedBlobs) {
      this.persistedBlobs.set(entry, at);
      entry.content.markStored(this.storedBlob(at.file, at.index, files[at.file].ends));
    }
    this.files = files;
    this.newestSeq = seq;
    await this.removeUnnamed(seq);
  }

  /**
   * The blobs of `snap` not in a kept file, written to new blob files (named in `files`), each
   * read back first when evicted; returns each blob file's dead item indexes and live items (the
   * manifest's blob directory), and where the new blobs went (remembered once the manifest is
   * durable).
   */
  private async writeBlobs(snap: Snapshot, seq: number, files: Record<string, DataFile>, isKept: (file: string) => boolean) {
    const dir = checkpointsDir(this.dataDir);
    const live = new Map<string, Map<number, SnapshotBlob>>();
    const liveIn = (file: string): Map<number, SnapshotBlob> => {
      let m = live.get(file);
      if (m === undefined) live.set(file, (m = new Map()));
      return m;
    };
    const fresh: SnapshotBlob[] = [];
    for (const b of snap.blobs) {
      const at = this.persistedBlobs.get(b.entry);
      if (at === undefined || !isKept(at.file)) { fresh.push(b); continue; }
      files[at.file] = this.files[at.file];
      liveIn(at.file).set(at.index, b);
    }
    const placedBlobs = new Map<BlobEntry, BlobLocation>();
    const written = await writeEntryFiles(blobItemsOf(fresh), (n) => join(dir, blobFileName(seq, n)));
    let k = 0;
    for (const { path, sum, ends } of written) {
      const file = path.slice(dir.length + 1);
      files[file] = { ...sum, rows: ends.length, ends, crcs: [] };
      for (let index = 0; index < ends.length; index++, k++) {
        placedBlobs.set(fresh[k].entry, { file, index });
        liveIn(file).set(index, fresh[k]);
      }
    }
    const blobs: Record<string, number[]> = {};
    const blobItems: Record<string, (BlobItem | null)[]> = {};
    for (const [file, items] of live) {
      const all = Array.from({ length: files[file].rows }, (_, i) => i);
      blobs[file] = all.filter((i) => !items.has(i));
      blobItems[file] = all.map((i) => {
        const b = items.get(i);
        return b === undefined ? null : [b.alias, b.entry.mime, b.expiry, b.entry.content.size];
      });
    }
    return { blobs, blobItems, placedBlobs };
  }

  /** Where item `index` of blob file `file` (its items ending at `ends`) lies, as a reader of it. */
  private storedBlob(file: string, index: number, ends: readonly number[]): StoredEntryBlob {
    return new StoredEntryBlob(this.reads, file, index, index === 0 ? 0 : ends[index - 1], ends[index]);
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
        const at = b.stored;
        if (at !== null) add(at.file, b.rowCount);
      }
    }
    for (const b of snap.blobs) {
      const at = this.persistedBlobs.get(b.entry);
      const ends = at === undefined ? undefined : this.files[at.file]?.ends;
      if (ends !== undefined) add(at!.file, ends[at!.index] - (at!.index === 0 ? 0 : ends[at!.index - 1]));
    }
    return (file) => {
      const known = this.known(file);
      if (known === undefined) return false;
      const whole = isTableFile(file) ? known.rows : known.size;
      return 2 * (live.get(file) ?? 0) >= whole;
    };
  }

  /** The blobs of a version 4 or 5 manifest, known from it alone: contents are read back when asked for. */
  private restoreBlobs(store: EntryStore, items: Record<string, (BlobItem | null)[]>, sumOf: (name: string) => DataFile): void {
    for (const [name, fileItems] of Object.entries(items)) {
      const { ends } = sumOf(name);
      fileItems.forEach((item, index) => {
        if (item === null) return;
        const [alias, mime, expiry, size] = item;
        const entry: BlobEntry = { type: 'blob', content: new BlobContent(null, size, store.context.budget, this.storedBlob(name, index, ends)), mime, expiry };
        store.entries.set(alias, entry);
        this.persistedBlobs.set(entry, { file: name, index });
      });
    }
  }

  /** The blobs of a version 3 manifest, read from their files (each file with its dead items). */
  private async loadBlobs(store: EntryStore, files: Record<string, number[]>, sumOf: (name: string) => DataFile): Promise<void> {
    const dir = checkpointsDir(this.dataDir);
    for (const [name, deadItems] of Object.entries(files)) {
      const dead = new Set(deadItems);
      const { ends } = sumOf(name);
      await readEntryFile(join(dir, name), sumOf(name), (item, index) => {
        if (item[0] !== 'blob') throw damaged(join(dir, name));
        store.apply({ kind: 'BlobPut', alias: item[1], data: item[2], mime: item[3], expiry: item[4] });
        const entry = store.entries.get(item[1]) as BlobEntry;
        entry.content.markStored(this.storedBlob(name, index, ends));
        this.persistedBlobs.set(entry, { file: name, index });
      }, () => damaged(join(dir, name)), (index) => dead.has(index));
    }
  }

  /**
   * Restores a table of a version 4, 5 or 6 manifest without reading its data: each batch is known by its
   * statistics and where its columns lie. Only the SYMBOL dictionaries are read, from the newest
   * file of the table (a table's dictionary only grows, and every file carries it as it was).
   */
  private async restoreTable(table: Table, t: TableManifest, sumOf: (name: string) => DataFile): Promise<void> {
    const { dictionaries } = table.layout;
    if (dictionaries.some((d) => d !== null) && t.batches.length > 0) {
      const writer = t.batches.reduce((w, b) => (writerOf(b.file) > w ? writerOf(b.file) : w), '');
      const newest = [...new Set(t.batches.map((b) => b.file).filter((f) => writerOf(f) === writer))];
      if (newest.every((f) => f.endsWith('.cols'))) {
        // A DELETE's staged files carry the checkpoint number before them, so they may share the
        // newest writer with that checkpoint's files while holding a longer dictionary: of the
        // heads of that writer's files, each column's longest dictionary is the newest.
        const heads: (string[] | null)[][] = [];
        for (const f of newest) {
          const path = join(checkpointsDir(this.dataDir), f);
          heads.push(await readHead(path, sumOf(f), () => damaged(path)));
        }
        const width = Math.max(...heads.map((h) => h.length));
        setDictionaries(table, Array.from({ length: width }, (_, c) => heads.reduce<string[] | null>((d, h) => ((h[c]?.length ?? 0) > (d?.length ?? 0) ? h[c] : d), null)));
      } else {
        const path = join(checkpointsDir(this.dataDir), newest[0]);
        await readArrowFile(path, sumOf(newest[0]), (i) => i === 0, (batch) => takeDictionaries(table, [batch]), () => damaged(path));
      }
    }
    for (const ref of t.batches) {
      sumOf(ref.file);
      const rows = ref.stats[0].count;
      const stored = ref.columns !== undefined
        ? this.storedColumns(table.layout, rows, ref.stats, ref.file, ref.index, ref.columns, ref.order ?? null)
        : this.stored(table, rows, ref.stats, ref.file, ref.index, ref.place!);
      table.restore(new SealedBatch(table.layout, rows, ref.stats[0].min as bigint, ref.stats[0].max as bigint, ref.stats, null, table.layout.budget, stored));
    }
  }

  /**
   * Loads a table of a version 2 or 3 manifest, which does not say where columns lie: every
   * batch is read and rebuilt (statistics included), held in memory until the next checkpoint
   * writes it in the current format.
   */
  private async loadTable(table: Table, t: TableManifest, sumOf: (name: string) => DataFile): Promise<void> {
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
    takeDictionaries(table, loaded);
    t.batches.forEach((ref, position) => {
      const batch = loaded[position];
      if (batch === undefined) throw damaged(join(dir, ref.file));
      const old = new SealedBatch(table.layout, batch.numRows, 0n, 0n, ref.stats, batch.data.children, null);
      const rows = viewRows(old, table.columns, 0, batch.numRows);
      table.restore(buildBatch(table.layout, rows.ts, rows.columns));
    });
  }

  /** Where batch `index` of column file `file` lies, as a reader of its columns. */
  private storedColumns(layout: TableLayout, rows: number, stats: readonly ColumnStats[], file: string, index: number, columns: readonly ColumnPlace[], order: RegionPlace | null): StoredColumnBatch {
    return new StoredColumnBatch(this.reads, file, index, layout, rows, stats.map((s) => s.nullCount), columns, order);
  }

  /** Where batch `index` of Arrow file `file` (manifest versions 4 and 5) lies, as a reader of its columns. */
  private stored(table: Table, rows: number, stats: readonly ColumnStats[], file: string, index: number, place: BatchPlace): StoredArrowBatch {
    return new StoredArrowBatch(this.reads, file, index, table.layout, rows, stats.map((s) => s.nullCount), place);
  }

  /**
   * Deletes what the checkpoint code wrote that the manifest `seq` does not name, once no reader
   * that may hold batches stored there is left (checkpoint-files.ts).
   */
  private async removeUnnamed(seq: number | null): Promise<void> {
    const keep = seq === null ? null : manifestName(seq);
    const names = await readdir(checkpointsDir(this.dataDir));
    await this.reads.remove(names.filter((name) => isOwned(name) && name !== keep && this.files[name] === undefined && !this.staged.has(name)));
  }

  /** What the newest manifest, or a staging since, knows of data file `file`. */
  private known(file: string): DataFile | undefined {
    return this.files[file] ?? this.staged.get(file);
  }

  /**
   * Writes `batches`, which no table holds yet, to a file of their own now, ahead of the
   * checkpoint that will name it (BatchStager: a DELETE's replacement batches). From then on each
   * is stored there and may leave memory. The file is kept until a manifest names it — a
   * checkpoint that finds its batches in a table keeps it like its own files — or until unstaged;
   * a crash before either leaves it unnamed, deleted at the next open.
   */
  async stage(layout: TableLayout, batches: readonly SealedBatch[]): Promise<string> {
    const dir = checkpointsDir(this.dataDir);
    const file = stagedFileName(this.newestSeq ?? 0, `${STAGE_TAG}${(stagings++).toString(36)}`);
    const head = encodeHead(layout.dictionaries.map((d) => (d === null ? null : d.toVector().toArray() as string[])));
    const { places, ...sum } = await writeColumnFile(join(dir, file), head, encodedBatches(batches, layout.columns, this.compress));
    this.space?.charge(sum.size);
    this.staged.set(file, { ...sum, rows: batches.reduce((n, b) => n + b.rowCount, 0) });
    batches.forEach((b, index) => b.markStored(this.storedColumns(layout, b.rowCount, b.stats, file, index, places[index].columns, places[index].order)));
    return file;
  }

  /** A staged file whose batches no table took: the next checkpoint deletes it. */
  unstage(file: string): void {
    this.staged.delete(file);
  }
}

/** Deletes the WAL segments a durable checkpoint covers. */
export async function removeWalBefore(dataDir: string, walStart: number): Promise<void> {
  const walDir = join(dataDir, 'wal');
  for (const seq of await listSegments(walDir)) if (seq < walStart) await rm(join(walDir, segmentName(seq)), { force: true });
}

/** The blob items of `blobs` for a blob file, each content read back first when evicted. */
async function* blobItemsOf(blobs: readonly SnapshotBlob[]): AsyncGenerator<EntryItem> {
  for (const b of blobs) yield ['blob', b.alias, await b.entry.content.read(), b.entry.mime, b.expiry];
}

/**
 * `batches` with their columns encoded for a column file (`columns`: the snapshot's schema;
 * columns added after a batch was written are written as nulls), each read back first when
 * evicted and pinned until the writer has written its bytes (raw columns are views of it).
 */
async function* encodedBatches(batches: readonly SealedBatch[], columns: readonly ColumnDef[], compress: boolean): AsyncGenerator<EncodedBatch> {
  const types: ColumnType[] = ['TIMESTAMP', ...columns.map((c) => c.type)];
  for (const b of batches) {
    const all = b.allColumns;
    const loading = b.load(all);
    const release = () => b.unpin(all);
    let batch: EncodedBatch;
    try {
      if (loading !== null) await loading;
      batch = encodeBatch(types.map((_, c) => b.column(c)), types, b.rowCount, compress);
    } catch (e) {
      release();
      throw e;
    }
    yield { ...batch, release };
  }
}

/** The dictionaries of the head of column file `path`, its region checked against the manifest's CRC-32. */
async function readHead(path: string, sum: DataFile, damaged: () => Error): Promise<(string[] | null)[]> {
  const bytes = new Uint8Array(sum.ends[0]);
  const fh = await open(path, 'r').catch((e: NodeJS.ErrnoException) => { throw e.code === 'ENOENT' ? damaged() : e; });
  try {
    for (let at = 0; at < bytes.length;) {
      const { bytesRead } = await fh.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) throw damaged();
      at += bytesRead;
    }
  } finally {
    await fh.close();
  }
  if (crc32(bytes) >>> 0 !== sum.crcs[0]) throw damaged();
  try {
    return decodeHead(bytes);
  } catch {
    throw damaged();
  }
}

/** The table's SYMBOL dictionaries from a column file's head (a column added since the file was written has none yet). */
function setDictionaries(table: Table, strings: readonly (string[] | null)[]): void {
  const { dictionaries } = table.layout;
  for (let c = 0; c < dictionaries.length; c++) {
    if (dictionaries[c] !== null) dictionaries[c] = new SymbolDictionary(strings[c] ?? []);
  }
}

/** The table's SYMBOL dictionaries from `batches` read from its files: the longest is the newest. */
function takeDictionaries(table: Table, batches: readonly (RecordBatch | undefined)[]): void {
  const { dictionaries } = table.layout;
  for (let c = 0; c < dictionaries.length; c++) {
    if (dictionaries[c] === null) continue;
    let longest: Vector | null = null;
    for (const b of batches) {
      // A file written before the column was added has no such child.
      const dict = b?.data.children[c + 1]?.dictionary;
      if (dict !== undefined && (longest === null || dict.length > longest.length)) longest = dict;
    }
    dictionaries[c] = new SymbolDictionary(longest === null ? [] : (longest.toArray() as string[]));
  }
}

function damaged(path: string): SvcError {
  return new SvcError('CheckpointCorrupt', `checkpoint file ${path} is damaged or missing (size or checksum mismatch); the write-ahead log it covered is gone, so restore the data directory from a backup`);
}
