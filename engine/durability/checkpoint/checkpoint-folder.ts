// The layout of a data directory's checkpoints folder, owned here alone: what each file is called,
// which files the checkpoint code owns, which files make up one checkpoint, and the format marker.
// Checkpoint `seq` is its manifest, `<seq as 12 digits>.manifest`, and the data files it names —
// its own and those of earlier checkpoints it keeps — each named after the checkpoint that wrote
// it: `<seq>-<n>.cols` (tables' batches, columns encoded: column-file.ts; `.arrows`, Arrow IPC, in
// checkpoints of formats 2–5), `<seq>-b<n>.bin` (blobs) and `<seq>-e<n>.bin` (tags and
// attachments); a file is written once and never changed. `FORMAT`
// marks a folder where a checkpoint once completed. The local checkpointer (checkpoint.ts) writes
// and reads this layout; a cluster copies checkpoints between nodes by it (cluster-checkpoints.ts).
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir } from '../wal/wal-writer.js';

/** Written once the first manifest is durable and never removed (Checkpointer.load says why). */
export const FORMAT_MARKER = 'FORMAT';
const FORMAT_TEXT = 'svc checkpoints, format 2\n';

const MANIFEST_NAME = /^(\d{12})\.manifest$/;
const DATA_FILE_NAME = /^\d{12}-.+\.(cols|arrows|bin)$/;
/** Names the checkpoint code writes (temporary ones included); anything else in the folder is left alone. */
const OWNED_NAME = /^\d{12}(\.manifest|-.+\.(cols|arrows|bin))(\.tmp)?$/;

export function checkpointsDir(dataDir: string): string {
  return join(dataDir, 'checkpoints');
}

/** The name of checkpoint `seq` (the WAL segment it starts replay from, or a cluster's number); its files start with it. */
export function checkpointName(seq: number): string {
  return String(seq).padStart(12, '0');
}

export function manifestName(seq: number): string {
  return `${checkpointName(seq)}.manifest`;
}

/** File `n` of checkpoint `seq` holding tables' batches (columns encoded, column-file.ts). */
export function tableFileName(seq: number, n: number): string {
  return `${checkpointName(seq)}-${n}.cols`;
}

/**
 * A file of batches written ahead of the checkpoint that will name it (a DELETE's replacement
 * batches, staged so they may leave memory before they join a table): `tag` is unique to the
 * process and the file, so no other file of checkpoint `seq` is ever called so.
 */
export function stagedFileName(seq: number, tag: string): string {
  return `${checkpointName(seq)}-s${tag}.cols`;
}

/** File `n` of checkpoint `seq` holding blobs. */
export function blobFileName(seq: number, n: number): string {
  return `${checkpointName(seq)}-b${n}.bin`;
}

/** File `n` of checkpoint `seq` holding tags, attachments and expiry changes. */
export function entriesFileName(seq: number, n: number): string {
  return `${checkpointName(seq)}-e${n}.bin`;
}

/** A file of tables' batches: this format's, or an Arrow IPC file of formats 2–5. */
export function isTableFile(name: string): boolean {
  return name.endsWith('.cols') || name.endsWith('.arrows');
}

/** The name of the checkpoint that wrote data file `name` (checkpoint names sort as their numbers). */
export function writerOf(name: string): string {
  return name.slice(0, 12);
}

/** A data file: written once by one checkpoint and never changed (a copy of it stays good). */
export function isDataFile(name: string): boolean {
  return DATA_FILE_NAME.test(name);
}

/** Written by the checkpoint code (a manifest or a data file, finished or not). */
export function isOwned(name: string): boolean {
  return OWNED_NAME.test(name);
}

/** Written by checkpoint `seq`: one of its data files or its manifest, finished or not. */
export function isWrittenBy(name: string, seq: number): boolean {
  return isOwned(name) && writerOf(name) === checkpointName(seq);
}

/** A folder entry of the layout before manifests (a directory per checkpoint), which this version does not read. */
export function isEarlierLayout(name: string): boolean {
  return /^\d{12}$/.test(name);
}

/** Numbers of the complete (renamed) manifests in folder `dir`, ascending. */
export async function listManifests(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.flatMap((n) => MANIFEST_NAME.exec(n)?.[1] ?? []).map(Number).sort((a, b) => a - b);
}

/**
 * The files of folder `dir` that make up checkpoint `seq` whose manifest names `dataFiles`: the
 * manifest, the format marker when the folder has it, and the data files — what a copy of the
 * checkpoint elsewhere needs.
 */
export async function checkpointFiles(dir: string, seq: number, dataFiles: Iterable<string>): Promise<string[]> {
  const hasMarker = (await readdir(dir)).includes(FORMAT_MARKER);
  return [manifestName(seq), ...(hasMarker ? [FORMAT_MARKER] : []), ...dataFiles];
}

/** Writes the format marker durably (the file, then the folder). */
export async function writeFormatMarker(dir: string): Promise<void> {
  const fh = await open(join(dir, FORMAT_MARKER), 'w');
  try {
    await fh.writeFile(FORMAT_TEXT);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await syncDir(dir);
}
