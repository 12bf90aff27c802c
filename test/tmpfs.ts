// Small tmpfs file systems for the full-disk tests: mounted on a temporary folder, unmounted (and
// the folder removed) in a finally. Mounting needs root — `.ci/run` runs the suite as root —
// so elsewhere those tests skip with a message saying so; with CI=true a mount that fails is a
// failure, never a skip. `fillDisk` leaves a chosen number of bytes free with a filler file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGE = 4096;

function mount(dir: string, bytes: number): string | null {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? null : `mount -t tmpfs failed: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}`;
}

function unmount(dir: string): void {
  // A file still open in a child that is being killed keeps the mount busy a moment: lazy then.
  if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
}

/** Why tmpfs tests cannot run here (not root, mount refused), or null. Throws under CI=true. */
export function tmpfsMissing(): string | null {
  let why: string | null = null;
  if (process.getuid?.() !== 0) {
    why = 'not root: the full-disk tests mount a small tmpfs (.ci/run runs the suite as root)';
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tmpfs-probe-'));
    why = mount(dir, 1024 * 1024);
    if (why === null) unmount(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  if (why !== null && process.env.CI === 'true') throw new Error(`CI: ${why}`);
  return why;
}

/** Runs `run` on a fresh tmpfs of `bytes` bytes, unmounted afterwards whatever happens. */
export async function withTmpfs<T>(bytes: number, run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tmpfs-'));
  const failed = mount(dir, bytes);
  if (failed !== null) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(failed);
  }
  try {
    return await run(dir);
  } finally {
    unmount(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Free bytes of the file system holding `dir`, as an unprivileged writer sees them. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/**
 * Writes a filler file into `dir` so that about `leaveFree` bytes (rounded down to a page) stay
 * free; returns its path (delete it to give the space back).
 */
export async function fillDisk(dir: string, leaveFree: number, name = 'filler'): Promise<string> {
  const path = join(dir, name);
  const free = await freeBytes(dir);
  const size = Math.max(0, Math.floor((free - leaveFree) / PAGE) * PAGE);
  await writeFile(path, Buffer.alloc(size));
  return path;
}
