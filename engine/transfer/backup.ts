// An online backup of a data directory: a consistent copy, taken while the database serves,
// that a database opened on it serves as it was — every write acknowledged before the call
// included (its checkpoint was taken after the call began, so it holds them all).
//   1. A checkpoint (the scheduler's, so no other runs meanwhile), then, before the next one can
//      start and delete it, the WAL written since: each segment from the checkpoint's on, copied
//      up to the length it has at that moment — records are written whole and synchronously, so
//      that length ends on a record boundary.
//   2. A lease on the checkpoint's files (no later checkpoint deletes them while they are copied),
//      then each file the manifest names hard-linked — checkpoint files are written once and never
//      changed, so a link is a copy — or copied where a link cannot be made (another file system).
//      Files are opaque here: only the manifest's list of names is read.
//   3. The manifest last, so a copy cut short has none and is seen as incomplete, never opened
//      as a smaller database. Files and directories are fsynced.
// The WAL is always copied, never linked: recovery may cut a torn tail off the last segment, and
// the original's segment must not change with it.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../errors.js';
import { checkpointFiles, checkpointsDir, manifestName } from '../durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../durability/checkpoint/manifest.js';
import { listSegments, segmentName } from '../durability/wal/segments.js';
import { syncDir } from '../durability/wal/wal-writer.js';

/** What a backup needs of the database it copies. */
export interface BackupSource {
  readonly dataDir: string;
  /** Takes a checkpoint, then runs `then(seq)` before any other checkpoint starts. */
  checkpoint(then: (seq: number) => Promise<void>): Promise<void>;
  /** Keeps every checkpoint file named now until the returned function is called. */
  lease(): () => void;
}

export interface BackupResult {
  readonly dir: string;
  /** The checkpoint the backup holds, and the WAL segments after it. */
  readonly checkpoint: number;
  readonly walSegments: number;
  readonly files: number;
  readonly bytes: number;
  /** Files hard-linked rather than copied. */
  readonly linked: number;
}

export async function backupDatabase(source: BackupSource, dir: string): Promise<BackupResult> {
  if (typeof dir !== 'string' || dir === '') throw new SvcError('InvalidArgument', 'a backup needs a directory to write to');
  const existing = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw new SvcError('InvalidArgument', `cannot use ${dir} for a backup: ${e.message}`);
  });
  if (existing.length > 0) throw new SvcError('InvalidArgument', `the backup directory ${dir} is not empty; a backup goes into a new or empty directory`);
  const from = source.dataDir;
  const toCheckpoints = checkpointsDir(dir);
  const toWal = join(dir, 'wal');
  await mkdir(toCheckpoints, { recursive: true });
  await mkdir(toWal, { recursive: true });
  let seq = -1;
  let release: (() => void) | null = null;
  let walSegments = 0;
  let bytes = 0;
  try {
    await source.checkpoint(async (n) => {
      seq = n;
      release = source.lease();
      // Lengths first, in one synchronous step: every segment ends on a whole record.
      const walDir = join(from, 'wal');
      const lengths = (await listSegments(walDir)).filter((s) => s >= n).map((s) => [s, sizeOf(join(walDir, segmentName(s)))] as const);
      for (const [s, length] of lengths) {
        if (length <= 0) continue;
        bytes += await copyPrefix(join(walDir, segmentName(s)), join(toWal, segmentName(s)), length);
        walSegments++;
      }
    });
    const fromCheckpoints = checkpointsDir(from);
    const manifest = await readManifest(checkpointsDir(from), seq, (path) => new SvcError('CheckpointCorrupt', `the checkpoint manifest ${path} just written does not read back`));
    // What makes up the checkpoint (the folder's layout says), its manifest copied last below.
    const manifestFile = manifestName(seq);
    const names = (await checkpointFiles(fromCheckpoints, seq, Object.keys(manifest.files))).filter((n) => n !== manifestFile);
    let linked = 0;
    for (const name of names) {
      const r = await linkOrCopy(join(fromCheckpoints, name), join(toCheckpoints, name));
      bytes += r.bytes;
      if (r.isLinked) linked++;
    }
    bytes += (await linkOrCopy(join(fromCheckpoints, manifestFile), join(toCheckpoints, `${manifestFile}.tmp`), true)).bytes;
    await syncDir(toCheckpoints);
    await syncFile(join(toCheckpoints, `${manifestFile}.tmp`));
    await rename(join(toCheckpoints, `${manifestFile}.tmp`), join(toCheckpoints, manifestFile));
    await syncDir(toCheckpoints);
    await syncDir(toWal);
    await syncDir(dir);
    return { dir, checkpoint: seq, walSegments, files: names.length + 1, bytes, linked };
  } catch (e) {
    // Nothing half-done is left behind: the directory was empty or new.
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (e instanceof SvcError) throw e;
    throw new SvcError('StorageFailed', `the backup to ${dir} failed: ${(e as Error).message}`, { cause: e });
  } finally {
    (release as (() => void) | null)?.();
  }
}

function sizeOf(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** Copies the first `length` bytes of `from` to a new file `to`, fsynced; returns the bytes. */
async function copyPrefix(from: string, to: string, length: number): Promise<number> {
  const src = await open(from, 'r');
  const dst = await open(to, 'wx');
  try {
    const buf = Buffer.allocUnsafe(Math.min(length, 4 * 1024 * 1024));
    for (let at = 0; at < length;) {
      const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, length - at), at);
      if (bytesRead === 0) throw new Error(`${from} ended at byte ${at}, before ${length}`);
      await dst.write(buf, 0, bytesRead, at);
      at += bytesRead;
    }
    await dst.sync();
    return length;
  } finally {
    await src.close();
    await dst.close();
  }
}

/** Hard-links `from` to `to`, or copies it (another file system, no links there, or `isCopied`). */
async function linkOrCopy(from: string, to: string, isCopied = false): Promise<{ bytes: number; isLinked: boolean }> {
  const size = sizeOf(from);
  if (!isCopied) {
    try {
      await link(from, to);
      return { bytes: size, isLinked: true };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    }
  }
  await copyFile(from, to);
  await syncFile(to);
  return { bytes: size, isLinked: false };
}

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
